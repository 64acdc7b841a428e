// The WAL sync behind durable group commits (src/db/wal-sync.ts) syncs the database's own WAL file.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import SqliteDriver from 'better-sqlite3';
import { walSync } from '../../src/db/wal-sync.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('WAL sync (SQLite)', () => {
  test('syncs the WAL file of a database in WAL mode; refuses a database without one', async () => {
    const directory = tempDir('wal-sync-');
    const path = join(directory, 'test.db');
    const driver = new SqliteDriver(path);
    driver.pragma('journal_mode = WAL');
    driver.exec('CREATE TABLE t (x)');
    const wal = walSync(path);
    try {
      await wal.sync();
      await wal.sync();
    } finally {
      await wal.close();
      driver.close();
    }

    const missing = walSync(join(directory, 'no-such.db'));
    await assert.rejects(missing.sync(), { code: 'ENOENT' });
    await missing.close();
  });
});
