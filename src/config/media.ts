// Uploaded files: where they are stored, how large they may be, and their signed URLs.
import type { MediaStorageSpec } from '../storage/open-media-storage.ts';
import { duration, size, text } from './parsers.ts';
import { parseS3Url, s3Settings } from './s3.ts';
import { ConfigError, type Parser, type Settings, type Variables } from './variable.ts';

export interface MediaConfig {
  /** MEDIA_STORAGE (with S3_ENDPOINT, S3_FORCE_PATH_STYLE and the AWS_* variables for s3://). */
  mediaStorage: MediaStorageSpec;
  mediaMaxBytes: number;
  mediaUrlTtlMs: number;
  mediaUrlSecret: string | undefined;
}

/** Stands in for a bad MEDIA_STORAGE while the other variables are read. */
const NO_STORAGE = { kind: 'fs', directory: '' } as const;

/** `fs:<directory>`, or `s3://<bucket>[/<prefix>]` (its bucket and prefix; the S3 settings are added by loadMedia). */
const mediaStorage: Parser<{ kind: 'fs'; directory: string } | { kind: 's3'; bucket: string; prefix: string }> = {
  parse(value, name) {
    if (/^fs:.+/.test(value)) return { kind: 'fs', directory: value.slice('fs:'.length) };
    const s3 = parseS3Url(value);
    if (!s3) throw new ConfigError(`${name} must be "fs:<directory>" or "s3://<bucket>[/<prefix>]", got "${value}"`);
    return { kind: 's3', ...s3 };
  },
  placeholder: NO_STORAGE,
};

export const MEDIA = {
  mediaStorage: {
    name: 'MEDIA_STORAGE',
    default: 'fs:data/media',
    parser: mediaStorage,
    doc: 'where uploaded files live: fs:<directory> or s3://<bucket>[/<prefix>]',
  },
  mediaMaxBytes: { name: 'MEDIA_MAX_BYTES', default: '10MiB', parser: size, doc: 'the largest upload' },
  mediaUrlTtlMs: { name: 'MEDIA_URL_TTL', default: '1h', parser: duration, doc: 'how long a signed file URL works' },
  mediaUrlSecret: { name: 'MEDIA_URL_SECRET', parser: text, doc: 'the key that signs file URLs; unset: one kept in the database' },
} satisfies Variables;

export function loadMedia(settings: Settings): MediaConfig {
  const storage = settings.read(MEDIA.mediaStorage);
  return {
    mediaStorage:
      storage.kind === 's3' ? settings.check<MediaStorageSpec>(() => ({ ...storage, ...s3Settings(settings) }), NO_STORAGE) : storage,
    mediaMaxBytes: settings.read(MEDIA.mediaMaxBytes),
    mediaUrlTtlMs: settings.read(MEDIA.mediaUrlTtlMs),
    mediaUrlSecret: settings.read(MEDIA.mediaUrlSecret),
  };
}
