import type { Db } from '../db/database.ts';
import { sweepChanges } from './change-queries.ts';

/** Rows deleted per transaction: a long backlog is swept in steps that hold no lock for long. */
const BATCH = 5_000;

/** Deletes the changes written before `cutoff` (ms); cursors older than what is deleted answer 410. */
export async function sweepChangeLog(db: Db, cutoff: number): Promise<number> {
  let swept = 0;
  for (;;) {
    const deleted = await db.transaction((trx) => sweepChanges(trx, cutoff, BATCH));
    swept += deleted;
    if (deleted < BATCH) return swept;
  }
}
