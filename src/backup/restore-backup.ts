// Puts a backup back: its media into MEDIA_STORAGE, its database where DATABASE_URL says (a
// SQLite file put in place, or a PostgreSQL dump loaded by pg_restore),
// each file checked against the manifest's size and SHA-256 before it is put in place, the
// manifest itself against its MAC under BACKUP_KEY. Meant for a fresh location with the service
// stopped: it refuses a database in use, and one that holds a database or media unless forced.
// The service migrates a restored database from an older version as it starts.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BACKUP_KEY_MISSING, type Config } from '../config.ts';
import { migrationNames } from '../db/migrate.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { type BackupStore, backupName, MANIFEST_FILE } from './backup-store.ts';
import { BackupRefused, sqlitePathOf } from './create-backup.ts';
import {
  DATABASE_FILE,
  databaseKindOf,
  hashingStream,
  type Manifest,
  type ManifestFile,
  MANIFEST_MAC_FILE,
  manifestMacVerifies,
  MEDIA_FOLDER,
  parseManifest,
  POSTGRES_DUMP_FILE,
  UNAUTHENTICATED_FORMAT,
} from './manifest.ts';
import { checkPostgresTarget, emptyPostgresDatabase, loadPostgresDump } from './postgres-restore.ts';
import { holdSqliteExclusively } from './sqlite-exclusive.ts';

export interface RestoreResult {
  /** The backup's name ('' when the location named was that backup itself). */
  name: string;
  manifest: Manifest;
}

