// Configuration: every environment variable of docs/getting-started.md (and the few knobs we add),
// validated once at start-up into one typed object. Every bad value is collected and one
// ConfigError names them all (so an operator fixes .env once, not once per variable);
// main.ts prints them and exits.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Cron } from 'croner';
import { isLoopbackName } from './http/loopback.ts';
import type { MediaStorageSpec } from './storage/open-media-storage.ts';
import type { S3StorageOptions } from './storage/s3-storage.ts';

export class ConfigError extends Error {
  /** Each bad variable's message; one, unless loadConfig found several. */
  readonly problems: string[];
  constructor(messageOrProblems: string | string[]) {
    const problems = typeof messageOrProblems === 'string' ? [messageOrProblems] : messageOrProblems;
    super(problems.join('\n'));
    this.problems = problems;
  }
}

/** How an S3-compatible store is reached (S3_ENDPOINT, S3_FORCE_PATH_STYLE, AWS_*): media and backups alike. */
export type S3Settings = Omit<S3StorageOptions, 'bucket' | 'prefix'>;

/** Where backups go: a folder, or `s3://<bucket>[/<prefix>]` (reached with the S3 settings). */
export type BackupLocation = { kind: 'folder'; directory: string } | ({ kind: 's3' } & S3StorageOptions);

export interface RateLimit {
  max: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** PostgreSQL: connections kept, and how long a connection (or a free one) and a query may take. */
  database: {
    poolSize: number;
    connectTimeoutMs: number;
    queryTimeoutMs: number;
  };
  smtpUrl: string | undefined;
  /** DEV_INBOX: the development inbox (mail/dev-inbox.ts): on, off, or auto (on for a local run only). */
  devInbox: 'auto' | 'on' | 'off';
  /** NODE_ENV=production. */
  production: boolean;
  /** How long the SMTP server may take to accept the connection, greet, or answer a command. */
  smtpTimeoutMs: number;
  mailFrom: string;
  mailDir: string;
  emailVerificationUrl: string;
  passwordResetUrl: string;
  /** MEDIA_STORAGE (with S3_ENDPOINT, S3_FORCE_PATH_STYLE and the AWS_* variables for s3://). */
  mediaStorage: MediaStorageSpec;
  /**
   * Backups the running service makes itself (BACKUP_SCHEDULE, a cron expression, with
   * BACKUP_LOCATION; BACKUP_KEEP: the newest N kept); undefined: none (SQLite only).
   */
  backup: { schedule: string; location: BackupLocation; keep: number | undefined } | undefined;
  mediaMaxBytes: number;
  mediaUrlTtlMs: number;
  mediaUrlSecret: string | undefined;
  /** Keys that seal TOTP secrets (MFA_ENCRYPTION_KEY; the first seals, all open); empty: a key kept in the database. */
  mfaEncryptionKeys: Buffer[];
  /**
   * Keys that authenticate backups' manifests (BACKUP_KEY; the first signs, all verify). Kept
   * apart from the backups, so that whoever can change a backup cannot make it restore; empty:
   * the backup and restore commands refuse.
   */
  backupKeys: Buffer[];
  /** The issuer an authenticator app shows beside the account. */
  mfaIssuer: string;
  /** Passkeys (docs/sign-in-providers.md): the relying party's id and name, and the origins a passkey may be used from. */
  webauthn: { rpId: string; rpName: string; origins: string[] };
  /** Sign in with another provider (docs/sign-in-providers.md, OIDC_PROVIDERS): in the order the operator listed them. */
  oidcProviders: OidcProviderConfig[];
  renderCacheBytes: number;
  /** Data exports running at once on this instance; beyond, 503. */
  exportsAtOnce: number;
  /** Where large answers (an export's account.json, the largest views) are written before they are sent. */
  spoolDir: string;
  messaging:
    | {
        providerId: string;
        keyId: string;
        privateKeyFile: string;
        tokenTtlSeconds: number;
      }
    | undefined;
  mailchimp:
    | {
        apiKey: string;
        listId: string;
        apiUrl: string;
      }
    | undefined;
  tokenIdleTtlMs: number;
  emailVerificationTtlMs: number;
  passwordResetTtlMs: number;
  /** How long an address is held by an account, or a secondary address, that was never verified. */
  unverifiedAccountTtlMs: number;
  /** How long the change log keeps a change (docs/offline-and-live.md): CHANGES_RETENTION. */
  changesRetentionMs: number;
  /** Live streams open at once per account, on one instance (docs/offline-and-live.md): EVENT_STREAMS_PER_ACCOUNT. */
  eventStreamsPerAccount: number;
  /** Live streams open at once per client IP (an IPv6 client by its /64), on one instance: EVENT_STREAMS_PER_IP. */
  eventStreamsPerIp: number;
  /** How often a live stream sends a comment line and checks itself: EVENT_HEARTBEAT (at most 30 s, as docs/offline-and-live.md asks). */
  eventHeartbeatMs: number;
  rateLimits: {
    enabled: boolean;
    loginFailuresPerAccountIp: RateLimit;
    loginFailuresPerIp: RateLimit;
    loginFailuresPerAccount: RateLimit;
    register: RateLimit;
    resetPassword: RateLimit;
    verifyEmail: RateLimit;
    changePassword: RateLimit;
    passwordChecksPerAccount: RateLimit;
    /** Wrong second-step codes in a row per account: past it, the second step waits out the window. */
    secondStepFailuresPerAccount: RateLimit;
    emailPerAddress: RateLimit;
    verificationEmailsPerAccount: RateLimit;
    /** Invitation e-mails to one address, whoever sends them; past it an invitation is made but not mailed. */
    invitationEmailsPerAddress: RateLimit;
    /** Invitation e-mails one account causes, to any addresses; past it an invitation is refused (429). */
    invitationEmailsPerAccount: RateLimit;
    exportsPerAccount: RateLimit;
    /** Passkey sign-in options (challenges) asked for per client IP. */
    passkeyOptionsPerIp: RateLimit;
    /** Sign-ins with another provider per client IP: web flows started, ID tokens and login codes sent (together). */
    providerSignInPerIp: RateLimit;
    /** Requests to the public emergency link routes per client IP (GET and POST together). */
    emergencyLinkPerIp: RateLimit;
    /** Wrong PINs per emergency link: past it, the link answers 429 for the window's length. */
    emergencyPinFailures: RateLimit;
    /** Windows the in-memory counters (one SQLite instance) keep per window length. */
    memoryKeys: number;
  };
  quotas: {
    profilesPerUser: number;
    topicsPerProfile: number;
    itemsPerTopic: number;
    entriesPerItem: number;
    emergencyItemsPerUser: number;
    emergencyContactsPerUser: number;
    emergencyLinksPerUser: number;
    mediaPerUser: number;
    emailsPerAccount: number;
    /** Accessors (invitations, accepted or not) per app user: ACCESSOR_QUOTA (docs/sharing.md). */
    accessorsPerUser: number;
    /** Account-wide bounds (docs/app-data.md): what one app user holds as a whole. */
    itemsPerAccount: number;
    entriesPerAccount: number;
    mediaBytesPerAccount: number;
  };
  outbox: {
    /** false: this instance queues messages but leaves their delivery to other instances. */
    workerEnabled: boolean;
    pollIntervalMs: number;
    retryBaseMs: number;
    maxAttempts: number;
  };
  trustProxy: boolean | string | number;
  /** Origins whose pages may call the API from a browser (CORS_ORIGINS); empty: none; ['*']: any. */
  corsOrigins: string[];
  /** Event-loop delay above which requests get 503 (0: never). */
  overloadEventLoopDelayMs: number;
  logLevel: string;
  /** json: one JSON object a line; pretty: pino-pretty's coloured lines (development). */
  logFormat: 'json' | 'pretty';
  /** GET /metrics (Prometheus) on a listener of its own; undefined: METRICS_PORT unset, off. */
  metrics: { port: number; host: string } | undefined;
  /** The web client's built files (index.html, assets/), served at / (WEB_CLIENT_DIR). */
  webClientDir: string;
}

