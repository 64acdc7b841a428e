// SQLite through better-sqlite3: the embedded default, for one instance. Its side of `Db`
// (database.ts): group commit, a change feed for in-process caches, a statement cache, and how
// it reports constraint violations.
import { jsonArrayFrom } from 'kysely/helpers/sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDriver from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { ChangeFeed } from './change-feed.ts';
import { codeOf, messageOf } from './driver-errors.ts';
import type { DatabaseOptions, Db } from './database.ts';
import { BEGIN, COMMIT, GroupCommitter, ROLLBACK } from './group-commit.ts';
import type { Database } from './schema.ts';
import { unplannedParameters } from './sqlite-parameters.ts';
import { walSync } from './wal-sync.ts';

const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely asks the driver to prepare every query it runs; better-sqlite3 would compile the
 * SQL each time. Keeping the prepared statements (keyed by SQL text, least recently used
 * dropped first) saves that work on every request; each is prepared with its bound values out
 * of the planner's sight (sqlite-parameters.ts), so that SQLite plans it only then. Being
 * called once per query, it also counts them (cheaper than Kysely's query log, which times
 * each query).
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
        statement = db.prepare(unplannedParameters(sqlText)) as unknown as SqliteStatement;
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sqlText, statement);
      return statement;
    },
  };
}

/** `work` in a read transaction on a read-only connection opened for it (an in-memory database has no second connection). */
async function readOnSnapshot<T>(path: string, stats: Db['stats'], work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const driver = new SqliteDriver(path, { readonly: true, fileMustExist: true });
  driver.pragma('busy_timeout = 5000');
  const reader = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(driver, stats) }) });
  try {
    return await reader.transaction().execute(work);
  } finally {
    await reader.destroy();
  }
}

/**
 * `work` in a transaction that takes the write lock when it begins, waiting for it as
 * `busy_timeout` allows. A deferred transaction that reads first and another process (the
 * operator's command line) commits before its first write fails at that write at once, with no
 * wait: its snapshot is stale.
 */
async function immediateTransaction<T>(kysely: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return kysely.connection().execute(async (conn) => {
    await conn.executeQuery(BEGIN);
    try {
      const result = await work(conn);
      await conn.executeQuery(COMMIT);
      return result;
    } catch (error) {
      await conn.executeQuery(ROLLBACK).catch(() => {});
      throw error;
    }
  });
}

/** WAL pages that start a checkpoint (docs/decisions.md). */
export const WAL_AUTOCHECKPOINT_PAGES = 16_000;

export function openSqlite(path: string, options: DatabaseOptions): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const driver = new SqliteDriver(path);
  driver.pragma('journal_mode = WAL');
  // FULL: the WAL is synced at every commit, so an acknowledged write survives a power loss,
  // not only a killed process. NORMAL survives kill -9 but may lose the last commits on power loss.
  const synchronous = options.sqliteSynchronous ?? 'FULL';
  driver.pragma(`synchronous = ${synchronous}`);
  driver.pragma('foreign_keys = ON');
  driver.pragma('busy_timeout = 5000');
  // Statement journals (kept by a statement that fires triggers or checks foreign keys, to undo
  // it alone) in memory, not in temporary files: inside a group commit they went to disk page by
  // page, 29 of an item create's 34 page writes. Temporary tables and sorts are per-account
  // sized here, so memory holds them.
  driver.pragma('temp_store = MEMORY');
  // The WAL is copied back into the database file (a checkpoint: inside a commit, on this
  // thread, with a sync of each file) once it holds 16,000 pages (64 MB), not SQLite's 1,000:
  // a page many writes change (an index's last page, an app user's row) is then copied once per
  // many commits rather than every few. The WAL file keeps its largest size; after a crash,
  // the first open reads it whole.
  driver.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  const stats = { queries: 0 };
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(driver, stats) }) });
  // FULL: group commits sync the WAL themselves, off the event loop (same durability).
  const wal = synchronous === 'FULL' && path !== ':memory:' ? walSync(path) : undefined;
  const groupCommit = new GroupCommitter(kysely, { syncWal: wal?.sync });
  return {
    kysely,
    dialect: 'sqlite',
    stats,
    changes: new ChangeFeed(driver),
    writeFunctions: false,
    jsonArrayFrom,
    executePrepared: async (_name, query) => (await kysely.executeQuery(query)).rows,
    writeTransaction: (work) => groupCommit.run(work),
    readSnapshot: (work) => (path === ':memory:' ? kysely.transaction().execute(work) : readOnSnapshot(path, stats, work)),
    // One connection runs one transaction at a time: no two can wait on each other.
    transaction: (work) => immediateTransaction(kysely, work),
    lockRows: (query) => query,
    claimRows: (query) => query,
    isUniqueViolation: (error, index) => codeOf(error) === 'SQLITE_CONSTRAINT_UNIQUE' && messageOf(error).includes(index.columns),
    isForeignKeyViolation: (error) => codeOf(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY',
    maxParameters: 32_766, // SQLITE_MAX_VARIABLE_NUMBER's default
    bulkLoad: (_tables, work) => immediateTransaction(kysely, work),
    async close() {
      await kysely.destroy();
      await wal?.close();
    },
  };
}
