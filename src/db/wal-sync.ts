// Syncs a SQLite database's WAL file to disk from libuv's thread pool, so that the event loop
// does not wait for the disk (src/db/group-commit.ts commits at synchronous=NORMAL, then
// calls this before answering).
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface WalSync {
  /** Makes everything written to the WAL so far durable. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export function walSync(databasePath: string): WalSync {
  let wal: Promise<FileHandle> | undefined;
  return {
    async sync() {
      // Opened at the first sync: the WAL file exists once the connection has used the database.
      wal ??= openWal(databasePath);
      await (await wal).datasync();
    },
    async close() {
      await (await wal?.catch(() => undefined))?.close();
    },
  };
}

async function openWal(databasePath: string): Promise<FileHandle> {
  const wal = await open(`${databasePath}-wal`, 'r');
  // The file's directory entry must be durable too: SQLite syncs the directory the first time
  // it syncs a WAL it has created, which commits at synchronous=NORMAL never do.
  const directory = await open(dirname(databasePath), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
  return wal;
}
