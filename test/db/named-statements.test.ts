// Named statements (`Db.executePrepared`) on a real PostgreSQL, through pg's public named
// queries: the rows and their types are pg's, the statement is parsed and planned once per
// connection (a pool of their own), and an error the server answers leaves the statement and the
// pooled connection usable.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { Db } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

const TYPES = 'select $1::int4 as small, $2::int8 as big, $3::text as word, null::text as nothing, $4::int4[] as list';
const VALUES = [7, 2 ** 40, 'a,"b"', [1, 2, 3]];
const ROW = { small: 7, big: 2 ** 40, word: 'a,"b"', nothing: null, list: [1, 2, 3] };

describe('named statements', { skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)' }, () => {
  let database: TestDatabase;
  let db: Db;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url, { poolSize: 1 });
  });
  after(async () => {
    await db.close();
    await database.drop();
  });

  const run = (name: string, text: string, values: unknown[]) =>
    db.executePrepared<Record<string, unknown>>(name, CompiledQuery.raw(text, values));
  // On the named statements' one connection.
  const prepared = async () => (await run('prepared', 'select name from pg_prepared_statements order by name', [])).map((row) => row.name);

  test('the rows are typed as pg types them; the statement is prepared once on the connection', async () => {
    assert.deepEqual(await run('types', TYPES, VALUES), [ROW]);
    assert.deepEqual(await run('types', TYPES, VALUES), [ROW]);
    assert.deepEqual(await run('types', TYPES, [-1, 0, '', []]), [{ small: -1, big: 0, word: '', nothing: null, list: [] }]);
    assert.deepEqual(await prepared(), ['prepared', 'types'], 'the one pooled connection holds the statement by its name');
  });

  test('the named statements are planned once; the other statements for their values', async () => {
    const mode = 'select current_setting($1) as mode';
    assert.deepEqual(await run('mode', mode, ['plan_cache_mode']), [{ mode: 'force_generic_plan' }]);
    const { rows } = await db.kysely.executeQuery(CompiledQuery.raw(mode, ['plan_cache_mode']));
    assert.deepEqual(rows, [{ mode: 'auto' }]);
    for (let i = 0; i < 3; i++) await run('series_count', 'select count(*)::int4 as n from generate_series(1, $1::int4)', [i]);
    const [plans] = await run('plans', "select generic_plans, custom_plans from pg_prepared_statements where name = 'series_count'", []);
    assert.deepEqual(plans, { generic_plans: 3, custom_plans: 0 });
  });

  test('several rows, and none', async () => {
    const text = 'select n, n * 2 as double from generate_series(1, $1::int4) as n';
    assert.deepEqual(await run('series', text, [3]), [
      { n: 1, double: 2 },
      { n: 2, double: 4 },
      { n: 3, double: 6 },
    ]);
    assert.deepEqual(await run('series', text, [0]), []);
    assert.deepEqual(await run('series', text, [1]), [{ n: 1, double: 2 }]);
  });

  test('a statement the server cannot parse fails with its error every time, and the connection goes on', async () => {
    for (let i = 0; i < 2; i++) {
      await assert.rejects(run('broken', 'selec 1', []), (error: pg.DatabaseError) => error.code === '42601');
    }
    assert.deepEqual(await run('types', TYPES, VALUES), [ROW]);
  });

  test('an error while executing fails that execution only', async () => {
    const text = 'select 10 / $1::int4 as tenth';
    await assert.rejects(run('tenth', text, [0]), (error: pg.DatabaseError) => error.code === '22012');
    assert.deepEqual(await run('tenth', text, [5]), [{ tenth: 2 }]);
    await assert.rejects(run('tenth', text, [0]), (error: pg.DatabaseError) => error.code === '22012');
    assert.deepEqual(await run('tenth', text, [2]), [{ tenth: 5 }]);
  });

  test('through the pool (Db.executePrepared): a server error keeps the pooled connection', async () => {
    const query = (divisor: number) => CompiledQuery.raw('select 10 / $1::int4 as tenth', [divisor]);
    assert.deepEqual(await db.executePrepared(`tenth`, query(5)), [{ tenth: 2 }]);
    const [first] = await db.executePrepared<{ pid: number }>('pid', CompiledQuery.raw('select pg_backend_pid() as pid', []));
    await assert.rejects(db.executePrepared('tenth', query(0)), (error: pg.DatabaseError) => error.code === '22012');
    assert.deepEqual(await db.executePrepared('tenth', query(10)), [{ tenth: 1 }]);
    const [again] = await db.executePrepared<{ pid: number }>('pid', CompiledQuery.raw('select pg_backend_pid() as pid', []));
    assert.equal(again!.pid, first!.pid, 'the same connection (the pool holds one) served every query');
  });

  // The timeout turns "never gives up" into a failure instead of a test run that hangs.
  test('a database that accepts the statement and never answers: given up in bounded time, and the connection dropped', {
    timeout: 30_000,
  }, async () => {
    const url = new URL(database.url);
    const proxy = new TcpProxy(url.hostname, Number(url.port || 5432));
    await proxy.listen();
    url.host = `127.0.0.1:${proxy.port}`;
    // The client gives up 1 s after the server's own limit (pg's query_timeout).
    const stalling = openDatabase(url.toString(), { poolSize: 1, queryTimeoutMs: 500 });
    try {
      const pid = () => stalling.executePrepared<{ pid: number }>('pid', CompiledQuery.raw('select pg_backend_pid() as pid', []));
      const [before] = await pid();
      proxy.stall();
      const started = performance.now();
      await assert.rejects(pid(), (error: Error) => error.message === 'Query read timeout' && isDatabaseUnavailable(error));
      const waited = performance.now() - started;
      assert.ok(waited >= 1450, `gave up after ${Math.round(waited)} ms, before the limit`);
      assert.ok(waited < 10_000, `gave up after ${Math.round(waited)} ms`);
      proxy.restore();
      const [after] = await pid();
      assert.notEqual(after!.pid, before!.pid, 'the connection that got no answer is not used again');
    } finally {
      await stalling.close();
      await proxy.close();
    }
  });
});
