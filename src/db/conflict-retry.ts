// A transaction that lost to another is run again, in this one place. PostgreSQL ends one of
// two transactions that wait on each other (a deadlock, 40P01) and, above read committed, one
// whose reads another has since changed (a serialization failure, 40001). The loser has rolled
// back, so running it again from its start is safe: nothing a transaction causes outside the
// database happens inside it (e-mails, list sync and file removals are outbox rows written in
// the same transaction). After a few losses in a row the request is answered 503 with
// Retry-After rather than kept waiting.
import { setTimeout as sleep } from 'node:timers/promises';
import { unavailable } from '../errors.ts';
import type { ApiMessageKey } from '../i18n/catalogues.ts';
import { codeOf } from './driver-errors.ts';

export const CONFLICT_ATTEMPTS = 4;
export const CONFLICT_RETRY_AFTER_SECONDS = 1;
export const DATABASE_CONFLICT = 'errors.databaseConflict' satisfies ApiMessageKey;

const CONFLICT_STATES = new Set(['40P01', '40001']);

export function isTransactionConflict(error: unknown): boolean {
  return CONFLICT_STATES.has(codeOf(error) as string);
}

/** Runs `transaction` (a whole transaction, begin to commit) until it does not lose a conflict. */
export async function retryConflicts<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      if (attempt >= CONFLICT_ATTEMPTS) {
        const busy = unavailable(DATABASE_CONFLICT, CONFLICT_RETRY_AFTER_SECONDS);
        busy.cause = error;
        throw busy;
      }
      // A random pause, growing with each loss, so that the two sides do not meet again in step.
      await sleep(Math.random() * 20 * 2 ** attempt);
    }
  }
}
