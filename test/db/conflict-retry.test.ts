// PostgreSQL: a transaction that loses a deadlock is run again from its start, and after a few
// losses in a row fails as unavailable (503 + Retry-After), never as a bug. Driven at the
// database level with real connections: the test's own connection takes part in each
// deadlock, and never looks for one itself (deadlock_timeout of an hour), so the service's
// transaction is always the side PostgreSQL ends.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { CONFLICT_ATTEMPTS, CONFLICT_RETRY_AFTER_SECONDS, DATABASE_CONFLICT } from '../../src/db/conflict-retry.ts';
import type { Db } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { DomainError } from '../../src/errors.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';

describe('transactions that lose a conflict (PostgreSQL)', { skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)' }, () => {
  let database: TestDatabase;
  let db: Db;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await sql`create table contested (id integer primary key, n integer not null default 0)`.execute(db.kysely);
    await sql`insert into contested (id) values (1), (2)`.execute(db.kysely);
  });
  after(async () => {
    await db.close();
    await database.drop();
  });

  /** Until the backend `pid` waits for a lock. */
  async function waitingForLock(pid: number): Promise<void> {
    for (;;) {
      const { rows } = await sql<{ waiting: boolean }>`
        select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = ${pid}`.execute(db.kysely);
      if (rows[0]?.waiting) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * Another connection holding row 2 and waiting for row 1, which `trx` holds: the caller's
   * next lock of row 2 closes the cycle. The other side commits once the loser let go of row 1.
   */
  async function rival(): Promise<{ settled: Promise<void> }> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(`set deadlock_timeout = '1h'`);
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    await client.query('begin');
    await client.query('select id from contested where id = 2 for update');
    const settled = client
      .query('update contested set n = n + 1 where id = 1')
      .then(() => client.query('commit'))
      .then(() => client.end());
    await waitingForLock(pid);
    return { settled };
  }

  test('a deadlock lost once: the whole transaction runs again and commits', async () => {
    let attempts = 0;
    let rivals: Array<Promise<void>> = [];
    const result = await db.transaction(async (trx) => {
      attempts++;
      await sql`update contested set n = n + 10 where id = 1`.execute(trx);
      if (attempts === 1) rivals = [(await rival()).settled];
      await sql`update contested set n = n + 10 where id = 2`.execute(trx);
      return attempts;
    });
    await Promise.all(rivals);
    assert.equal(result, 2);
    const { rows } = await sql<{ id: number; n: number }>`select id, n from contested order by id`.execute(db.kysely);
    // The first attempt's changes were rolled back; the second's and the rival's are there.
    assert.deepEqual(rows, [
      { id: 1, n: 11 },
      { id: 2, n: 10 },
    ]);
  });

  test(`${CONFLICT_ATTEMPTS} deadlocks lost in a row: unavailable, with Retry-After, and nothing written`, async () => {
    await sql`update contested set n = 0`.execute(db.kysely);
    let attempts = 0;
    const rivals: Array<Promise<void>> = [];
    const outcome = await db
      .transaction(async (trx) => {
        attempts++;
        await sql`update contested set n = n + 10 where id = 1`.execute(trx);
        rivals.push((await rival()).settled);
        await sql`update contested set n = n + 10 where id = 2`.execute(trx);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    await Promise.all(rivals);
    assert.equal(attempts, CONFLICT_ATTEMPTS);
    assert.ok(outcome instanceof DomainError, `a DomainError, not ${String(outcome)}`);
    assert.equal(outcome.kind, 'unavailable');
    assert.deepEqual(outcome.body, { detail: DATABASE_CONFLICT });
    assert.equal(outcome.retryAfterSeconds, CONFLICT_RETRY_AFTER_SECONDS);
    const { rows } = await sql<{ n: number }>`select n from contested order by id`.execute(db.kysely);
    assert.deepEqual(
      rows.map((row) => row.n),
      [CONFLICT_ATTEMPTS, 0],
    );
  });
});
