// Backups in a folder: <folder>/<backup name>/{manifest.json, database.sqlite, media/…}. A
// backup is written under <folder>/.partial-<name> and renamed into place once its manifest
// is written, so a backup cut short (a crash, a full disk) is never taken for one. A backup
// holds password hashes and the database's keys: the folders it makes are 0700 and its files
// 0600, readable by the account that made it only.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BackupStore, type BackupWriter, isBackupName, MANIFEST_FILE } from './backup-store.ts';

const PRIVATE_FOLDER = 0o700;
const PRIVATE_FILE = 0o600;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

export class FolderBackupStore implements BackupStore {
  readonly where: string;
  private readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
    this.where = directory;
  }

  async create(name: string): Promise<BackupWriter> {
    const partial = join(this.directory, `.partial-${name}`);
    await mkdir(partial, { recursive: true, mode: PRIVATE_FOLDER });
    return {
      async write(path, source) {
        const file = join(partial, path);
        await mkdir(dirname(file), { recursive: true, mode: PRIVATE_FOLDER });
        await pipeline(source, createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE, flush: true }));
      },
      finish: async (manifest) => {
        await writeFile(join(partial, MANIFEST_FILE), manifest, { flag: 'wx', mode: PRIVATE_FILE, flush: true });
        await rename(partial, join(this.directory, name));
      },
      abandon: () => rm(partial, { recursive: true, force: true }),
    };
  }

  async list(): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(this.directory, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const names: string[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !isBackupName(entry.name)) continue;
      if (await exists(join(this.directory, entry.name, MANIFEST_FILE))) names.push(entry.name);
    }
    return names.sort();
  }

  async read(name: string, path: string): Promise<Readable | null> {
    const file = join(this.directory, name, path);
    if (!(await exists(file))) return null;
    return createReadStream(file);
  }

  async remove(name: string): Promise<void> {
    if (!isBackupName(name)) throw new Error(`not a backup: ${name}`);
    await rm(join(this.directory, name), { recursive: true, force: true });
  }

  close(): void {}
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}