/** One OpenID provider of OIDC_PROVIDERS. */
export interface OidcProviderConfig {
  /** Lower-case, as in the URLs (/auth/oidc/<name>/…); its variables are OIDC_<NAME>_…. */
  name: string;
  /** What the buttons say: "Continue with <label>". */
  label: string;
  /** The issuer: discovery reads <issuer>/.well-known/openid-configuration. */
  issuer: string;
  /** The web client id first, then the apps' (iOS bundle id, Android client id): an ID token for any of them is accepted. */
  clientIds: string[];
  /** undefined: Apple (its secret is made from `apple`), or a public client (PKCE only). */
  clientSecret: string | undefined;
  /** Sign in with Apple: the secret is an ES256 JWT signed with this key; the nonce in its ID tokens is the SHA-256 of the app's. */
  apple: { teamId: string; keyId: string; privateKeyFile: string } | undefined;
}

type Env = Record<string, string | undefined>;

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** "3600", "30d", "90s", "1h" → milliseconds. A bare number is seconds. */
/** A live stream's heartbeat: a comment line at least every 30 s (docs/offline-and-live.md). */
function heartbeat(ms: number): number {
  if (ms > 30_000) throw new ConfigError('EVENT_HEARTBEAT must be at most 30s: clients and proxies count on a line at least that often');
  return ms;
}

export function parseDuration(name: string, value: string): number {
  const match = /^(\d+)\s*(ms|s|m|h|d|w)?$/i.exec(value.trim());
  if (!match) throw new ConfigError(`${name} must be a number of seconds or a value with a unit (ms, s, m, h, d, w), got "${value}"`);
  return Number(match[1]) * DURATION_UNITS[(match[2] ?? 's').toLowerCase()]!;
}

