// The durable outbox (contract §7): e-mails and sync calls are rows written in the same
// transaction as the change that causes them; OutboxWorker delivers them afterwards.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export type OutboxKind = 'email' | 'mailchimp';

export class Outbox {
  #listeners: Array<() => void> = [];

  /**
   * Writes a message; pass the transaction of the change that causes it. Messages with the same
   * `orderingKey` are delivered one at a time, in the order they were written.
   */
  async enqueue(db: Kysely<Database>, kind: OutboxKind, payload: unknown, now: number, orderingKey: string | null = null): Promise<void> {
    await db
      .insertInto('outbox')
      .values({
        kind,
        payload: JSON.stringify(payload),
        state: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        ordering_key: orderingKey,
      })
      .execute();
  }

  /** Call after the transaction commits, so the worker delivers at once instead of at its next poll. */
  wake(): void {
    for (const listener of this.#listeners) listener();
  }

  onWake(listener: () => void): void {
    this.#listeners.push(listener);
  }
}

/** A failure that retrying cannot fix (a 4xx from a remote API): recorded, not retried. */
export class PermanentDeliveryError extends Error {}
