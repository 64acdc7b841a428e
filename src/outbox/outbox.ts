// The durable outbox (docs/messaging-and-sync.md): e-mails and sync calls are rows written in the same
// transaction as the change that causes them; OutboxWorker delivers them afterwards.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export type OutboxKind = 'email' | 'mailchimp' | 'media-removal' | 'oidc-revocation';

export interface EnqueueOptions {
  /** Messages with the same key are delivered one at a time, in the order they were written. */
  orderingKey?: string;
  /** The account whose data the message carries: deleting the account deletes the message. */
  accountId?: number;
}

export class Outbox {
  #listeners: Array<() => void> = [];

  /** Writes a message; pass the transaction of the change that causes it. */
  async enqueue(db: Kysely<Database>, kind: OutboxKind, payload: unknown, now: number, options: EnqueueOptions = {}): Promise<void> {
    await db
      .insertInto('outbox')
      .values({
        kind,
        payload: JSON.stringify(payload),
        state: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        ordering_key: options.orderingKey ?? null,
        account_id: options.accountId ?? null,
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
