// Delivers webhook events (docs/webhooks.md) as the outbox worker delivers e-mail: claims due
// deliveries with a lease (FOR UPDATE SKIP LOCKED on PostgreSQL, so several instances never
// claim the same one), never one while an earlier delivery of the same account to the same
// endpoint is pending (order per account and endpoint), signs and posts each, then marks it
// delivered or schedules the next attempt on the back-off schedule, for 3 days. An endpoint
// failing for 5 days straight is disabled, and the operators are told by e-mail.
import { type Kysely, sql } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { queueEmail } from '../mail/email-delivery.ts';
import { PollingLoop } from '../polling-loop.ts';
import { recipientLanguage } from '../mail/recipient-language.ts';
import { webhookDisabledMessage } from '../mail/messages.ts';
import { type AttemptResult, postWebhook } from './webhook-http.ts';
import { signedHeaders } from './webhook-signing.ts';

const LEASE_MS = 5 * 60_000;
const BATCH = 50;
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

interface Endpoint {
  id: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
}

interface Outcome {
  row: Claimed;
  url: string;
  result: AttemptResult;
  at: number;
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
  readonly #loop: PollingLoop;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
    this.#loop = new PollingLoop(() => this.#passes(), ctx.config.outbox.pollIntervalMs);
    // Whatever wakes the outbox after a commit wakes this worker too.
    ctx.outbox.onWake(() => this.wake());
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

  /** Batches until none is due (stop() lets the batch under way finish). */
  async #passes(): Promise<void> {
    try {
      while (!this.#loop.stopped && (await this.runOnce()) > 0);
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.#ctx.log.warn({ err: error }, 'webhook pass failed: database unavailable');
      else this.#ctx.log.error({ err: error }, 'webhook pass failed');
    }
  }

  /**
   * Claims one batch of due deliveries, posts them side by side, then records every outcome in
   * one transaction (one commit for the batch); returns how many it claimed. Should recording
   * fail (the database went away), the deliveries keep their lease and are sent again once it
   * runs out: at least once, never lost.
   */
  async runOnce(): Promise<number> {
    const rows = await this.#claim();
    if (rows.length === 0) return 0;
    const endpoints = await this.#endpoints(rows);
    const outcomes = await Promise.all(rows.map((row) => this.#attempt(row, endpoints.get(row.endpoint_id))));
    await this.#record(outcomes.filter((outcome): outcome is Outcome => outcome !== null));
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

  async #endpoints(rows: Claimed[]): Promise<Map<number, Endpoint>> {
    const ids = [...new Set(rows.map((row) => row.endpoint_id))];
    const found = await this.#ctx.db.kysely
      .selectFrom('webhook_endpoints')
      .select(['id', 'url', 'secret', 'previous_secret', 'previous_secret_expires_at'])
      .where('id', 'in', ids)
      .execute();
    return new Map(found.map((endpoint) => [endpoint.id, endpoint]));
  }

  /** One signed POST; null when the endpoint was deleted meanwhile (its deliveries went with it). */
  async #attempt(row: Claimed, endpoint: Endpoint | undefined): Promise<Outcome | null> {
    if (!endpoint) return null;
    const { clock, secrets, config } = this.#ctx;
    const now = clock.now();
    let result: AttemptResult;
    try {
      const keys = [secrets.mfa.open(endpoint.secret, SECRET_CONTEXT)];
      if (endpoint.previous_secret && Number(endpoint.previous_secret_expires_at ?? 0) > now) {
        keys.push(secrets.mfa.open(endpoint.previous_secret, SECRET_CONTEXT));
      }
      const headers = signedHeaders(keys, row.event_id, Math.floor(now / 1000), row.payload);
      result = await postWebhook(endpoint.url, headers, row.payload, config.outbox.webhookAllowPrivate);
    } catch (error) {
      result = { status: null, error: error instanceof Error ? error.message : String(error) };
    }
    return { row, url: endpoint.url, result, at: clock.now() };
  }

  /** The batch's outcomes, in one transaction: each delivery's state, each endpoint's standing, and the endpoints to disable. */
  async #record(outcomes: Outcome[]): Promise<void> {
    const { db, log } = this.#ctx;
    for (const { row, result } of outcomes) {
      if (result.error !== null) {
        log.warn(
          { webhookDeliveryId: row.id, endpointId: row.endpoint_id, attempts: row.attempts, err: result.error },
          'webhook delivery failed',
        );
      }
    }
    const disabled = await db.writeTransaction(async (trx) => {
      // The successes in one statement per status (almost always one), dated by the last of them.
      const delivered = outcomes.filter((outcome) => outcome.result.error === null);
      for (const status of new Set(delivered.map((outcome) => outcome.result.status))) {
        const these = delivered.filter((outcome) => outcome.result.status === status);
        await trx
          .updateTable('webhook_deliveries')
          .set({
            state: 'delivered',
            delivered_at: Math.max(...these.map((o) => o.at)),
            locked_until: null,
            last_status: status,
            last_error: null,
          })
          .where(
            'id',
            'in',
            these.map((outcome) => outcome.row.id),
          )
          .execute();
      }
      for (const { row, result, at } of outcomes) {
        if (result.error === null) continue;
        const next = at + backoffAfter(row.attempts);
        await trx
          .updateTable('webhook_deliveries')
          .set({
            state: next > Number(row.retry_until) ? 'failed' : 'pending',
            next_attempt_at: next,
            locked_until: null,
            last_status: result.status,
            last_error: result.error.slice(0, 2000),
          })
          .where('id', '=', row.id)
          .execute();
      }
      const gone: string[] = [];
      for (const endpointId of new Set(outcomes.map((outcome) => outcome.row.endpoint_id))) {
        const own = outcomes.filter((outcome) => outcome.row.endpoint_id === endpointId);
        const lastSuccess = Math.max(-1, ...own.filter((o) => o.result.error === null).map((o) => o.at));
        const failures = own.filter((o) => o.result.error !== null).map((o) => o.at);
        // Failing since the first failure after the last success (null: the last attempt succeeded).
        const failingAfter = failures.filter((at) => at > lastSuccess);
        await trx
          .updateTable('webhook_endpoints')
          .set({
            ...(lastSuccess >= 0
              ? { last_success_at: lastSuccess, failing_since: failingAfter.length > 0 ? Math.min(...failingAfter) : null }
              : { failing_since: sql`coalesce(failing_since, ${Math.min(...failures)})` }),
            ...(failures.length > 0 ? { last_failure_at: Math.max(...failures) } : {}),
          })
          .where('id', '=', endpointId)
          .execute();
        if (failingAfter.length > 0 && (await this.#disableIfFailingLong(trx, endpointId, Math.max(...failingAfter)))) {
          gone.push(own[0]!.url);
        }
      }
      return gone;
    });
    for (const url of disabled) log.warn({ url }, 'webhook endpoint disabled after failing for 5 days');
    if (disabled.length > 0) this.#ctx.outbox.wake();
  }

  /** Five days of failures without a success disable the endpoint, once, and every operator is told. */
  async #disableIfFailingLong(trx: Kysely<Database>, endpointId: number, at: number): Promise<boolean> {
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
      await queueEmail(
        this.#ctx,
        trx,
        webhookDisabledMessage(
          await recipientLanguage(this.#ctx.config, trx, operator.id),
          operator.email,
          endpoint.url,
          Number(endpoint.failing_since),
        ),
        operator.id,
      );
    }
    return true;
  }
}
