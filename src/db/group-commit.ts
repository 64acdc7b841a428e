// Group commit for SQLite. SQLite writes one transaction at a time, and a durable commit
// waits for the disk. Writes that arrive while a commit is under way are gathered and run
// together in the next transaction, each in its own savepoint: one that fails is rolled back
// alone, the others commit together, and every caller gets its answer only after the commit
// that made its write durable.
//
// With `syncWal`, the wait for the disk leaves the event loop: the batch commits at
// synchronous=NORMAL (SQLite writes the WAL but does not sync it), then the WAL file is synced
// on libuv's thread pool and the batch is answered when that is done. Meanwhile the next
// batch runs. Every other statement on the connection stays at synchronous=FULL.
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

type Work<T> = (trx: Kysely<Database>) => Promise<T>;

interface Job {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** Makes what the last commit wrote durable (fdatasync of the WAL file); see above. */
  syncWal?: () => Promise<void>;
}

const MAX_BATCH = 64;

const statement = (sqlText: string) => CompiledQuery.raw(sqlText);
/**
 * How every SQLite transaction that may write begins and ends (group commits here,
 * `Db.transaction` and bulk loads in sqlite.ts). Immediate: the write lock is taken (or waited
 * for) at the start; sqlite.ts says why.
 */
export const BEGIN = statement('begin immediate');
export const COMMIT = statement('commit');
export const ROLLBACK = statement('rollback');
// The safety level cannot change inside a transaction: set around it, on the held connection.
const UNSYNCED_COMMITS = statement('pragma synchronous = normal');
const SYNCED_COMMITS = statement('pragma synchronous = full');

// The savepoint statements of each place in a batch, made once (Kysely's savepoint API builds
// a new transaction object and compiles the statement at every call).
const savepointStatements = (sqlOf: (name: string) => string) =>
  Array.from({ length: MAX_BATCH }, (_, index) => statement(sqlOf(`write_${index}`)));
const SAVEPOINT = savepointStatements((name) => `savepoint ${name}`);
const RELEASE = savepointStatements((name) => `release ${name}`);
const ROLLBACK_TO = savepointStatements((name) => `rollback to ${name}`);

export class GroupCommitter {
  readonly #db: Kysely<Database>;
  readonly #syncWal: (() => Promise<void>) | undefined;
  #queue: Job[] = [];
  #draining = false;

  constructor(db: Kysely<Database>, options: GroupCommitOptions = {}) {
    this.#db = db;
    this.#syncWal = options.syncWal;
  }

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#draining) {
        this.#draining = true;
        // Start on the next turn of the event loop, so that writes of requests already
        // received (waiting for the connection for their token check) can join this batch.
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) await this.#commit(this.#queue.splice(0, MAX_BATCH));
    } finally {
      this.#draining = false;
    }
  }

  /** Runs and commits the batch; its jobs are answered when the commit is durable. */
  async #commit(batch: Job[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      // The connection is held from the first statement to the last: nothing else runs on it
      // between them, in particular nothing at synchronous=NORMAL.
      outcomes = await this.#db.connection().execute((connection) => this.#runBatch(connection, batch));
    } catch (error) {
      // The transaction itself failed (commit refused, disk full …): nothing of the batch is stored.
      for (const job of batch) job.reject(error);
      return;
    }
    const answer = () =>
      batch.forEach((job, index) => {
        const outcome = outcomes[index]!;
        if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.error);
      });
    if (!this.#syncWal) return answer();
    // Not awaited: the next batch runs while the disk syncs this one.
    this.#syncWal().then(answer, (error: unknown) => {
      for (const job of batch) job.reject(error);
    });
  }

  async #runBatch(connection: Kysely<Database>, batch: Job[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    if (this.#syncWal) await connection.executeQuery(UNSYNCED_COMMITS);
    try {
      await connection.executeQuery(BEGIN);
      try {
        for (const [index, job] of batch.entries()) {
          await connection.executeQuery(SAVEPOINT[index]!);
          try {
            outcomes.push({ ok: true, value: await job.work(connection) });
            await connection.executeQuery(RELEASE[index]!);
          } catch (error) {
            outcomes.push({ ok: false, error });
            // Undo the failed write, then take its savepoint off the stack (the next is not nested in it).
            await connection.executeQuery(ROLLBACK_TO[index]!);
            await connection.executeQuery(RELEASE[index]!);
          }
        }
        await connection.executeQuery(COMMIT);
      } catch (error) {
        await connection.executeQuery(ROLLBACK).catch(() => {});
        throw error;
      }
    } finally {
      if (this.#syncWal) await connection.executeQuery(SYNCED_COMMITS);
    }
    return outcomes;
  }
}
