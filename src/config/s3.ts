// How an S3-compatible store is reached, for media (MEDIA_STORAGE) and backups (BACKUP_LOCATION)
// alike; read only when one of them is an s3:// location.
import type { S3StorageOptions } from '../storage/s3-storage.ts';
import { choice, text, url } from './parsers.ts';
import { ConfigError, type Settings, type Variables } from './variable.ts';

/** How an S3-compatible store is reached (S3_ENDPOINT, S3_FORCE_PATH_STYLE, AWS_*): media and backups alike. */
export type S3Settings = Omit<S3StorageOptions, 'bucket' | 'prefix'>;

export const S3 = {
  endpoint: { name: 'S3_ENDPOINT', parser: url(['http:', 'https:']), doc: "an S3-compatible store's URL; unset: AWS itself" },
  forcePathStyle: {
    name: 'S3_FORCE_PATH_STYLE',
    default: 'false',
    parser: choice(['true', 'false']),
    doc: 'true: <endpoint>/<bucket>/<key> addressing',
  },
  region: {
    name: 'AWS_REGION',
    default: 'us-east-1',
    parser: {
      parse(value, name) {
        if (!/^[a-z0-9-]{1,64}$/.test(value)) throw new ConfigError(`${name} must be a region name such as "eu-west-1", got "${value}"`);
        return value;
      },
      placeholder: '',
    },
    doc: "the store's region; unset: AWS_DEFAULT_REGION, else us-east-1",
  },
  defaultRegion: { name: 'AWS_DEFAULT_REGION', parser: text, doc: 'the region when AWS_REGION is unset' },
  accessKeyId: { name: 'AWS_ACCESS_KEY_ID', parser: text, doc: "the access key; unset: the AWS SDK's own chain" },
  secretAccessKey: { name: 'AWS_SECRET_ACCESS_KEY', parser: text, doc: "the access key's secret, with AWS_ACCESS_KEY_ID" },
  sessionToken: { name: 'AWS_SESSION_TOKEN', parser: text, doc: 'a session token, with the access key' },
} satisfies Variables;

/** The S3 settings, or a ConfigError for the first bad one (they are read as a whole). */
export function s3Settings(settings: Settings): S3Settings {
  const endpoint = settings.value(S3.endpoint);
  const forcePathStyle = settings.value(S3.forcePathStyle) === 'true';
  const region = settings.value(S3.region, settings.value(S3.defaultRegion))!;
  const accessKeyId = settings.value(S3.accessKeyId);
  const secretAccessKey = settings.value(S3.secretAccessKey);
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError(
      `S3 credentials need AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together; missing ${accessKeyId ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID'}`,
    );
  }
  const sessionToken = settings.value(S3.sessionToken);
  return {
    endpoint: endpoint?.replace(/\/+$/, ''),
    forcePathStyle,
    region,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) } : undefined,
  };
}

/** `s3://<bucket>[/<prefix>]` → bucket and prefix ('' or ending in '/'); undefined: not such a URL. */
export function parseS3Url(value: string): { bucket: string; prefix: string } | undefined {
  // Bucket names as S3 allows them; a prefix of path segments (no empty, "." or ".." segment).
  const s3 = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9!_.*'()/-]*))?$/.exec(value);
  const segments = (s3?.[2] ?? '').split('/').filter((segment) => segment !== '');
  if (!s3 || segments.some((segment) => segment === '.' || segment === '..')) return undefined;
  return { bucket: s3[1]!, prefix: segments.map((segment) => `${segment}/`).join('') };
}