export function parseSize(name: string, value: string): number {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(value.trim());
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined)
    throw new ConfigError(`${name} must be a number of bytes or a value with a unit (KiB, MiB, GiB), got "${value}"`);
  return Number(match[1]) * unit;
}

/** "5/5m" → at most 5 in 5 minutes. */
export function parseRateLimit(name: string, value: string): RateLimit {
  const match = /^(\d+)\s*\/\s*(\S+)$/.exec(value.trim());
  if (!match || Number(match[1]) < 1) throw new ConfigError(`${name} must look like "5/5m" (count per window), got "${value}"`);
  return { max: Number(match[1]), windowMs: parseDuration(name, match[2]!) };
}

function parseInteger(name: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

function parseUrl(name: string, value: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${value}"`);
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(`${name} must start with ${protocols.join(' or ')}, got "${value}"`);
  return value;
}

function parseTemplate(name: string, value: string): string {
  if (!value.includes('{key}')) throw new ConfigError(`${name} must contain "{key}", got "${value}"`);
  parseUrl(name, value.replace('{key}', 'k'), ['http:', 'https:']);
  return value;
}

/** MFA_ENCRYPTION_KEY, BACKUP_KEY: comma-separated 32-byte keys, base64 or hex (`openssl rand -base64 32`). */
function parseKeys(name: string, value: string | undefined): Buffer[] {
  if (value === undefined) return [];
  return value.split(',').map((text) => {
    const trimmed = text.trim();
    const hex = /^[0-9a-f]{64}$/i.test(trimmed);
    const key = Buffer.from(trimmed, hex ? 'hex' : 'base64');
    // Buffer.from skips what is not base64; a key that does not read back the same was not base64.
    const readsBack = hex || key.toString('base64').replace(/=+$/, '') === trimmed.replace(/=+$/, '');
    if (key.length !== 32 || !readsBack) {
      throw new ConfigError(`${name} must be 32-byte keys in base64 or hex, comma-separated (e.g. from "openssl rand -base64 32")`);
    }
    return key;
  });
}

/** S3_ENDPOINT (unset: AWS), S3_FORCE_PATH_STYLE, AWS_REGION (or AWS_DEFAULT_REGION; default us-east-1), AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN; unset: the SDK's own chain). */
function parseS3Settings(get: (name: string) => string | undefined): S3Settings {
  const endpoint = get('S3_ENDPOINT');
  if (endpoint !== undefined) parseUrl('S3_ENDPOINT', endpoint, ['http:', 'https:']);
  const pathStyle = (get('S3_FORCE_PATH_STYLE') ?? 'false').toLowerCase();
  if (pathStyle !== 'true' && pathStyle !== 'false')
    throw new ConfigError(`S3_FORCE_PATH_STYLE must be "true" or "false", got "${pathStyle}"`);
  const region = get('AWS_REGION') ?? get('AWS_DEFAULT_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) throw new ConfigError(`AWS_REGION must be a region name such as "eu-west-1", got "${region}"`);
  const accessKeyId = get('AWS_ACCESS_KEY_ID');
  const secretAccessKey = get('AWS_SECRET_ACCESS_KEY');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError(
      `S3 credentials need AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together; missing ${accessKeyId ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID'}`,
    );
  }
  const sessionToken = get('AWS_SESSION_TOKEN');
  return {
    endpoint: endpoint?.replace(/\/+$/, ''),
    forcePathStyle: pathStyle === 'true',
    region,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) } : undefined,
  };
}

/** `s3://<bucket>[/<prefix>]` → bucket and prefix ('' or ending in '/'); undefined: not such a URL. */
function parseS3Url(value: string): { bucket: string; prefix: string } | undefined {
  // Bucket names as S3 allows them; a prefix of path segments (no empty, "." or ".." segment).
  const s3 = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9!_.*'()/-]*))?$/.exec(value);
  const segments = (s3?.[2] ?? '').split('/').filter((segment) => segment !== '');
  if (!s3 || segments.some((segment) => segment === '.' || segment === '..')) return undefined;
  return { bucket: s3[1]!, prefix: segments.map((segment) => `${segment}/`).join('') };
}

/**
 * MEDIA_STORAGE: `fs:<directory>`, or `s3://<bucket>[/<prefix>]` with S3_ENDPOINT (unset: AWS),
 * S3_FORCE_PATH_STYLE, AWS_REGION (or AWS_DEFAULT_REGION; default us-east-1) and
 * AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN; unset: the SDK's own chain).
 */
