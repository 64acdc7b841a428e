// Writes seeded accounts in bulk: batches of accounts, one transaction per batch, each table
// written with multi-row INSERTs as large as the database's bound-parameter limit allows.
// Ids are assigned here (from the tables' current maximum, read under a write lock) so that
// rows can reference each other without a round trip per row.
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { addSeedAccount, emptySeedRows, SEED_EMAIL_PATTERN, SEEDED_TABLES, type IdCursor, type SeedRows } from './seed-data.ts';

export interface SeedOptions {
  accounts: number;
  passwordHash: string;
  now: number;
  /** Accounts per transaction. */
  batchSize?: number;
  onProgress?: (accountsDone: number) => void;
}

export interface SeedSummary {
  /** The seeded addresses are bench-<firstNumber>@example.com … bench-<lastNumber>@example.com. */
  firstNumber: number;
  lastNumber: number;
  firstAccountId: number;
  lastAccountId: number;
  rows: Record<string, number>;
}

/** Numbering continues after the highest bench-<n>@example.com already in the database. */
async function nextSeedNumber(db: Kysely<Database>): Promise<number> {
  const rows = await db.selectFrom('email_addresses').select('email_lower').where('email_lower', 'like', SEED_EMAIL_PATTERN).execute();
  let highest = 0;
  for (const { email_lower } of rows) {
    const n = Number(/^bench-(\d+)@example\.com$/.exec(email_lower)?.[1] ?? 0);
    if (n > highest) highest = n;
  }
  return highest + 1;
}

async function readNextIds(db: Kysely<Database>): Promise<IdCursor> {
  const ids = {} as IdCursor;
  for (const table of SEEDED_TABLES) {
    // biome-ignore lint/suspicious/noExplicitAny: the table is a loop variable, which Kysely's types cannot narrow
    const row = await (db as Kysely<any>)
      .selectFrom(table)
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    ids[table] = Number(row?.max ?? 0) + 1;
  }
  return ids;
}

async function insertAll(db: Db, trx: Kysely<Database>, rows: SeedRows): Promise<void> {
  for (const table of SEEDED_TABLES) {
    const tableRows = rows[table];
    if (tableRows.length === 0) continue;
    const columns = Object.keys(tableRows[0]!).length;
    const perStatement = Math.floor(db.maxParameters / columns);
    for (let start = 0; start < tableRows.length; start += perStatement) {
      // biome-ignore lint/suspicious/noExplicitAny: as above, a table named by a loop variable
      await (trx as Kysely<any>)
        .insertInto(table)
        .values(tableRows.slice(start, start + perStatement))
        .execute();
    }
  }
}

export async function seedAccounts(db: Db, options: SeedOptions): Promise<SeedSummary> {
  const batchSize = options.batchSize ?? 1000;
  const rowsWritten: Record<string, number> = Object.fromEntries(SEEDED_TABLES.map((t) => [t, 0]));
  let firstNumber = 0;
  let firstAccountId = 0;
  let lastAccountId = 0;
  let done = 0;
  while (done < options.accounts) {
    const count = Math.min(batchSize, options.accounts - done);
    await db.bulkLoad(SEEDED_TABLES, async (trx) => {
      if (done === 0) firstNumber = await nextSeedNumber(trx);
      const ids = await readNextIds(trx);
      if (done === 0) firstAccountId = ids.accounts;
      const rows = emptySeedRows();
      for (let i = 0; i < count; i++) addSeedAccount(rows, ids, firstNumber + done + i, options.passwordHash, options.now);
      await insertAll(db, trx, rows);
      lastAccountId = ids.accounts - 1;
      for (const table of SEEDED_TABLES) rowsWritten[table]! += rows[table].length;
    });
    done += count;
    options.onProgress?.(done);
  }
  return { firstNumber, lastNumber: firstNumber + options.accounts - 1, firstAccountId, lastAccountId, rows: rowsWritten };
}
