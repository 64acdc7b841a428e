// Group commit for SQLite. SQLite writes one transaction at a time, and with
// synchronous=FULL every commit waits for the disk. Writes that arrive while a commit is
// under way are gathered and run together in the next transaction, each in its own savepoint:
// one that fails is rolled back alone, the others commit together, and every caller gets its
// answer only after the commit that made its write durable.
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

type Work<T> = (trx: Kysely<Database>) => Promise<T>;

interface Job {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const MAX_BATCH = 64;

// The savepoint statements of each place in a batch, made once (Kysely's savepoint API builds
// a new transaction object and compiles the statement at every call).
const savepointStatements = (sqlOf: (name: string) => string) => Array.from({ length: MAX_BATCH }, (_, index) => CompiledQuery.raw(sqlOf(`write_${index}`)));
const SAVEPOINT = savepointStatements((name) => `savepoint ${name}`);
const RELEASE = savepointStatements((name) => `release ${name}`);
const ROLLBACK_TO = savepointStatements((name) => `rollback to ${name}`);

export class GroupCommitter {
  readonly #db: Kysely<Database>;
  #queue: Job[] = [];
  #draining = false;

  constructor(db: Kysely<Database>) {
    this.#db = db;
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

  async #commit(batch: Job[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      const trx = await this.#db.startTransaction().execute();
      try {
        for (const [index, job] of batch.entries()) {
          await trx.executeQuery(SAVEPOINT[index]!);
          try {
            outcomes.push({ ok: true, value: await job.work(trx) });
            await trx.executeQuery(RELEASE[index]!);
          } catch (error) {
            outcomes.push({ ok: false, error });
            // Undo the failed write, then take its savepoint off the stack (the next is not nested in it).
            await trx.executeQuery(ROLLBACK_TO[index]!);
            await trx.executeQuery(RELEASE[index]!);
          }
        }
        await trx.commit().execute();
      } catch (error) {
        await trx.rollback().execute().catch(() => {});
        throw error;
      }
    } catch (error) {
      // The transaction itself failed (commit refused, disk full …): nothing of the batch is stored.
      for (const job of batch) job.reject(error);
      return;
    }
    batch.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}
