// A backup's manifest.json: when it was made, the schema it holds, and every file with its
// size and SHA-256, which restore checks before it writes anything into place. The manifest is
// authenticated by manifest.hmac, an HMAC-SHA256 of its exact bytes under BACKUP_KEY, a key
// that is never in the backup: whoever can change a backup cannot make a changed one restore.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Transform } from 'node:stream';

export const MANIFEST_FORMAT = 'profile-service-backup/2';
/** Backups of Profile Service 0.9.0: no MAC, so nothing shows they are as it made them. */
export const UNAUTHENTICATED_FORMAT = 'profile-service-backup/1';
export const MANIFEST_MAC_FILE = 'manifest.hmac';
const MAC_PREFIX = 'hmac-sha256:';
export const DATABASE_FILE = 'database.sqlite';
/** PostgreSQL's database: pg_dump's custom format. */
export const POSTGRES_DUMP_FILE = 'database.pgdump';

export type DatabaseKind = 'sqlite' | 'postgresql';

export function databaseKindOf(databaseUrl: string): DatabaseKind {
  return databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgresql';
}

/** The file of a backup that holds its database. */
export function databaseFileOf(kind: DatabaseKind): string {
  return kind === 'sqlite' ? DATABASE_FILE : POSTGRES_DUMP_FILE;
}
export const MEDIA_FOLDER = 'media/';

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  /** When the database snapshot was taken (ISO 8601): every write acknowledged before it is in the backup. */
  created_at: string;
  database: DatabaseKind;
  /** The last migration applied to the database: a restore needs a service that knows it. */
  schema_version: string;
  /**
   * The key that seals second-factor secrets is in the database (MFA_ENCRYPTION_KEY was never
   * set): whoever holds the backup can open them.
   */
  sealing_key_inside: boolean;
  /** Where the media came from (MEDIA_STORAGE, without credentials). */
  media_storage: string;
  files: ManifestFile[];
  /**
   * Files the database snapshot refers to that were gone when the media were copied: removed
   * by a deletion acknowledged after the snapshot (their rows are in the backup, their bytes are not).
   */
  media_missing: string[];
}

/** Passes bytes through, counting them and hashing them. */
export function hashingStream(): { stream: Transform; digest(): { size: number; sha256: string } } {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  return { stream, digest: () => ({ size, sha256: hash.digest('hex') }) };
}

/** Reads a manifest.json, refusing what this version of the service did not write. */
export function parseManifest(text: string, where: string): Manifest {
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(text) as Partial<Manifest>;
  } catch {
    throw new Error(`${where}: manifest.json is not JSON`);
  }
  if (manifest.format !== MANIFEST_FORMAT) {
    throw new Error(
      `${where}: manifest.json is not a Profile Service backup of format ${MANIFEST_FORMAT} (format: ${String(manifest.format)})`,
    );
  }
  if (manifest.database !== 'sqlite' && manifest.database !== 'postgresql') {
    throw new Error(`${where}: manifest.json names no database this version knows (database: ${String(manifest.database)})`);
  }
  const databaseFile = databaseFileOf(manifest.database);
  if (!Array.isArray(manifest.files) || !manifest.files.some((file) => file.path === databaseFile)) {
    throw new Error(`${where}: manifest.json lists no ${databaseFile}`);
  }
  return manifest as Manifest;
}

/** The content of manifest.hmac for `manifest` (the exact text of manifest.json). */
export function manifestMac(key: Buffer, manifest: string): string {
  return `${MAC_PREFIX}${createHmac('sha256', key).update(manifest, 'utf8').digest('hex')}\n`;
}

/** Whether `mac` (manifest.hmac's content) is the MAC of `manifest` under one of `keys`. */
export function manifestMacVerifies(keys: Buffer[], manifest: string, mac: string): boolean {
  const given = mac.trim();
  if (!given.startsWith(MAC_PREFIX)) return false;
  const got = Buffer.from(given.slice(MAC_PREFIX.length), 'hex');
  return keys.some((key) => {
    const expected = createHmac('sha256', key).update(manifest, 'utf8').digest();
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
