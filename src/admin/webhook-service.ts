// Operators' webhook endpoints (docs/webhooks.md): create, change, delete, rotate the secret,
// send a test event, list and retry deliveries. Every change is recorded in the operators'
// audit in its transaction (reason: the endpoint, as "webhook <id> <url>").
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { invalid, type Message, message, nonFieldError, notFound, type FieldErrors } from '../errors.ts';
import { endpointUrlProblem } from '../webhooks/webhook-address.ts';
import { insertDeliveries, TEST_EVENT, WEBHOOK_EVENTS, RETRY_FOR_MS } from '../webhooks/webhook-events.ts';
import { newWebhookSecret } from '../webhooks/webhook-signing.ts';
import { SECRET_CONTEXT } from '../webhooks/webhook-worker.ts';
import { insertAuditRecord } from './admin-queries.ts';
import type { Actor } from './admin-service.ts';
import {
  toWebhookDelivery,
  toWebhookEndpoint,
  type NewWebhookBody,
  type WebhookChangesBody,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from './webhook-schemas.ts';

export type WebhookAction =
  | 'webhook-create'
  | 'webhook-update'
  | 'webhook-delete'
  | 'webhook-rotate-secret'
  | 'webhook-test'
  | 'webhook-retry';

/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
export const UNKNOWN_EVENT = 'webhooks.unknownEvent';
export const ENDPOINT_DISABLED = 'webhooks.endpointDisabled';
export const ALREADY_DELIVERED = 'webhooks.deliverySucceeded';
export const MAX_DELIVERIES = 500;

const ENDPOINT_COLUMNS = [
  'id',
  'url',
  'events',
  'description',
  'enabled',
  'created_at',
  'last_success_at',
  'last_failure_at',
  'failing_since',
] as const;

/** The audit's record of a webhook action: `reason` names the endpoint, then what an update changed. */
function record(
  ctx: AppContext,
  trx: Kysely<Database>,
  actor: Actor,
  action: WebhookAction,
  endpoint: { id: number; url: string },
  changed = '',
) {
  return insertAuditRecord(trx, {
    at: ctx.clock.now(),
    via: actor.via,
    operatorAccountId: actor.via === 'api' ? actor.operatorId : null,
    action,
    accountId: null,
    reason: `webhook ${endpoint.id} ${endpoint.url}${changed ? `: ${changed}` : ''}`.slice(0, 500),
    search: null,
    cliUser: actor.via === 'cli' ? actor.user : null,
  });
}

function eventsProblem(events: string[]): Message | null {
  const known: readonly string[] = WEBHOOK_EVENTS;
  const unknown = events.find((event) => event !== '*' && !known.includes(event));
  if (unknown !== undefined) return message(UNKNOWN_EVENT, { event: unknown });
  if (new Set(events).size !== events.length) return 'webhooks.eventTwice';
  if (events.includes('*') && events.length > 1) return 'webhooks.starAlone';
  return null;
}

async function checkInput(ctx: AppContext, input: { url?: string; events?: string[] }): Promise<void> {
  const errors: FieldErrors = {};
  if (input.url !== undefined) {
    const problem = await endpointUrlProblem(input.url, ctx.config.outbox.webhookAllowPrivate);
    if (problem) errors.url = [problem];
  }
  if (input.events !== undefined) {
    const problem = eventsProblem(input.events);
    if (problem) errors.events = [problem];
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

function seal(ctx: AppContext, secret: string): string {
  return ctx.secrets.mfa.seal(secret, SECRET_CONTEXT);
}

async function findEndpoint(db: Kysely<Database>, id: number) {
  const row = await db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function listWebhooks(ctx: AppContext): Promise<WebhookEndpoint[]> {
  const rows = await ctx.db.kysely.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).orderBy('id').execute();
  return rows.map(toWebhookEndpoint);
}

export async function getWebhook(ctx: AppContext, id: number): Promise<WebhookEndpoint> {
  return toWebhookEndpoint(await findEndpoint(ctx.db.kysely, id));
}

export async function createWebhook(ctx: AppContext, actor: Actor, input: NewWebhookBody): Promise<WebhookEndpointWithSecret> {
  await checkInput(ctx, input);
  const secret = newWebhookSecret();
  const row = await ctx.db.transaction(async (trx) => {
    const inserted = await trx
      .insertInto('webhook_endpoints')
      .values({
        url: input.url,
        events: JSON.stringify(input.events),
        description: input.description ?? '',
        enabled: input.enabled === false ? 0 : 1,
        secret: seal(ctx, secret),
        created_at: ctx.clock.now(),
      })
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirstOrThrow();
    await record(ctx, trx, actor, 'webhook-create', inserted);
    return inserted;
  });
  return { ...toWebhookEndpoint(row), secret };
}

/** What a PATCH changes, for the audit: the old and new URL and events (where data may go), and the switch. */
function changesOf(before: { url: string; events: string; description: string; enabled: number }, changes: WebhookChangesBody): string {
  const events = changes.events === undefined ? undefined : JSON.stringify(changes.events);
  return [
    changes.url !== undefined && changes.url !== before.url ? `url ${before.url} → ${changes.url}` : null,
    events !== undefined && events !== before.events ? `events ${before.events} → ${events}` : null,
    changes.description !== undefined && changes.description !== before.description ? 'description' : null,
    changes.enabled !== undefined && changes.enabled !== (Number(before.enabled) === 1) ? (changes.enabled ? 'enabled' : 'disabled') : null,
  ]
    .filter((change) => change !== null)
    .join('; ');
}

export async function updateWebhook(ctx: AppContext, actor: Actor, id: number, changes: WebhookChangesBody): Promise<WebhookEndpoint> {
  await findEndpoint(ctx.db.kysely, id);
  await checkInput(ctx, changes);
  const row = await ctx.db.transaction(async (trx) => {
    const before = await findEndpoint(trx, id);
    const updated = await trx
      .updateTable('webhook_endpoints')
      .set({
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(changes.events !== undefined ? { events: JSON.stringify(changes.events) } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        // Enabled again: its failures so far no longer count towards disabling it.
        ...(changes.enabled !== undefined ? { enabled: changes.enabled ? 1 : 0, ...(changes.enabled ? { failing_since: null } : {}) } : {}),
      } as const)
      .where('id', '=', id)
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirst();
    if (!updated) throw notFound();
    await record(ctx, trx, actor, 'webhook-update', before, changesOf(before, changes));
    return updated;
  });
  // Enabled again: its waiting deliveries go now.
  ctx.outbox.wake();
  return toWebhookEndpoint(row);
}

export async function deleteWebhook(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const endpoint = await findEndpoint(trx, id);
    // Its deliveries go with it (foreign key, on delete cascade; deleted explicitly for SQLite files opened without it).
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    await record(ctx, trx, actor, 'webhook-delete', endpoint);
  });
}

/** A new secret; the one it replaces keeps signing beside it for 24 hours. */
export async function rotateWebhookSecret(ctx: AppContext, actor: Actor, id: number): Promise<WebhookEndpointWithSecret> {
  const secret = newWebhookSecret();
  const row = await ctx.db.transaction(async (trx) => {
    const current = await ctx.db
      .lockRows(trx.selectFrom('webhook_endpoints').select(['id', 'url', 'secret']).where('id', '=', id))
      .executeTakeFirst();
    if (!current) throw notFound();
    const updated = await trx
      .updateTable('webhook_endpoints')
      .set({
        secret: seal(ctx, secret),
        previous_secret: current.secret,
        previous_secret_expires_at: ctx.clock.now() + ROTATION_OVERLAP_MS,
      })
      .where('id', '=', id)
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirstOrThrow();
    await record(ctx, trx, actor, 'webhook-rotate-secret', updated);
    return updated;
  });
  return { ...toWebhookEndpoint(row), secret };
}

/** Queues a `webhook.test` event for the endpoint; its delivery. */
export async function testWebhook(ctx: AppContext, actor: Actor, id: number): Promise<{ id: number; event_id: string }> {
  const result = await ctx.db.transaction(async (trx) => {
    const endpoint = await findEndpoint(trx, id);
    if (Number(endpoint.enabled) !== 1) throw nonFieldError(ENDPOINT_DISABLED);
    const now = ctx.clock.now();
    const eventId = await insertDeliveries(trx, [id], TEST_EVENT, { endpoint: { id } }, null, now);
    const delivery = await trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', id)
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    await record(ctx, trx, actor, 'webhook-test', endpoint);
    return { id: delivery.id, event_id: eventId };
  });
  ctx.outbox.wake();
  return result;
}

export async function listDeliveries(ctx: AppContext, id: number, limit: number): Promise<WebhookDeliveryList> {
  await findEndpoint(ctx.db.kysely, id);
  const rows = await ctx.db.kysely
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'type', 'attempts', 'state', 'last_status', 'last_error', 'next_attempt_at', 'created_at'])
    .where('endpoint_id', '=', id)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toWebhookDelivery);
}

/**
 * Has a delivery tried at once: a failed one goes back in the queue, retried for 3 days from
 * now; a pending one waiting for its next attempt is made due now. A delivered one: 400.
 */
export async function retryDelivery(ctx: AppContext, actor: Actor, id: number, deliveryId: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const endpoint = await findEndpoint(trx, id);
    const delivery = await trx
      .selectFrom('webhook_deliveries')
      .select(['state'])
      .where('id', '=', deliveryId)
      .where('endpoint_id', '=', id)
      .executeTakeFirst();
    if (!delivery) throw notFound();
    if (delivery.state === 'delivered') throw nonFieldError(ALREADY_DELIVERED);
    const now = ctx.clock.now();
    await trx
      .updateTable('webhook_deliveries')
      .set(
        delivery.state === 'failed'
          ? { state: 'pending', next_attempt_at: now, locked_until: null, retry_until: now + RETRY_FOR_MS }
          : { next_attempt_at: now },
      )
      .where('id', '=', deliveryId)
      .execute();
    await record(ctx, trx, actor, 'webhook-retry', endpoint);
  });
  ctx.outbox.wake();
}