function parseMediaStorage(get: (name: string) => string | undefined, s3Settings: () => S3Settings): MediaStorageSpec {
  const value = get('MEDIA_STORAGE') ?? 'fs:data/media';
  if (/^fs:.+/.test(value)) return { kind: 'fs', directory: value.slice('fs:'.length) };
  const s3 = parseS3Url(value);
  if (!s3) throw new ConfigError(`MEDIA_STORAGE must be "fs:<directory>" or "s3://<bucket>[/<prefix>]", got "${value}"`);
  return { kind: 's3', ...s3, ...s3Settings() };
}

/**
 * A backup location (BACKUP_LOCATION, or the backup and restore commands' argument): a folder,
 * or `s3://<bucket>[/<prefix>]` reached with the S3 settings of `env` (read only then).
 */
export function parseBackupLocation(name: string, value: string, env: Env = process.env): BackupLocation {
  if (value.startsWith('s3:')) {
    const s3 = parseS3Url(value);
    if (!s3) throw new ConfigError(`${name} must be a folder or "s3://<bucket>[/<prefix>]", got "${value}"`);
    return { kind: 's3', ...s3, ...parseS3Settings(envGetter(env)) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value))
    throw new ConfigError(`${name} must be a folder or "s3://<bucket>[/<prefix>]", got "${value}"`);
  return { kind: 'folder', directory: resolve(value) };
}

export const BACKUP_KEY_MISSING =
  'backups need BACKUP_KEY, the key that authenticates them: 32 bytes in base64 or hex (make one with "openssl rand -base64 32") kept apart from the backups, as docs/production.md ("Backups and restore") says';

/** BACKUP_SCHEDULE (5 or 6 cron fields, checked by croner), BACKUP_LOCATION, BACKUP_KEEP. */
function parseBackupSchedule(get: (name: string) => string | undefined, env: Env): Config['backup'] {
  const schedule = get('BACKUP_SCHEDULE');
  const locationValue = get('BACKUP_LOCATION');
  const keepValue = get('BACKUP_KEEP');
  const keep = keepValue === undefined ? undefined : parseInteger('BACKUP_KEEP', keepValue, 1);
  if (schedule === undefined) {
    if (locationValue !== undefined || keep !== undefined) throw new ConfigError('BACKUP_LOCATION and BACKUP_KEEP need BACKUP_SCHEDULE');
    return undefined;
  }
  try {
    new Cron(schedule, { paused: true }).stop();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`BACKUP_SCHEDULE must be a cron expression such as "0 3 * * *" (03:00 every day), got "${schedule}": ${reason}`);
  }
  if (locationValue === undefined) throw new ConfigError('BACKUP_SCHEDULE needs BACKUP_LOCATION (a folder or "s3://<bucket>[/<prefix>]")');
  return { schedule, location: parseBackupLocation('BACKUP_LOCATION', locationValue, env), keep };
}

/** CORS_ORIGINS: comma-separated origins (`https://app.example.com`, no path), or `*`. */
function parseOrigins(name: string, value: string | undefined): string[] {
  if (value === undefined) return [];
  return value.split(',').map((text) => {
    const origin = text.trim().replace(/\/+$/, '');
    if (origin === '*') return origin;
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {}
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== origin) {
      throw new ConfigError(
        `${name} must be origins like "https://app.example.com" (scheme, host and port only), comma-separated, or "*"; got "${text.trim()}"`,
      );
    }
    return origin;
  });
}

function parseTrustProxy(value: string | undefined): boolean | string | number {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value; // addresses or CIDR ranges, comma-separated
}

/**
 * WEBAUTHN_RP_ID (a host name: PUBLIC_URL's by default) and WEBAUTHN_ORIGINS (PUBLIC_URL by
 * default): web origins whose host is the RP id or below it, or Android apps' signing-key
 * origins (`android:apk-key-hash:<base64url SHA-256>`).
 */
