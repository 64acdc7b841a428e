// The events an account's changes send to operators' endpoints (docs/webhooks.md): one
// delivery row per endpoint that takes the event, written in the transaction of the change
// (none is lost, none sent for a change that rolled back). A disabled endpoint's rows wait
// (the worker claims only enabled endpoints' deliveries) and go out, in order, when it is
// enabled again: disabling pauses an endpoint, deleting it drops its events. The payload
// carries the account's own fields only, never personal data (app data, shares, emergency
// links).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';

export const WEBHOOK_EVENTS = [
  'account.created',
  'account.verified',
  'account.email_changed',
  'account.disabled',
  'account.enabled',
  'account.deleted',
  'account.second_factor_changed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** How long an event is retried before its delivery is failed. */
export const RETRY_FOR_MS = 3 * 24 * 3_600_000;

/** The event an operator's test sends. */
export const TEST_EVENT = 'webhook.test';

export interface AccountFields {
  id: number;
  email?: string;
  first_name?: string;
  last_name?: string;
  language?: string;
}

/** Whether an endpoint's `events` (a JSON array, `["*"]` for all) takes `type`. */
export function takesEvent(events: string, type: string): boolean {
  const list = JSON.parse(events) as string[];
  return list.includes('*') || list.includes(type);
}

export function newEventId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

async function accountFields(trx: Kysely<Database>, accountId: number): Promise<AccountFields> {
  const row = await trx
    .selectFrom('accounts')
    .leftJoin('email_addresses', (join) =>
      join.onRef('email_addresses.account_id', '=', 'accounts.id').on('email_addresses.is_primary', '=', 1),
    )
    .select(['accounts.id', 'email_addresses.email', 'accounts.first_name', 'accounts.last_name', 'accounts.language'])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
  if (!row) return { id: accountId };
  return { id: row.id, email: row.email ?? '', first_name: row.first_name, last_name: row.last_name, language: row.language };
}

/**
 * Queues `type` about the account for every endpoint that takes it. Call inside the
 * transaction of the change, once the change is written (the payload reads the account as it
 * is then; for `account.deleted`, before or after, only the id is sent), and wake the outbox
 * after the commit as for an e-mail.
 */
export async function queueAccountEvent(ctx: AppContext, trx: Kysely<Database>, type: WebhookEventType, accountId: number): Promise<void> {
  const endpoints = (await trx.selectFrom('webhook_endpoints').select(['id', 'events']).execute()).filter((endpoint) =>
    takesEvent(endpoint.events, type),
  );
  if (endpoints.length === 0) return;
  const account = type === 'account.deleted' ? { id: accountId } : await accountFields(trx, accountId);
  await insertDeliveries(
    trx,
    endpoints.map((e) => e.id),
    type,
    { account },
    accountId,
    ctx.clock.now(),
  );
}

/**
 * `account.verified` when the account has no verified address yet: call before marking the
 * address verified.
 */
export async function queueFirstVerification(ctx: AppContext, trx: Kysely<Database>, accountId: number): Promise<void> {
  const verified = await trx
    .selectFrom('email_addresses')
    .select('id')
    .where('account_id', '=', accountId)
    .where('verified', '=', 1)
    .executeTakeFirst();
  if (!verified) await queueAccountEvent(ctx, trx, 'account.verified', accountId);
}

export async function insertDeliveries(
  trx: Kysely<Database>,
  endpointIds: number[],
  type: string,
  data: unknown,
  accountId: number | null,
  now: number,
): Promise<string> {
  const eventId = newEventId();
  const payload = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
  await trx
    .insertInto('webhook_deliveries')
    .values(
      endpointIds.map((endpointId) => ({
        endpoint_id: endpointId,
        event_id: eventId,
        type,
        payload,
        account_id: accountId,
        state: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        retry_until: now + RETRY_FOR_MS,
      })),
    )
    .execute();
  return eventId;
}
