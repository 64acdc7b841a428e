// `Db`, what the code asks of a database: SQLite through better-sqlite3 (the embedded default,
// sqlite.ts) or PostgreSQL through pg (postgres.ts), both behind one Kysely<Database>
// (open-database.ts picks one). Everything that differs between the two is a member of `Db`,
// implemented once per database in its own file, so the rest of the code never asks which one
// it runs on: a third database is one more file like those two.
import type { CompiledQuery, Kysely, SelectQueryBuilder } from 'kysely';
import type { jsonArrayFrom } from 'kysely/helpers/sqlite';
import type { ChangeFeed } from './change-feed.ts';
import type { Listening } from './postgres-listen.ts';
import type { PostgresPoolOptions } from './postgres-pool.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

/** A unique index, as each database names it in its errors. */
export interface UniqueIndex {
  /** The index's name (PostgreSQL reports it). */
  name: string;
  /** "table.column" (SQLite reports the columns). */
  columns: string;
}

// Kysely's select builder, whatever it selects.
// biome-ignore lint/suspicious/noExplicitAny: any database, table and selection: callers only compile and run it
type AnySelect = SelectQueryBuilder<any, any, any>;

export interface Db {
  kysely: Kysely<Database>;
  /** For migrations (their DDL differs) and for tests that name the database they run on. */
  dialect: Dialect;
  /** How many queries have run: lets tests check that a request does a fixed number (no N+1). */
  stats: { queries: number };
  /**
   * Tells in-process caches when the rows they copy change (started after the migrations).
   * Present only where this process sees every write, so that it may cache (SQLite: one
   * instance); absent where other instances write too (PostgreSQL).
   */
  changes?: ChangeFeed;
  /**
   * PostgreSQL: listens on `channels` on a connection of its own (NOTIFY arrives after the
   * commit, on every instance); `onReconnect` runs when it was lost and is back.
   */
  listen?(channels: readonly string[], onNotify: (channel: string, payload: string) => void, onReconnect: () => void): Listening;
  /**
   * Runs a compiled query as a prepared statement kept by the connection: on PostgreSQL a
   * named statement (parsed and planned once per connection, not at every call), on SQLite
   * through the statement cache. For the few queries on every request's path.
   */
  executePrepared<R>(name: string, query: CompiledQuery<R>): Promise<R[]>;
  /**
   * The rows of a subquery as one JSON array value (Kysely's helper for the database): lets a
   * tree be read in one statement. The value arrives parsed (PostgreSQL's json) or as its text
   * (SQLite).
   */
  jsonArrayFrom: typeof jsonArrayFrom;
  /**
   * The database has the project's write functions (migration 0012; PostgreSQL): a write of
   * several statements is one call, one round trip. SQLite runs in this process, where a round
   * trip costs nothing, and writes in transactions as usual.
   */
  writeFunctions: boolean;
  /**
   * Runs a write in a transaction, committed durably before this returns. SQLite gathers the
   * writes that arrive together into one transaction, each in its own savepoint (one synced
   * commit for many: group-commit.ts); PostgreSQL gives each its own.
   */
  writeTransaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a transaction of its own. Both this and `writeTransaction` run again a
   * transaction that lost a deadlock or a serialization conflict, a few times, then fail as
   * unavailable (503 + Retry-After; conflict-retry.ts): `work` may run more than once, so it
   * must cause nothing outside the database (what it sends goes through the outbox).
   */
  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * Runs long reads (the data export, the views of the largest app users, page by page) in one consistent snapshot that holds back
   * no other request: PostgreSQL a read-only repeatable-read transaction on a pooled
   * connection; SQLite a read transaction on a read-only connection of its own, since a
   * transaction on the shared connection would queue every other query behind it (in WAL mode
   * a reader never blocks the writer).
   */
  readSnapshot<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /** The select, locking its rows until the transaction ends (PostgreSQL; SQLite has one writer at a time). */
  lockRows<Q extends AnySelect>(query: Q): Q;
  /** The select, skipping rows another transaction holds and locking the rest (claims by several instances). */
  claimRows<Q extends AnySelect>(query: Q): Q;
  isUniqueViolation(error: unknown, index: UniqueIndex): boolean;
  isForeignKeyViolation(error: unknown): boolean;
  /** Bulk loads (the seeder): most parameters one statement may carry. */
  maxParameters: number;
  /**
   * A bulk load with explicit ids: `work` runs holding the write lock on `tables` from its
   * first statement, so the ids it reads stay the highest until it commits; afterwards the
   * database is told what was written (sequences moved past it, statistics refreshed).
   */
  bulkLoad(tables: readonly string[], work: (trx: Kysely<Database>) => Promise<void>): Promise<void>;
  /** PostgreSQL: the connection pools' state now, summed (GET /metrics). SQLite has one connection, no pool. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open, in use or idle. */
  total: number;
  idle: number;
  /** Requests for a connection waiting for one to be free. */
  waiting: number;
  /** Most connections the pools open (PostgreSQL: two pools of DATABASE_POOL_SIZE each). */
  max: number;
}

/** Timeouts unset: none (the command-line tools, whose long statements are expected). */
export interface DatabaseOptions extends PostgresPoolOptions {
  sqliteSynchronous?: 'FULL' | 'NORMAL';
}
