// Opens the database named by DATABASE_URL: SQLite through better-sqlite3 (the embedded
// default) or PostgreSQL through pg, both behind one Kysely<Database>.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDriver from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { ChangeFeed } from './change-feed.ts';
import { GroupCommitter } from './group-commit.ts';
import { createPostgresPool, kyselyPool, type PostgresPoolOptions } from './postgres-pool.ts';
import type { Database } from './schema.ts';
import { walSync } from './wal-sync.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** How many queries have run: lets tests check that a request does a fixed number (no N+1). */
  stats: { queries: number };
  /** SQLite only: runs concurrent writes in shared transactions (one commit for many). */
  groupCommit?: GroupCommitter;
  /** SQLite only: tells in-process caches when the rows they copy change (started after the migrations). */
  changes?: ChangeFeed;
  /**
   * Runs a compiled query as a prepared statement kept by the connection: on PostgreSQL a
   * named statement (parsed and planned once per connection, not at every call), on SQLite
   * through the statement cache below. For the few queries on every request's path.
   */
  executePrepared<R>(name: string, query: CompiledQuery<R>): Promise<R[]>;
  close(): Promise<void>;
}

/** Timeouts unset: none (the command-line tools, whose long statements are expected). */
export interface DatabaseOptions extends PostgresPoolOptions {
  sqliteSynchronous?: 'FULL' | 'NORMAL';
}

const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely asks the driver to prepare every query it runs; better-sqlite3 would compile the
 * SQL each time. Keeping the prepared statements (keyed by SQL text, least recently used
 * dropped first) saves that work on every request. Being called once per query, it also
 * counts them (cheaper than Kysely's query log, which times each query).
 */
function withStatementCache(db: SqliteDriver.Database, stats: Db['stats']): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare(sqlText) {
      stats.queries++;
      let statement = cache.get(sqlText);
      if (statement) {
        cache.delete(sqlText);
      } else {
        statement = db.prepare(sqlText) as unknown as SqliteStatement;
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sqlText, statement);
      return statement;
    },
  };
}

function openSqlite(path: string, options: DatabaseOptions): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const driver = new SqliteDriver(path);
  driver.pragma('journal_mode = WAL');
  // FULL: the WAL is synced at every commit, so an acknowledged write survives a power loss,
  // not only a killed process. NORMAL survives kill -9 but may lose the last commits on power loss.
  const synchronous = options.sqliteSynchronous ?? 'FULL';
  driver.pragma(`synchronous = ${synchronous}`);
  driver.pragma('foreign_keys = ON');
  driver.pragma('busy_timeout = 5000');
  const stats = { queries: 0 };
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(driver, stats) }) });
  // FULL: group commits sync the WAL themselves, off the event loop (same durability).
  const wal = synchronous === 'FULL' && path !== ':memory:' ? walSync(path) : undefined;
  return {
    kysely,
    dialect: 'sqlite',
    stats,
    groupCommit: new GroupCommitter(kysely, { syncWal: wal?.sync }),
    changes: new ChangeFeed(driver),
    executePrepared: async (_name, query) => (await kysely.executeQuery(query)).rows,
    async close() {
      await kysely.destroy();
      await wal?.close();
    },
  };
}

function openPostgres(url: string, options: DatabaseOptions): Db {
  const pool = createPostgresPool(url, options);
  const stats = { queries: 0 };
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: kyselyPool(pool) }), log: () => { stats.queries++; } });
  return {
    kysely,
    dialect: 'postgres',
    stats,
    async executePrepared(name, query) {
      stats.queries++;
      return (await pool.query({ name, text: query.sql, values: [...query.parameters] })).rows;
    },
    close: () => kysely.destroy(),
  };
}

export function openDatabase(url: string, options: DatabaseOptions = {}): Db {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options);
  return openPostgres(url, options);
}
