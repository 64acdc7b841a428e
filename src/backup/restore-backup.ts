// Puts a backup back: its media into MEDIA_STORAGE, its database where DATABASE_URL says,
// each file checked against the manifest's size and SHA-256 before it is put in place, the
// manifest itself against its MAC under BACKUP_KEY. Meant for a fresh location with the service
// stopped: it refuses a database in use, and one that holds a database or media unless forced.
// The service migrates a restored database from an older version as it starts.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BACKUP_KEY_MISSING, type Config } from '../config.ts';
import { migrationNames } from '../db/migrate.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { type BackupStore, backupName, MANIFEST_FILE } from './backup-store.ts';
import { BackupRefused, sqlitePathOf } from './create-backup.ts';
import {
  DATABASE_FILE,
  hashingStream,
  type Manifest,
  type ManifestFile,
  MANIFEST_MAC_FILE,
  manifestMacVerifies,
  MEDIA_FOLDER,
  parseManifest,
  UNAUTHENTICATED_FORMAT,
} from './manifest.ts';
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
  const databasePath = resolve(sqlitePathOf(config.databaseUrl));
  if (config.backupKeys.length === 0) throw new BackupRefused(`Not restoring: ${BACKUP_KEY_MISSING}.`);
  const { name, text } = await chooseBackup(store);
  const manifest = await authenticManifest(store, name, text, config.backupKeys);
  if (!migrationNames().includes(manifest.schema_version)) {
    throw new BackupRefused(
      `The backup's database is at schema ${manifest.schema_version}, which this version of Profile Service does not know: restore it with the version that made it (or a newer one).`,
    );
  }

  const hold = holdSqliteExclusively(databasePath);
  try {
    await restoreFiles(media, store, name, manifest, databasePath, options);
  } finally {
    hold.release();
  }
  return { name, manifest };
}

async function restoreFiles(
  media: MediaStorage,
  store: BackupStore,
  name: string,
  manifest: Manifest,
  databasePath: string,
  options: { force: boolean },
): Promise<void> {
  if (!options.force) {
    const occupied: string[] = [];
    if ((await sizeOf(databasePath)) || (await sizeOf(`${databasePath}-wal`)) !== undefined) occupied.push(`the database ${databasePath}`);
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
