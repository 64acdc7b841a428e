// Delivers webhook events (docs/webhooks.md) as the outbox worker delivers e-mail: claims due
// deliveries with a lease (FOR UPDATE SKIP LOCKED on PostgreSQL, so several instances never
// claim the same one), never one while an earlier delivery of the same account to the same
// endpoint is pending (order per account and endpoint), signs and posts each, then marks it
// delivered or schedules the next attempt on the back-off schedule, for 3 days. An endpoint
// failing for 5 days straight is disabled, and the operators are told by e-mail.
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { queueEmail } from '../mail/email-delivery.ts';
import { webhookDisabledMessage } from '../mail/messages.ts';
import { postWebhook } from './webhook-http.ts';
import { signedHeaders } from './webhook-signing.ts';

const LEASE_MS = 5 * 60_000;
const BATCH = 20;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The wait after the 1st, 2nd, … failed attempt; then every 10 hours. */
export const BACKOFF_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
/** How long an endpoint may fail without a success before it is disabled. */
export const DISABLE_AFTER_MS = 5 * DAY;
/** The context sealed secrets are opened with. */
export const SECRET_CONTEXT = 'webhook-secret';

export function backoffAfter(attempts: number): number {
  return BACKOFF_MS[attempts - 1] ?? BACKOFF_MS[BACKOFF_MS.length - 1]!;
}

interface Claimed {
  id: number;
  endpoint_id: number;
  event_id: string;
  payload: string;
  attempts: number;
  retry_until: number;
}

export class WebhookWorker {
  #ctx: AppContext;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
    // Whatever wakes the outbox after a commit wakes this worker too.
    ctx.outbox.onWake(() => this.wake());
  }

  start(): void {
    this.#stopped = false;
    this.wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#loop().finally(() => {
      this.#running = undefined;
      if (this.#stopped) return;
      if (this.#again) {
        this.#again = false;
        this.wake();
      } else {
        this.#timer = setTimeout(() => this.wake(), this.#ctx.config.outbox.pollIntervalMs);
        this.#timer.unref();
      }
    });
  }

  async #loop(): Promise<void> {
    try {
      while (!this.#stopped && (await this.runOnce()) > 0);
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.#ctx.log.warn({ err: error }, 'webhook pass failed: database unavailable');
      else this.#ctx.log.error({ err: error }, 'webhook pass failed');
    }
  }

  /** Claims and delivers one batch of due deliveries; returns how many it claimed. */
  async runOnce(): Promise<number> {
    const rows = await this.#claim();
    const failed = (await Promise.allSettled(rows.map((row) => this.#deliver(row)))).find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return rows.length;
  }

  async #claim(): Promise<Claimed[]> {
    const { db, clock } = this.#ctx;
    const now = clock.now();
    const due = db.claimRows(
      db.kysely
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('webhook_endpoints')
              .select('webhook_endpoints.id')
              .whereRef('webhook_endpoints.id', '=', 'webhook_deliveries.endpoint_id')
              .where('webhook_endpoints.enabled', '=', 1),
          ),
        )
        // Not while an earlier event of the same account is pending (or in flight) for the endpoint.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_deliveries as earlier')
                .select('earlier.id')
                .whereRef('earlier.endpoint_id', '=', 'webhook_deliveries.endpoint_id')
                .whereRef('earlier.account_id', '=', 'webhook_deliveries.account_id')
                .where('earlier.state', '=', 'pending')
                .whereRef('earlier.id', '<', 'webhook_deliveries.id'),
            ),
          ),
        )
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(BATCH),
    );
    return db.kysely
      .updateTable('webhook_deliveries')
      .set({ locked_until: now + LEASE_MS, attempts: sql`attempts + 1` })
      .where('id', 'in', due)
      .returning(['id', 'endpoint_id', 'event_id', 'payload', 'attempts', 'retry_until'])
      .execute();
  }

  async #deliver(row: Claimed): Promise<void> {
    const { db, clock, secrets, config } = this.#ctx;
    const endpoint = await db.kysely
      .selectFrom('webhook_endpoints')
      .select(['url', 'secret', 'previous_secret', 'previous_secret_expires_at'])
      .where('id', '=', row.endpoint_id)
      .executeTakeFirst();
    if (!endpoint) return; // deleted meanwhile: its deliveries went with it
    const now = clock.now();
    const keys = [secrets.mfa.open(endpoint.secret, SECRET_CONTEXT)];
    if (endpoint.previous_secret && Number(endpoint.previous_secret_expires_at ?? 0) > now) {
      keys.push(secrets.mfa.open(endpoint.previous_secret, SECRET_CONTEXT));
    }
    const headers = signedHeaders(keys, row.event_id, Math.floor(now / 1000), row.payload);
    const result = await postWebhook(endpoint.url, headers, row.payload, config.outbox.webhookAllowPrivate);
    const at = clock.now();
    if (result.error === null) {
      await db.kysely
        .updateTable('webhook_deliveries')
        .set({ state: 'delivered', delivered_at: at, locked_until: null, last_status: result.status, last_error: null })
        .where('id', '=', row.id)
        .execute();
      await db.kysely
        .updateTable('webhook_endpoints')
        .set({ last_success_at: at, failing_since: null })
        .where('id', '=', row.endpoint_id)
        .execute();
      return;
    }
    const next = at + backoffAfter(row.attempts);
    const gaveUp = next > Number(row.retry_until);
    this.#ctx.log.warn(
      { webhookDeliveryId: row.id, endpointId: row.endpoint_id, attempts: row.attempts, failed: gaveUp, err: result.error },
      'webhook delivery failed',
    );
    await db.kysely
      .updateTable('webhook_deliveries')
      .set({
        state: gaveUp ? 'failed' : 'pending',
        next_attempt_at: next,
        locked_until: null,
        last_status: result.status,
        last_error: result.error.slice(0, 2000),
      })
      .where('id', '=', row.id)
      .execute();
    await this.#endpointFailed(row.endpoint_id, at);
  }

  /** Records the failure on the endpoint; five days of failures without a success disable it, once, with a notice. */
  async #endpointFailed(endpointId: number, at: number): Promise<void> {
    const { db } = this.#ctx;
    await db.kysely
      .updateTable('webhook_endpoints')
      .set({ last_failure_at: at, failing_since: sql`coalesce(failing_since, ${at})` })
      .where('id', '=', endpointId)
      .execute();
    const disabled = await db.transaction(async (trx) => {
      const endpoint = await trx
        .updateTable('webhook_endpoints')
        .set({ enabled: 0 })
        .where('id', '=', endpointId)
        .where('enabled', '=', 1)
        .where('failing_since', '<=', at - DISABLE_AFTER_MS)
        .returning(['url', 'failing_since'])
        .executeTakeFirst();
      if (!endpoint) return false;
      const operators = await trx
        .selectFrom('accounts')
        .innerJoin('email_addresses', (join) =>
          join.onRef('email_addresses.account_id', '=', 'accounts.id').on('email_addresses.is_primary', '=', 1),
        )
        .select(['accounts.id', 'email_addresses.email'])
        .where('accounts.is_operator', '=', 1)
        .where('accounts.disabled_at', 'is', null)
        .execute();
      for (const operator of operators) {
        await queueEmail(this.#ctx, trx, webhookDisabledMessage(operator.email, endpoint.url, Number(endpoint.failing_since)), operator.id);
      }
      return true;
    });
    if (disabled) {
      this.#ctx.log.warn({ endpointId }, 'webhook endpoint disabled after failing for 5 days');
      this.#ctx.outbox.wake();
    }
  }
}
