// PostgreSQL through pg: any number of instances on one database. Its side of `Db`
// (database.ts): a pool that survives the database going away (postgres-pool.ts), named
// prepared statements on a pool of their own, row locks and SKIP LOCKED claims, and how it
// reports constraint violations.
import { listenTo } from './postgres-listen.ts';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import pg from 'pg';
import type { DatabaseOptions, Db } from './database.ts';
import { retryConflicts } from './conflict-retry.ts';
import { codeOf } from './driver-errors.ts';
import { createPostgresPool, kyselyPool } from './postgres-pool.ts';
import type { Database } from './schema.ts';

export function openPostgres(url: string, options: DatabaseOptions): Db {
  const pool = createPostgresPool(url, options);
  // The named statements (Db.executePrepared) run on connections that plan them once: left to
  // its own choice, the server planned the token check anew at every execution (its generic
  // plan, costed for ten tokens, never looked cheaper than a plan for the one it was given).
  // Kysely's statements keep plans made for their values (a partial index on `state =
  // 'pending'` serves `state = $1` only when the plan knows $1), so they keep a pool of their own.
  const statements = createPostgresPool(url, { ...options, planOnce: true });
  const stats = { queries: 0 };
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: kyselyPool(pool) }),
    log: () => {
      stats.queries++;
    },
  });
  return {
    kysely,
    dialect: 'postgres',
    stats,
    writeFunctions: true,
    listen: (channels, onNotify, onReconnect) => listenTo(url, channels, onNotify, onReconnect, options.log),
    jsonArrayFrom,
    async executePrepared<R>(name: string, query: CompiledQuery<R>): Promise<R[]> {
      stats.queries++;
      const client = await statements.connect();
      // An error the server answered leaves the connection usable; any other (no answer in
      // time, a broken socket) and the connection is dropped, not handed out again.
      let broken: Error | undefined;
      try {
        // pg parses a named statement once per connection and reuses it by name afterwards.
        return (await client.query<R & pg.QueryResultRow>({ name, text: query.sql, values: query.parameters as unknown[] })).rows;
      } catch (error) {
        if (!(error instanceof pg.DatabaseError)) broken = error as Error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    writeTransaction: (work) => retryConflicts(() => kysely.transaction().execute(work)),
    transaction: (work) => retryConflicts(() => kysely.transaction().execute(work)),
    readSnapshot: (work) => kysely.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work),
    lockRows: (query) => query.forUpdate() as typeof query,
    claimRows: (query) => query.forUpdate().skipLocked() as typeof query,
    isUniqueViolation: (error, index) => codeOf(error) === '23505' && (error as { constraint?: unknown }).constraint === index.name,
    isForeignKeyViolation: (error) => codeOf(error) === '23503',
    maxParameters: 65_535, // the wire protocol's limit
    bulkLoad: (tables, work) =>
      kysely
        .transaction()
        .execute(async (trx) => {
          await sql`lock table ${sql.join(tables.map((t) => sql.table(t)))} in share row exclusive mode`.execute(trx);
          await work(trx);
          // Explicit ids do not advance identity sequences; move them past what was written.
          for (const table of tables) {
            await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(trx);
          }
        })
        .then(async () => {
          // Autovacuum would analyse the grown tables some time later; until then the planner
          // works from the empty tables' statistics. Analysing now makes the data usable at once.
          await sql`analyze ${sql.join(tables.map((t) => sql.table(t)))}`.execute(kysely);
        }),
    poolStats: () => {
      const both = (read: (p: pg.Pool) => number) => read(pool) + read(statements);
      return {
        total: both((p) => p.totalCount),
        idle: both((p) => p.idleCount),
        waiting: both((p) => p.waitingCount),
        max: both((p) => p.options.max ?? 0),
      };
    },
    async close() {
      // Both pools end even when the first fails to.
      const ended = await Promise.allSettled([kysely.destroy(), statements.end()]);
      for (const outcome of ended) if (outcome.status === 'rejected') throw outcome.reason;
    },
  };
}
