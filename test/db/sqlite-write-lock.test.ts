// A transaction on SQLite that reads before it writes, while another process (the operator's
// command line, a second service on the same file) commits in between: it must not fail.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import SqliteDriver from 'better-sqlite3';
import type { Db } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('SQLite transactions hold the write lock from their start', () => {
  let path: string;
  let db: Db;
  let other: SqliteDriver.Database;

  before(async () => {
    path = join(tempDir('write-lock-'), 'test.db');
    db = openDatabase(`sqlite:${path}`);
    await migrateToLatest(db);
    // Another process's connection, which does not wait for a lock (this test's one thread could
    // not let the holder finish while it waited).
    other = new SqliteDriver(path);
    other.pragma('busy_timeout = 0');
  });
  after(async () => {
    other.close();
    await db.close();
  });

  const count = (firstName: string) =>
    (other.prepare('select count(*) as n from accounts where first_name = ?').get(firstName) as { n: number }).n;
  const insertByOther = (firstName: string) =>
    other.prepare("insert into accounts (first_name, last_name, password_hash, created_at) values (?, '', 'x', 0)").run(firstName);

  /** Reads, lets the other connection try to write, then writes; what the other's try did. */
  const readThenWrite = async (trx: Db['kysely'], firstName: string) => {
    await trx.selectFrom('accounts').select('id').limit(1).execute();
    let othersTry: unknown = 'committed';
    try {
      insertByOther(`${firstName}-other`);
    } catch (error) {
      othersTry = (error as { code?: string }).code;
    }
    await trx.insertInto('accounts').values({ first_name: firstName, last_name: '', password_hash: 'x', created_at: 0 }).execute();
    return othersTry;
  };

  for (const [kind, run] of [
    ['transaction', (work: (trx: Db['kysely']) => Promise<unknown>) => db.transaction(work)],
    ['writeTransaction (group commit)', (work: (trx: Db['kysely']) => Promise<unknown>) => db.writeTransaction(work)],
  ] as const) {
    test(`${kind}: the other writer waits, and the transaction commits`, async () => {
      const name = kind.split(' ')[0]!;
      const othersTry = await run((trx) => readThenWrite(trx, name));
      assert.equal(othersTry, 'SQLITE_BUSY', 'the other connection could not write inside the transaction');
      assert.equal(count(name), 1);
      // Once the transaction has ended, the other writes as usual.
      insertByOther(`${name}-after`);
      assert.equal(count(`${name}-after`), 1);
    });
  }

  test('a transaction that fails is rolled back and lets the lock go', async () => {
    await assert.rejects(
      db.transaction(async (trx) => {
        await trx.insertInto('accounts').values({ first_name: 'undone', last_name: '', password_hash: 'x', created_at: 0 }).execute();
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.equal(count('undone'), 0);
    insertByOther('after-undone');
    assert.equal(count('after-undone'), 1);
  });
});
