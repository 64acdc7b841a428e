// When SQLite copies its WAL back into the database file (src/db/sqlite.ts): not before the WAL
// holds WAL_AUTOCHECKPOINT_PAGES pages, so that pages many writes change are copied once per
// many commits; and the WAL removed when the database is closed.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/open-database.ts';
import { WAL_AUTOCHECKPOINT_PAGES } from '../../src/db/sqlite.ts';
import { tempDir } from '../helpers/temp-dir.ts';

test('the WAL grows past SQLite’s default of 1,000 pages without a checkpoint, up to its own limit', async () => {
  const path = join(tempDir('wal-checkpoint-'), 'test.db');
  const db = openDatabase(`sqlite:${path}`);
  try {
    await sql`create table blobs (data blob)`.execute(db.kysely);
    // Each commit appends a few pages (a 6,000-byte value overflows its row's page).
    for (let i = 0; i < 600; i++) {
      await db.transaction((trx) => sql`insert into blobs (data) values (zeroblob(6000))`.execute(trx));
    }
    // A passive checkpoint reports the frames the WAL holds (and copies them, at the end).
    const [status] = (await sql<{ log: number }>`pragma wal_checkpoint(passive)`.execute(db.kysely)).rows;
    assert.ok(status!.log > 1_000, `the WAL holds ${status!.log} pages: a checkpoint reset it`);
    assert.ok(status!.log < WAL_AUTOCHECKPOINT_PAGES);
  } finally {
    await db.close();
  }
  // Closed, the WAL is copied back and removed.
  assert.equal(existsSync(`${path}-wal`), false);
});