async function readAll(source: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** The backup at the location itself (it has a manifest.json), else the newest one in it. */
async function chooseBackup(store: BackupStore): Promise<{ name: string; text: string }> {
  let name = '';
  let source = await store.read('', MANIFEST_FILE);
  if (!source) {
    const newest = (await store.list()).at(-1);
    if (newest === undefined)
      throw new BackupRefused(`There is no backup at ${store.where} (no manifest.json there, nor a complete backup-* folder in it).`);
    name = newest;
    source = await store.read(name, MANIFEST_FILE);
    if (!source) throw new BackupRefused(`${store.where}: the backup ${name} has gone`);
  }
  return { name, text: await readAll(source) };
}

/** The manifest, once its MAC shows it is as a backup with one of `keys` wrote it. */
async function authenticManifest(store: BackupStore, name: string, text: string, keys: Buffer[]): Promise<Manifest> {
  const where = name === '' ? store.where : `${store.where} ${name}`;
  const macSource = await store.read(name, MANIFEST_MAC_FILE);
  if (!macSource) {
    if (text.includes(`"${UNAUTHENTICATED_FORMAT}"`)) {
      throw new BackupRefused(
        `${where} was made by Profile Service 0.9.0, before backups were authenticated: restore it with 0.9.0, then start this version on the restored data.`,
      );
    }
    throw new BackupRefused(`Not restoring ${where}: it has no ${MANIFEST_MAC_FILE}, so nothing shows it is the backup that was made.`);
  }
  if (!manifestMacVerifies(keys, text, await readAll(macSource))) {
    throw new BackupRefused(
      `Not restoring ${where}: its manifest.json does not match its MAC under BACKUP_KEY. Either the backup was changed after it was made, or it was made with another key (BACKUP_KEY must hold the key it was made with).`,
    );
  }
  const manifest = parseManifest(text, where);
  // A MAC binds the manifest, not the folder's name: an older authentic manifest put in a newer folder is not that backup.
  if (name !== '' && backupName(new Date(manifest.created_at)) !== name) {
    throw new BackupRefused(`Not restoring ${where}: its manifest was made at ${manifest.created_at}, for another backup.`);
  }
  return manifest;
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Streams one file of the backup into `sink`, failing if it is not byte for byte what the manifest lists. */
async function readChecked(store: BackupStore, name: string, file: ManifestFile): Promise<{ source: Readable; check(): void }> {
  const source = await store.read(name, file.path);
  if (!source) throw new Error(`the backup has no ${file.path}, which its manifest lists`);
  const hashing = hashingStream();
  source.once('error', (error) => hashing.stream.destroy(error));
  return {
    source: source.pipe(hashing.stream),
    check() {
      const got = hashing.digest();
      if (got.size !== file.size || got.sha256 !== file.sha256) {
        throw new Error(
          `${file.path} in the backup is damaged: ${got.size} bytes with SHA-256 ${got.sha256}, the manifest says ${file.size} bytes with ${file.sha256}`,
        );
      }
    },
  };
}

export async function restoreBackup(
  config: Config,
  media: MediaStorage,
  store: BackupStore,
  options: { force: boolean },
): Promise<RestoreResult> {
  const kind = databaseKindOf(config.databaseUrl);
  if (config.backupKeys.length === 0) throw new BackupRefused(`Not restoring: ${BACKUP_KEY_MISSING}.`);
  const { name, text } = await chooseBackup(store);
  const manifest = await authenticManifest(store, name, text, config.backupKeys);
  if (!migrationNames().includes(manifest.schema_version)) {
    throw new BackupRefused(
      `The backup's database is at schema ${manifest.schema_version}, which this version of Profile Service does not know: restore it with the version that made it (or a newer one).`,
    );
  }
  if (manifest.database !== kind) {
    throw new BackupRefused(
      `The backup holds a ${manifest.database} database and DATABASE_URL names a ${kind} one: restore it into a database of its kind.`,
    );
  }

  if (kind === 'postgresql') {
    await restorePostgres(config, media, store, name, manifest, options);
  } else {
    const databasePath = resolve(sqlitePathOf(config.databaseUrl));
    const hold = holdSqliteExclusively(databasePath);
    try {
      await restoreSqlite(media, store, name, manifest, databasePath, options);
    } finally {
      hold.release();
    }
  }
  return { name, manifest };
}

/** Refuses, unless forced, when the database (`databaseOccupied`) or the media store already hold data. */
async function refuseOccupied(media: MediaStorage, databaseOccupied: string | undefined, options: { force: boolean }): Promise<void> {
  if (options.force) return;
  const occupied = databaseOccupied ? [databaseOccupied] : [];
  for await (const _key of media.list()) {
    occupied.push('the media store (MEDIA_STORAGE)');
    break;
  }
  if (occupied.length > 0) {
    throw new BackupRefused(
      `Not restoring over ${occupied.join(' and ')}, which already hold data: restore into a fresh location, or add --force to replace it.`,
    );
  }
}

async function restoreMedia(media: MediaStorage, store: BackupStore, name: string, manifest: Manifest): Promise<void> {
  for (const file of manifest.files) {
    if (!file.path.startsWith(MEDIA_FOLDER)) continue;
    const { source, check } = await readChecked(store, name, file);
    const incoming = await media.receive(file.path.slice(MEDIA_FOLDER.length), source);
    try {
      check();
    } catch (error) {
      await incoming.discard();
      throw error;
    }
    await incoming.commit();
  }
}

async function restoreSqlite(
  media: MediaStorage,
  store: BackupStore,
  name: string,
  manifest: Manifest,
  databasePath: string,
  options: { force: boolean },
): Promise<void> {
  const holdsData = (await sizeOf(databasePath)) || (await sizeOf(`${databasePath}-wal`)) !== undefined;
  await refuseOccupied(media, holdsData ? `the database ${databasePath}` : undefined, options);
  await restoreMedia(media, store, name, manifest);

  // The database last, and whole: written beside its place, checked, then renamed into it.
  const databaseFile = manifest.files.find((file) => file.path === DATABASE_FILE)!;
  const { source, check } = await readChecked(store, name, databaseFile);
  await mkdir(dirname(databasePath), { recursive: true, mode: 0o700 });
  const partial = `${databasePath}.restoring`;
  try {
    // Readable by the service's account only: it holds password hashes and the database's keys.
    await pipeline(source, createWriteStream(partial, { mode: 0o600, flush: true }));
    check();
    for (const suffix of ['-wal', '-shm', '']) await rm(databasePath + suffix, { force: true });
    await rename(partial, databasePath);
  } finally {
    await rm(partial, { force: true });
  }
}

async function restorePostgres(
  config: Config,
  media: MediaStorage,
  store: BackupStore,
  name: string,
  manifest: Manifest,
  options: { force: boolean },
): Promise<void> {
  const target = await checkPostgresTarget(config.databaseUrl);
  await refuseOccupied(media, target.holdsTables ? `the database ${target.name}` : undefined, options);
  await restoreMedia(media, store, name, manifest);

  // The database last: the dump is fetched whole and checked before pg_restore reads it.
  const dumpFile = manifest.files.find((file) => file.path === POSTGRES_DUMP_FILE)!;
  const { source, check } = await readChecked(store, name, dumpFile);
  await mkdir(config.spoolDir, { recursive: true });
  const scratch = await mkdtemp(join(config.spoolDir, 'profile-service-restore-'));
  try {
    const local = join(scratch, POSTGRES_DUMP_FILE);
    await pipeline(source, createWriteStream(local, { mode: 0o600 }));
    check();
    if (target.holdsTables) await emptyPostgresDatabase(config.databaseUrl);
    await loadPostgresDump(config.databaseUrl, local);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
