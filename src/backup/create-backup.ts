// One backup: a snapshot of the database (SQLite: sqlite-snapshot.ts; PostgreSQL: pg_dump,
// postgres-snapshot.ts), then every media file,
// then the manifest. The database comes first so that every file it refers to was stored
// before it (an upload's bytes are stored before its row commits); a file removed between the
// two is listed in the manifest as missing. The manifest's MAC (BACKUP_KEY) is written just
// before it.
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BACKUP_KEY_MISSING, type Config } from '../config.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { type BackupStore, backupName } from './backup-store.ts';
import {
  databaseFileOf,
  databaseKindOf,
  hashingStream,
  type Manifest,
  type ManifestFile,
  MANIFEST_FORMAT,
  MANIFEST_MAC_FILE,
  MEDIA_FOLDER,
  manifestMac,
} from './manifest.ts';
import { snapshotPostgres } from './postgres-snapshot.ts';
import { snapshotSqlite } from './sqlite-snapshot.ts';

/** Refused before anything was written: one clear sentence for the person who asked. */
export class BackupRefused extends Error {}

export function sqlitePathOf(databaseUrl: string): string {
  return databaseUrl.slice('sqlite:'.length);
}

/** The key that signs new backups' manifests; refused without one. */
export function signingKeyOf(config: Config): Buffer {
  const key = config.backupKeys[0];
  if (!key) throw new BackupRefused(`Not backing up: ${BACKUP_KEY_MISSING}.`);
  return key;
}

export function describeMediaStorage(config: Config): string {
  const spec = config.mediaStorage;
  return spec.kind === 'fs' ? `fs:${spec.directory}` : `s3://${spec.bucket}/${spec.prefix}`;
}

export interface BackupResult {
  name: string;
  manifest: Manifest;
}

export async function createBackup(config: Config, media: MediaStorage, store: BackupStore): Promise<BackupResult> {
  const kind = databaseKindOf(config.databaseUrl);
  const key = signingKeyOf(config);
  await mkdir(config.spoolDir, { recursive: true });
  const scratch = await mkdtemp(join(config.spoolDir, 'profile-service-backup-'));
  try {
    const databaseFile = databaseFileOf(kind);
    const snapshotFile = join(scratch, databaseFile);
    const snapshot =
      kind === 'sqlite'
        ? await snapshotSqlite(sqlitePathOf(config.databaseUrl), snapshotFile)
        : await snapshotPostgres(config.databaseUrl, snapshotFile);
    const name = backupName(snapshot.takenAt);
    const writer = await store.create(name);
    try {
      const files: ManifestFile[] = [];
      const write = async (path: string, source: Readable) => {
        const hashing = hashingStream();
        source.once('error', (error) => hashing.stream.destroy(error));
        await writer.write(path, source.pipe(hashing.stream));
        files.push({ path, ...hashing.digest() });
      };
      await write(databaseFile, createReadStream(snapshotFile));
      const keys: string[] = [];
      for await (const key of media.list()) keys.push(key);
      const copied = new Set<string>();
      for (const key of keys.sort()) {
        const source = await media.open(key);
        if (!source) continue; // removed since it was listed
        await write(MEDIA_FOLDER + key, source);
        copied.add(key);
      }
      const manifest: Manifest = {
        format: MANIFEST_FORMAT,
        created_at: snapshot.takenAt.toISOString(),
        database: kind,
        schema_version: snapshot.schemaVersion,
        sealing_key_inside: snapshot.sealingKeyInside,
        media_storage: describeMediaStorage(config),
        files,
        media_missing: [...snapshot.mediaKeys].filter((key) => !copied.has(key)).sort(),
      };
      const text = `${JSON.stringify(manifest, null, 2)}\n`;
      await writer.write(MANIFEST_MAC_FILE, Readable.from([manifestMac(key, text)]));
      await writer.finish(text);
      return { name, manifest };
    } catch (error) {
      await writer.abandon().catch(() => {});
      throw error;
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Removes the oldest complete backups beyond the newest `keep`; answers the names removed. */
export async function pruneBackups(store: BackupStore, keep: number): Promise<string[]> {
  const names = await store.list();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await store.remove(name);
  return old;
}
