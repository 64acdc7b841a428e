// The service's PostgreSQL pool behind a TCP proxy that breaks, refuses and stalls
// connections: no unhandled 'error' (it would end this process), every wait bounded, and a
// connection that broke or timed out is dropped, never handed out again.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { createPostgresPool, kyselyPool } from '../../src/db/postgres-pool.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

/** Far above the timeouts below: only tells "answered" from "hung". */
const HANG_MS = 15_000;

async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no outcome in ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

async function rejection(promise: Promise<unknown>, what: string): Promise<unknown> {
  const outcome = await within(
    promise.then(
      () => undefined,
      (error: unknown) => ({ error }),
    ),
    what,
  );
  assert.ok(outcome, `${what}: expected a failure, got an answer`);
  return outcome.error;
}

describe('PostgreSQL pool under network faults', { skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)' }, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let pool: pg.Pool;
  let kysely: Kysely<any>;

  before(async () => {
    database = await createTestDatabase();
    const url = new URL(database.url);
    proxy = new TcpProxy(url.hostname, Number(url.port || 5432));
    await proxy.listen();
  });
  beforeEach(async () => {
    await kysely?.destroy();
    proxy.restore();
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const options = { poolSize: 1, connectTimeoutMs: 1000, queryTimeoutMs: 1000 };
    pool = createPostgresPool(url.toString(), options);
    kysely = new Kysely({ dialect: new PostgresDialect({ pool: kyselyPool(pool) }) });
  });
  after(async () => {
    proxy.restore();
    await kysely?.destroy();
    await proxy?.close();
    await database?.drop();
  });

  test('a connection reset while checked out: no crash, the pool drops it, the next query gets a new one', async () => {
    await kysely.connection().execute(async (connection) => {
      await sql`select 1`.execute(connection);
      proxy.reset();
      // Without an 'error' listener on the checked-out client, this process would end here.
      const error = await rejection(sql`select pg_sleep(0.2)`.execute(connection), 'query on a reset connection');
      assert.equal(isDatabaseUnavailable(error), true, String(error));
    });
    assert.equal(pool.totalCount, 0, 'the broken connection left the pool');
    assert.deepEqual((await sql<{ one: number }>`select 1 as one`.execute(kysely)).rows, [{ one: 1 }]);
  });

  test('an idle connection reset: no crash, dropped, the next query gets a new one', async () => {
    await sql`select 1`.execute(kysely);
    assert.equal(pool.idleCount, 1);
    proxy.reset();
    for (let deadline = Date.now() + HANG_MS; pool.totalCount > 0; ) {
      assert.ok(Date.now() < deadline, 'the pool kept the reset connection');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual((await sql<{ one: number }>`select 1 as one`.execute(kysely)).rows, [{ one: 1 }]);
  });

  test('a query the server never answers times out; its connection is closed, not handed out again', async () => {
    await sql`select 1`.execute(kysely);
    proxy.stall();
    const error = await rejection(sql`select 1`.execute(kysely), 'query on a stalled connection');
    assert.equal(isDatabaseUnavailable(error), true, String(error));
    assert.equal(pool.totalCount, 0, 'the timed-out connection left the pool');
    proxy.restore();
    assert.deepEqual((await sql<{ one: number }>`select 1 as one`.execute(kysely)).rows, [{ one: 1 }]);
  });

  test('a transaction whose statement times out fails as a whole, its connection dropped', async () => {
    await sql`create table if not exists faults_probe (id int)`.execute(kysely);
    await sql`select 1`.execute(kysely);
    const work = kysely.transaction().execute(async (trx) => {
      await sql`insert into faults_probe values (1)`.execute(trx);
      proxy.stall();
      await sql`insert into faults_probe values (2)`.execute(trx);
    });
    const error = await rejection(work, 'transaction on a stalled connection');
    assert.equal(isDatabaseUnavailable(error), true, String(error));
    assert.equal(pool.totalCount, 0);
    proxy.restore();
    // Closed mid-transaction: the server rolled it back, nothing of it is stored.
    assert.deepEqual((await sql`select id from faults_probe`.execute(kysely)).rows, []);
  });

  test('a connection that cannot be made in time: a bounded, "unavailable" failure', async () => {
    proxy.stall();
    const error = await rejection(sql`select 1`.execute(kysely), 'connecting through a stall');
    assert.equal(isDatabaseUnavailable(error), true, String(error));
    proxy.restore();
    assert.deepEqual((await sql<{ one: number }>`select 1 as one`.execute(kysely)).rows, [{ one: 1 }]);
  });

  test('waiting for a free pooled connection is bounded too', async () => {
    await kysely.connection().execute(async () => {
      const error = await rejection(sql`select 1`.execute(kysely), 'waiting for the only connection');
      assert.equal(isDatabaseUnavailable(error), true, String(error));
    });
  });

  test('refused connections are "unavailable"; the pool connects again once they are accepted', async () => {
    proxy.refuse();
    const error = await rejection(sql`select 1`.execute(kysely), 'connecting while refused');
    assert.equal(isDatabaseUnavailable(error), true, String(error));
    proxy.restore();
    assert.deepEqual((await sql<{ one: number }>`select 1 as one`.execute(kysely)).rows, [{ one: 1 }]);
  });

  test('the server cancels a statement running past the timeout; the connection stays usable', async () => {
    const error = await rejection(sql`select pg_sleep(30)`.execute(kysely), 'a long statement');
    assert.equal((error as { code?: string }).code, '57014', String(error));
    assert.equal(isDatabaseUnavailable(error), true);
    assert.equal(pool.idleCount, 1, 'a cancelled statement leaves a healthy connection');
    assert.deepEqual((await sql<{ one: number }>`select 1 as one`.execute(kysely)).rows, [{ one: 1 }]);
  });
});
