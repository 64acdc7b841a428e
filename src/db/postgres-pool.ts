// The PostgreSQL connection pool, made to survive a database that goes away: every wait is
// bounded, a broken connection is logged (never an unhandled 'error' event, which would end
// the process) and never handed out again.
import type { FastifyBaseLogger } from 'fastify';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { QUERY_READ_TIMEOUT } from './driver-errors.ts';

export interface PostgresPoolOptions {
  poolSize?: number;
  /** Longest wait for a free pooled connection, and for a new connection to be ready. */
  connectTimeoutMs?: number;
  /** The server cancels a statement running longer (statement_timeout). */
  queryTimeoutMs?: number;
  log?: FastifyBaseLogger;
  /**
   * Every prepared statement on these connections is planned once, with a generic plan
   * (plan_cache_mode = force_generic_plan): for the named statements of the hot paths, whose
   * plans depend on no bound value (docs/decisions.md, PostgreSQL: named statements).
   */
  planOnce?: boolean;
}

/** The client gives up on a query this long after the server would have cancelled it. */
const CLIENT_TIMEOUT_MARGIN_MS = 1000;

// int8 (COUNT, bigint timestamps) as JS numbers: every value we store fits in 2^53.
const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser;

export function createPostgresPool(url: string, options: PostgresPoolOptions): pg.Pool {
  const queryTimeout = options.queryTimeoutMs;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: { getTypeParser },
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: queryTimeout,
    options: options.planOnce ? '-c plan_cache_mode=force_generic_plan' : undefined,
    // A server that accepts a statement and never answers is caught on the client only: pg
    // gives up on any query not answered a margin after the server would have cancelled it.
    query_timeout: queryTimeout && queryTimeout + CLIENT_TIMEOUT_MARGIN_MS,
    // A transaction whose client went silent (a network stall) must not hold its locks for long.
    idle_in_transaction_session_timeout: queryTimeout && 2 * queryTimeout,
    // Notices a peer that vanished without a word (a failover, a dropped route).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // pg-pool listens for 'error' on idle clients only; a checked-out client (a request, the
  // outbox worker) whose connection breaks would emit it unheard and end the process. Its
  // queries fail on their own; pg-pool drops it when it is released, as it is not queryable.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.log?.warn({ err: error }, 'database connection lost'));
  });
  pool.on('error', (error) => options.log?.warn({ err: error }, 'idle database connection lost'));
  return pool;
}

/**
 * The pool as Kysely's PostgresDialect uses it. A query that timed out on the client is still
 * running (or lost) on its connection, so the connection is closed at once: the statements
 * that follow (Kysely's rollback) fail at once instead of queueing behind it, and pg-pool
 * drops a closed client when it is released rather than handing it out again.
 */
export function kyselyPool(pool: pg.Pool): PostgresPool {
  return {
    options: pool.options,
    end: () => pool.end(),
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const query = async (sqlText: string, parameters: readonly unknown[]) => {
        try {
          return await client.query(sqlText, parameters as unknown[]);
        } catch (error) {
          if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) void client.end().catch(() => {});
          throw error;
        }
      };
      // Kysely also types a cursor form of query, which it uses only for streaming (we never stream).
      return { query: query as unknown as PostgresPoolClient['query'], release: (destroy) => client.release(destroy) };
    },
  };
}
