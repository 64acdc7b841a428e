// Abuse-limit counters in the database (migration 0011), shared by every instance: one upsert
// per attempt counts it in all its keys at once and answers the counts (a window that ended
// starts over), atomically per row, so instances counting together never lose a count. Ended
// windows are swept hourly (account-sweeper.ts).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Count, CounterKey, CounterStore } from './counter-store.ts';

export class SqlCounterStore implements CounterStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async increment(keys: CounterKey[], now: number): Promise<Count[]> {
    if (keys.length === 0) return [];
    const rows = await this.#db
      .insertInto('rate_counters')
      .values(keys.map(({ key, windowMs }) => ({ name: key, count: 1, reset_at: now + windowMs })))
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          count: sql`case when rate_counters.reset_at <= ${now} then 1 else rate_counters.count + 1 end`,
          reset_at: sql`case when rate_counters.reset_at <= ${now} then excluded.reset_at else rate_counters.reset_at end`,
        }),
      )
      .returning(['name', 'count', 'reset_at'])
      .execute();
    return rows.map((row) => ({ key: row.name, count: Number(row.count), resetAt: Number(row.reset_at) }));
  }

  async read(key: string, now: number): Promise<Count | undefined> {
    const row = await this.#db
      .selectFrom('rate_counters')
      .select(['count', 'reset_at'])
      .where('name', '=', key)
      .where('reset_at', '>', now)
      .executeTakeFirst();
    return row && { key, count: Number(row.count), resetAt: Number(row.reset_at) };
  }

  async release(decrement: string[], reset: string[], now: number): Promise<void> {
    const names = [...decrement, ...reset];
    if (names.length === 0) return;
    // One statement: a reset key goes to 0 (its row is swept later), the others down by one.
    await this.#db
      .updateTable('rate_counters')
      .set({
        count: reset.length > 0 ? sql`case when name in (${sql.join(reset)}) then 0 else count - 1 end` : sql`count - 1`,
      })
      .where('name', 'in', names)
      .where('reset_at', '>', now)
      .where('count', '>', 0)
      .execute();
  }
}

/** Forgets windows that ended before `now`. */
export async function deleteEndedCounters(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('rate_counters').where('reset_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