function parseWebAuthn(
  rpIdValue: string | undefined,
  originsValue: string | undefined,
  publicUrl: string,
  rpName: string,
): Config['webauthn'] {
  const rpId = (rpIdValue ?? new URL(publicUrl).hostname).toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(rpId) || rpId.startsWith('.') || rpId.endsWith('.')) {
    throw new ConfigError(`WEBAUTHN_RP_ID must be a host name like "example.com" (no scheme, port or path); got "${rpIdValue}"`);
  }
  const origins = (originsValue ?? publicUrl).split(',').map((text) => {
    const origin = text.trim().replace(/\/+$/, '');
    if (/^android:apk-key-hash:[A-Za-z0-9_-]+$/.test(origin)) return origin;
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {}
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== origin) {
      throw new ConfigError(
        `WEBAUTHN_ORIGINS must be origins like "https://app.example.com" or "android:apk-key-hash:<hash>", comma-separated; got "${text.trim()}"`,
      );
    }
    if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`)) {
      throw new ConfigError(`WEBAUTHN_ORIGINS: the host of "${origin}" is not WEBAUTHN_RP_ID ("${rpId}") or below it`);
    }
    return origin;
  });
  return { rpId, rpName, origins };
}

const KNOWN_LABELS: Record<string, string> = { apple: 'Apple', google: 'Google', microsoft: 'Microsoft', gitlab: 'GitLab' };

/**
 * OIDC_PROVIDERS=<name>,… and for each OIDC_<NAME>_ISSUER, OIDC_<NAME>_CLIENT_ID (comma list),
 * OIDC_<NAME>_CLIENT_SECRET (optional: a public client), OIDC_<NAME>_LABEL (optional); the
 * provider named `apple` takes OIDC_APPLE_TEAM_ID, OIDC_APPLE_KEY_ID and
 * OIDC_APPLE_PRIVATE_KEY_FILE instead of a secret. Issuers are https://, or http:// on a
 * loopback address (development and tests).
 */
export function parseOidcProviders(get: (name: string) => string | undefined): OidcProviderConfig[] {
  const list = get('OIDC_PROVIDERS');
  if (list === undefined) return [];
  const names = list.split(',').map((name) => name.trim().toLowerCase());
  const seen = new Set<string>();
  return names.map((name) => {
    if (!/^[a-z][a-z0-9]{0,29}$/.test(name)) {
      throw new ConfigError(`OIDC_PROVIDERS must be names of letters and digits (starting with a letter), comma-separated; got "${list}"`);
    }
    if (seen.has(name)) throw new ConfigError(`OIDC_PROVIDERS names "${name}" twice`);
    seen.add(name);
    const prefix = `OIDC_${name.toUpperCase()}_`;
    const issuerValue = get(`${prefix}ISSUER`);
    if (issuerValue === undefined) throw new ConfigError(`OIDC_PROVIDERS names "${name}": set ${prefix}ISSUER (the provider's issuer URL)`);
    const issuer = parseUrl(`${prefix}ISSUER`, issuerValue, ['https:', 'http:']).replace(/\/+$/, '');
    const issuerUrl = new URL(issuer);
    if (issuerUrl.protocol === 'http:' && !isLoopbackName(issuerUrl.hostname)) {
      throw new ConfigError(
        `${prefix}ISSUER must be https:// (http:// only on a loopback address such as 127.0.0.1), got "${issuerValue}"`,
      );
    }
    if (issuerUrl.search !== '' || issuerUrl.hash !== '')
      throw new ConfigError(`${prefix}ISSUER must have no query or fragment, got "${issuerValue}"`);
    const clientIds = (get(`${prefix}CLIENT_ID`) ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    if (clientIds.length === 0) {
      throw new ConfigError(
        `OIDC_PROVIDERS names "${name}": set ${prefix}CLIENT_ID (the web client id, then any app ids, comma-separated)`,
      );
    }
    const clientSecret = get(`${prefix}CLIENT_SECRET`);
    let apple: OidcProviderConfig['apple'];
    if (name === 'apple') {
      const appleVars = ['OIDC_APPLE_TEAM_ID', 'OIDC_APPLE_KEY_ID', 'OIDC_APPLE_PRIVATE_KEY_FILE'];
      const missing = appleVars.filter((variable) => get(variable) === undefined);
      if (missing.length > 0) throw new ConfigError(`Sign in with Apple needs ${appleVars.join(', ')}; missing ${missing.join(', ')}`);
      if (clientSecret !== undefined) {
        throw new ConfigError(
          "OIDC_APPLE_CLIENT_SECRET is not used: Apple's client secret is made from OIDC_APPLE_PRIVATE_KEY_FILE; unset it",
        );
      }
      const privateKeyFile = get('OIDC_APPLE_PRIVATE_KEY_FILE')!;
      if (!existsSync(privateKeyFile)) throw new ConfigError(`OIDC_APPLE_PRIVATE_KEY_FILE: no file at "${privateKeyFile}"`);
      apple = { teamId: get('OIDC_APPLE_TEAM_ID')!, keyId: get('OIDC_APPLE_KEY_ID')!, privateKeyFile };
    }
    const label = get(`${prefix}LABEL`) ?? KNOWN_LABELS[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
    return { name, label, issuer, clientIds, clientSecret, apple };
  });
}

/** The data-centre suffix of a Mailchimp key ("…-us6") names its API host. */
function mailchimpApiUrl(apiKey: string): string {
  const dc = /-([a-z]+\d+)$/.exec(apiKey)?.[1];
  if (!dc) throw new ConfigError('MAILCHIMP_API_KEY must end with its data centre, like "…-us6" (or set MAILCHIMP_API_URL)');
  return `https://${dc}.api.mailchimp.com/3.0`;
}

/**
 * Where the web client's build is unless WEB_CLIENT_DIR says: web/ beside the running bundle
 * (dist/web, built with it by npm run build); running from the sources (tsx: tests, npm run
 * dev), Vite's output folder web/dist (npm run build:web).
 */
function defaultWebClientDir(): string {
  const fromSources = import.meta.filename.endsWith('.ts');
  return fromSources ? resolve(import.meta.dirname, '../web/dist') : join(import.meta.dirname, 'web');
}

/** A variable's value, trimmed; unset when empty. */
function envGetter(env: Env): (name: string) => string | undefined {
  return (name) => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
}

export function loadConfig(env: Env = process.env): Config {
  const get = envGetter(env);
  // Every bad value is noted and parsing goes on with a placeholder; the placeholders never
  // leave this function, since any problem throws below.
  const problems: string[] = [];
  const check = <T>(parse: () => T, placeholder?: T): T => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return placeholder as T;
    }
  };
  const duration = (name: string, fallback: string) => check(() => parseDuration(name, get(name) ?? fallback), 1);
  const rate = (name: string, fallback: string) => check(() => parseRateLimit(name, get(name) ?? fallback), { max: 1, windowMs: 1 });
  const positiveDuration = (name: string, fallback: string) => {
    const ms = duration(name, fallback);
    if (ms < 1) problems.push(`${name} must be more than zero`);
    return ms;
  };
  const onOff = (name: string, fallback: 'on' | 'off') => {
    const value = (get(name) ?? fallback).toLowerCase();
    if (value !== 'on' && value !== 'off') problems.push(`${name} must be "on" or "off", got "${value}"`);
    return value === 'on';
  };
  const integer = (name: string, fallback: string, min: number, max?: number) =>
    check(() => parseInteger(name, get(name) ?? fallback, min, max), min);
  const quota = (name: string, fallback: number) => integer(name, String(fallback), 1);
  const size = (name: string, fallback: string) => check(() => parseSize(name, get(name) ?? fallback), 1);

  const port = integer('PORT', '8000', 0, 65535);
  const publicUrl = check(
    () => parseUrl('PUBLIC_URL', get('PUBLIC_URL') ?? `http://localhost:${port}`, ['http:', 'https:']),
    `http://localhost:${port}`,
  ).replace(/\/+$/, '');

  const databaseUrl = get('DATABASE_URL') ?? 'sqlite:data/profile-service.db';
  if (!/^sqlite:.+/.test(databaseUrl) && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL must be "sqlite:<path>" or "postgres://…", got "${databaseUrl}"`);
  }
  const sqliteSynchronous = (get('SQLITE_SYNCHRONOUS') ?? 'FULL').toUpperCase();
  if (sqliteSynchronous !== 'FULL' && sqliteSynchronous !== 'NORMAL')
    problems.push(`SQLITE_SYNCHRONOUS must be FULL or NORMAL, got "${sqliteSynchronous}"`);

  const smtpUrl = get('SMTP_URL');
  if (smtpUrl) check(() => parseUrl('SMTP_URL', smtpUrl, ['smtp:', 'smtps:']));
  const devInbox = (get('DEV_INBOX') ?? 'auto').toLowerCase();
  if (devInbox !== 'auto' && devInbox !== 'on' && devInbox !== 'off') {
    problems.push(`DEV_INBOX must be "auto", "on" or "off", got "${devInbox}"`);
  }
  if (devInbox === 'on' && smtpUrl) problems.push('DEV_INBOX=on needs SMTP_URL unset: the inbox lists the e-mails written to MAIL_DIR');

  // Checked only where an s3:// location needs them.
  const mediaStorage = check(() => parseMediaStorage(get, () => parseS3Settings(get)));
  const backup = check(() => parseBackupSchedule(get, env));
  const backupKeys = check(() => parseKeys('BACKUP_KEY', get('BACKUP_KEY')), []);
  if (backup && backupKeys.length === 0) problems.push(BACKUP_KEY_MISSING);

  const messagingVars = ['MESSAGING_PROVIDER_ID', 'MESSAGING_KEY_ID', 'MESSAGING_PRIVATE_KEY_FILE'];
  const messagingSet = messagingVars.filter((name) => get(name) !== undefined);
  if (messagingSet.length > 0 && messagingSet.length < messagingVars.length) {
    const missing = messagingVars.filter((name) => !messagingSet.includes(name));
    problems.push(`messaging tokens need ${messagingVars.join(', ')} together; missing ${missing.join(', ')}`);
  }
  const messaging =
    messagingSet.length === 0
      ? undefined
      : {
          providerId: get('MESSAGING_PROVIDER_ID')!,
          keyId: get('MESSAGING_KEY_ID')!,
          privateKeyFile: get('MESSAGING_PRIVATE_KEY_FILE')!,
          tokenTtlSeconds: duration('MESSAGING_TOKEN_TTL', '300') / 1000,
        };
  if (messaging && messaging.tokenTtlSeconds < 1) problems.push('MESSAGING_TOKEN_TTL must be at least one second');

  const mailchimpKey = get('MAILCHIMP_API_KEY');
  const mailchimpList = get('MAILCHIMP_LIST_ID');
  if (Boolean(mailchimpKey) !== Boolean(mailchimpList)) {
    problems.push(
      `mailing-list sync needs MAILCHIMP_API_KEY and MAILCHIMP_LIST_ID together; missing ${mailchimpKey ? 'MAILCHIMP_LIST_ID' : 'MAILCHIMP_API_KEY'}`,
    );
  }
  const mailchimpUrl = get('MAILCHIMP_API_URL');
  const mailchimp =
    mailchimpKey && mailchimpList
      ? {
          apiKey: mailchimpKey,
          listId: mailchimpList,
          apiUrl: check(
            () => (mailchimpUrl ? parseUrl('MAILCHIMP_API_URL', mailchimpUrl, ['http:', 'https:']) : mailchimpApiUrl(mailchimpKey)),
            '',
          ).replace(/\/+$/, ''),
        }
      : undefined;

  const logLevel = get('LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${logLevel}"`);
  }
  const logFormat = (get('LOG_FORMAT') ?? (process.stdout.isTTY ? 'pretty' : 'json')).toLowerCase();
  if (logFormat !== 'json' && logFormat !== 'pretty') problems.push(`LOG_FORMAT must be "json" or "pretty", got "${logFormat}"`);

  const metricsPort = get('METRICS_PORT');
  const metrics =
    metricsPort === undefined
      ? undefined
      : { port: integer('METRICS_PORT', metricsPort, 0, 65535), host: get('METRICS_HOST') ?? '127.0.0.1' };
  if (metrics && metrics.port !== 0 && metrics.port === port) problems.push(`METRICS_PORT must differ from PORT (${port})`);

  const config: Config = {
    port,
    host: get('HOST') ?? '127.0.0.1',
    publicUrl,
    databaseUrl,
    sqliteSynchronous: sqliteSynchronous as Config['sqliteSynchronous'],
    database: {
      poolSize: integer('DATABASE_POOL_SIZE', '10', 1, 1000),
      connectTimeoutMs: positiveDuration('DATABASE_CONNECT_TIMEOUT', '5s'),
      queryTimeoutMs: positiveDuration('DATABASE_QUERY_TIMEOUT', '10s'),
    },
    smtpUrl,
    devInbox: devInbox as Config['devInbox'],
    production: get('NODE_ENV') === 'production',
    smtpTimeoutMs: positiveDuration('SMTP_TIMEOUT', '10s'),
    mailFrom: get('MAIL_FROM') ?? 'Profile Service <no-reply@localhost>',
    mailDir: get('MAIL_DIR') ?? 'data/mail',
    emailVerificationUrl: check(() =>
      parseTemplate('EMAIL_VERIFICATION_URL', get('EMAIL_VERIFICATION_URL') ?? `${publicUrl}/verify-email?key={key}`),
    ),
    passwordResetUrl: check(() =>
      parseTemplate('PASSWORD_RESET_URL', get('PASSWORD_RESET_URL') ?? `${publicUrl}/reset-password?key={key}`),
    ),
    mediaStorage,
    backup,
    mediaMaxBytes: size('MEDIA_MAX_BYTES', '10MiB'),
    mediaUrlTtlMs: duration('MEDIA_URL_TTL', '1h'),
    mediaUrlSecret: get('MEDIA_URL_SECRET'),
    mfaEncryptionKeys: check(() => parseKeys('MFA_ENCRYPTION_KEY', get('MFA_ENCRYPTION_KEY')), []),
    backupKeys,
    mfaIssuer: get('MFA_ISSUER') ?? 'Profile Service',
    webauthn: check(() =>
      parseWebAuthn(get('WEBAUTHN_RP_ID'), get('WEBAUTHN_ORIGINS'), publicUrl, get('WEBAUTHN_RP_NAME') ?? 'Profile Service'),
    ),
    oidcProviders: check(() => parseOidcProviders(get), []),
    renderCacheBytes: size('RENDER_CACHE_BYTES', '32MiB'),
    exportsAtOnce: integer('EXPORTS_AT_ONCE', '2', 1),
    spoolDir: get('SPOOL_DIR') ?? tmpdir(),
    messaging,
    mailchimp,
    tokenIdleTtlMs: duration('TOKEN_IDLE_TTL', '30d'),
    emailVerificationTtlMs: duration('EMAIL_VERIFICATION_TTL', '1d'),
    passwordResetTtlMs: duration('PASSWORD_RESET_TTL', '1h'),
    unverifiedAccountTtlMs: positiveDuration('UNVERIFIED_ACCOUNT_TTL', '7d'),
    changesRetentionMs: positiveDuration('CHANGES_RETENTION', '30d'),
    eventStreamsPerAccount: integer('EVENT_STREAMS_PER_ACCOUNT', '10', 1),
    eventStreamsPerIp: integer('EVENT_STREAMS_PER_IP', '50', 1),
    eventHeartbeatMs: check(() => heartbeat(positiveDuration('EVENT_HEARTBEAT', '25s')), 1),
    rateLimits: {
      enabled: onOff('RATE_LIMITS', 'on'),
      loginFailuresPerAccountIp: rate('RATE_LIMIT_LOGIN_ACCOUNT_IP', '5/5m'),
      loginFailuresPerIp: rate('RATE_LIMIT_LOGIN_IP', '10/1m'),
      loginFailuresPerAccount: rate('RATE_LIMIT_LOGIN_ACCOUNT', '100/1h'),
      register: rate('RATE_LIMIT_REGISTER', '10/1h'),
      resetPassword: rate('RATE_LIMIT_RESET_PASSWORD', '10/1h'),
      verifyEmail: rate('RATE_LIMIT_VERIFY_EMAIL', '20/1h'),
      changePassword: rate('RATE_LIMIT_CHANGE_PASSWORD', '20/1h'),
      passwordChecksPerAccount: rate('RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT', '10/1h'),
      secondStepFailuresPerAccount: rate('RATE_LIMIT_SECOND_STEP_FAILURES', '10/1h'),
      emailPerAddress: rate('RATE_LIMIT_EMAIL_PER_ADDRESS', '1/1m'),
      verificationEmailsPerAccount: rate('RATE_LIMIT_VERIFICATION_EMAILS_PER_ACCOUNT', '10/1d'),
      invitationEmailsPerAddress: rate('RATE_LIMIT_INVITATION_EMAILS_PER_ADDRESS', '3/1d'),
      invitationEmailsPerAccount: rate('RATE_LIMIT_INVITATION_EMAILS_PER_ACCOUNT', '50/1d'),
      exportsPerAccount: rate('RATE_LIMIT_EXPORTS_PER_ACCOUNT', '5/1h'),
      passkeyOptionsPerIp: rate('RATE_LIMIT_PASSKEY_OPTIONS_IP', '30/1m'),
      providerSignInPerIp: rate('RATE_LIMIT_PROVIDER_SIGN_IN_IP', '30/1m'),
      emergencyLinkPerIp: rate('RATE_LIMIT_EMERGENCY_LINK_IP', '30/1m'),
      emergencyPinFailures: rate('RATE_LIMIT_EMERGENCY_PIN', '5/15m'),
      memoryKeys: integer('RATE_COUNTER_MEMORY_KEYS', '100000', 1),
    },
    quotas: {
      profilesPerUser: quota('QUOTA_PROFILES_PER_USER', 100),
      topicsPerProfile: quota('QUOTA_TOPICS_PER_PROFILE', 200),
      itemsPerTopic: quota('QUOTA_ITEMS_PER_TOPIC', 1000),
      entriesPerItem: quota('QUOTA_ENTRIES_PER_ITEM', 1000),
      emergencyItemsPerUser: quota('QUOTA_EMERGENCY_ITEMS_PER_USER', 200),
      emergencyContactsPerUser: quota('QUOTA_EMERGENCY_CONTACTS_PER_USER', 100),
      emergencyLinksPerUser: quota('QUOTA_EMERGENCY_LINKS_PER_USER', 20),
      mediaPerUser: quota('QUOTA_MEDIA_PER_USER', 1000),
      emailsPerAccount: quota('QUOTA_EMAILS_PER_ACCOUNT', 20),
      accessorsPerUser: quota('ACCESSOR_QUOTA', 50),
      itemsPerAccount: quota('QUOTA_ITEMS_PER_ACCOUNT', 10_000),
      entriesPerAccount: quota('QUOTA_ENTRIES_PER_ACCOUNT', 100_000),
      mediaBytesPerAccount: size('QUOTA_MEDIA_BYTES_PER_ACCOUNT', '1GiB'),
    },
    outbox: {
      workerEnabled: onOff('OUTBOX_WORKER', 'on'),
      pollIntervalMs: duration('OUTBOX_POLL_INTERVAL', '1000ms'),
      retryBaseMs: duration('OUTBOX_RETRY_BASE', '5s'),
      maxAttempts: integer('OUTBOX_MAX_ATTEMPTS', '12', 1, 100),
    },
    trustProxy: parseTrustProxy(get('TRUST_PROXY')),
    corsOrigins: check(() => parseOrigins('CORS_ORIGINS', get('CORS_ORIGINS')), []),
    overloadEventLoopDelayMs: duration('OVERLOAD_EVENT_LOOP_DELAY', '1s'),
    logLevel,
    logFormat: logFormat as Config['logFormat'],
    metrics,
    webClientDir: resolve(get('WEB_CLIENT_DIR') ?? defaultWebClientDir()),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Reads `.env` into process.env (variables already set win), when the file exists. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

/** For the service and its commands: `.env`, then the configuration, or a clear message and exit status 2. */
export function loadConfigOrExit(): Config {
  loadDotEnv();
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) console.error(`Configuration error: ${problem}`);
    process.exit(2);
  }
}
