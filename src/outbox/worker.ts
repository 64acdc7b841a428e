// Delivers outbox rows: claims due rows with a lease (FOR UPDATE SKIP LOCKED on PostgreSQL,
// so several instances never claim the same row), hands each to the handler of its kind,
// then marks it sent, or schedules a retry with exponential back-off, or marks it failed.
// While the database is away a pass fails (its queries time out or are refused) and the next
// one runs at the poll interval as usual, so the worker picks up again by itself.
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { PollingLoop } from '../polling-loop.ts';
import { PermanentDeliveryError, type Outbox } from './outbox.ts';

export interface DeliveryHandler {
  deliver(payload: unknown, outboxId: number): Promise<void>;
  /** What is kept of the payload once delivered (secrets such as keys are dropped). */
  redact?(payload: unknown): unknown;
}

const LEASE_MS = 5 * 60_000;
const BATCH = 20;
const MAX_BACKOFF_MS = 3_600_000;

export class OutboxWorker {
  #db: Db;
  #clock: Clock;
  #settings: Config['outbox'];
  #log: FastifyBaseLogger;
  #handlers: Record<string, DeliveryHandler>;
  readonly #loop: PollingLoop;

  constructor(
    db: Db,
    clock: Clock,
    settings: Config['outbox'],
    log: FastifyBaseLogger,
    handlers: Record<string, DeliveryHandler>,
    outbox?: Outbox,
  ) {
    this.#db = db;
    this.#clock = clock;
    this.#settings = settings;
    this.#log = log;
    this.#handlers = handlers;
    this.#loop = new PollingLoop(() => this.#passes(), settings.pollIntervalMs);
    outbox?.onWake(() => this.wake());
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Runs a delivery pass now (or right after the one under way). */
  wake(): void {
    this.#loop.wake();
  }

  /** Batches until one comes back short (stop() lets the batch under way finish). */
  async #passes(): Promise<void> {
    try {
      while (!this.#loop.stopped && (await this.runOnce()) === BATCH);
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.#log.warn({ err: error }, 'outbox pass failed: database unavailable');
      else this.#log.error({ err: error }, 'outbox pass failed');
    }
  }

  /** Claims and delivers one batch of due messages; returns how many it claimed. */
  async runOnce(): Promise<number> {
    const rows = await this.#claim();
    // Every delivery finishes before the pass ends (stop() waits for the pass), failed or not.
    const failed = (await Promise.allSettled(rows.map((row) => this.#deliver(row)))).find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return rows.length;
  }

  async #claim() {
    const { kysely } = this.#db;
    const now = this.#clock.now();
    const due = this.#db.claimRows(
      kysely
        .selectFrom('outbox')
        .select('id')
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        // Not while an earlier row with the same ordering key is still pending (or in flight).
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('outbox as earlier')
                .select('earlier.id')
                .whereRef('earlier.ordering_key', '=', 'outbox.ordering_key')
                .where('earlier.state', '=', 'pending')
                .whereRef('earlier.id', '<', 'outbox.id'),
            ),
          ),
        )
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(BATCH),
    );
    return kysely
      .updateTable('outbox')
      .set({ locked_until: now + LEASE_MS, attempts: sql`attempts + 1` })
      .where('id', 'in', due)
      .returning(['id', 'kind', 'payload', 'attempts'])
      .execute();
  }

  async #deliver(row: { id: number; kind: string; payload: string; attempts: number }): Promise<void> {
    const { kysely } = this.#db;
    const handler = this.#handlers[row.kind];
    const payload = JSON.parse(row.payload);
    try {
      if (!handler) throw new PermanentDeliveryError(`no handler for outbox kind "${row.kind}"`);
      await handler.deliver(payload, row.id);
    } catch (error) {
      await this.#deliveryFailed(row, error);
      return;
    }
    // Delivered. Should this fail (the database went away meanwhile), the row keeps its lease
    // and is delivered again once the lease runs out: at least once, never lost.
    await kysely
      .updateTable('outbox')
      .set({
        state: 'sent',
        sent_at: this.#clock.now(),
        locked_until: null,
        last_error: null,
        payload: JSON.stringify(handler.redact ? handler.redact(payload) : payload),
      })
      .where('id', '=', row.id)
      .execute();
  }

  /** Schedules a retry with back-off, or marks the row failed (permanent error, or out of attempts). */
  async #deliveryFailed(row: { id: number; kind: string; attempts: number }, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof PermanentDeliveryError || row.attempts >= this.#settings.maxAttempts;
    const delay = Math.min(MAX_BACKOFF_MS, this.#settings.retryBaseMs * 2 ** (row.attempts - 1)) * (0.8 + Math.random() * 0.4);
    this.#log.warn({ outboxId: row.id, kind: row.kind, attempts: row.attempts, permanent, err: message }, 'outbox delivery failed');
    await this.#db.kysely
      .updateTable('outbox')
      .set({
        state: permanent ? 'failed' : 'pending',
        next_attempt_at: Math.round(this.#clock.now() + delay),
        locked_until: null,
        last_error: message.slice(0, 2000),
      })
      .where('id', '=', row.id)
      .execute();
  }
}
