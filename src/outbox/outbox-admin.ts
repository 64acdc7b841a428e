// What the operator's outbox command (src/cli/outbox.ts) reads and changes: entries by state,
// counts per state, putting failed entries back in the queue, and (the operators' API) making
// an entry waiting for its next attempt due now.
import type { Kysely } from 'kysely';
import type { Database, OutboxState } from '../db/schema.ts';

export const OUTBOX_STATES: readonly OutboxState[] = ['pending', 'sent', 'failed'];

export interface OutboxEntry {
  id: number;
  kind: string;
  state: OutboxState;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number;
  sentAt: number | null;
  lastError: string | null;
  /** Who or what the entry is about (recipient and subject, list member), never a body or key. */
  summary: string;
}

export interface OutboxFilter {
  state?: OutboxState;
  kind?: string;
  limit: number;
}

function summarise(kind: string, payload: string): string {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return '(unreadable payload)';
  }
  if (kind === 'email') return `to ${String(data.to)}: ${String(data.subject)}`;
  if (kind === 'mailchimp') {
    return data.previousEmail === data.email
      ? `member ${String(data.email)}`
      : `member ${String(data.previousEmail)} -> ${String(data.email)}`;
  }
  return '';
}

/** The newest `limit` entries matching the filter, returned oldest first. */
export async function listOutboxEntries(db: Kysely<Database>, filter: OutboxFilter): Promise<OutboxEntry[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['id', 'kind', 'state', 'attempts', 'created_at', 'next_attempt_at', 'sent_at', 'last_error', 'payload'])
    .$if(filter.state !== undefined, (q) => q.where('state', '=', filter.state!))
    .$if(filter.kind !== undefined, (q) => q.where('kind', '=', filter.kind!))
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .execute();
  return rows.reverse().map((row) => ({
    id: row.id,
    kind: row.kind,
    state: row.state,
    attempts: row.attempts,
    createdAt: row.created_at,
    nextAttemptAt: row.next_attempt_at,
    sentAt: row.sent_at,
    lastError: row.last_error,
    summary: summarise(row.kind, row.payload),
  }));
}

export async function countOutboxByState(db: Kysely<Database>): Promise<Record<OutboxState, number>> {
  const rows = await db
    .selectFrom('outbox')
    .select((eb) => ['state', eb.fn.countAll<number>().as('count')])
    .groupBy('state')
    .execute();
  const counts: Record<OutboxState, number> = { pending: 0, sent: 0, failed: 0 };
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}

/**
 * The messages waiting to be delivered (retries included) and when the oldest was written
 * (null: none), for GET /metrics. Finds the pending rows through their partial index, so it
 * costs the same however many messages were sent before.
 */
export async function pendingBacklog(db: Kysely<Database>): Promise<{ count: number; oldestCreatedAt: number | null }> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min<number | null>('created_at').as('oldest')])
    .where('state', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldestCreatedAt: row.oldest === null ? null : Number(row.oldest) };
}

/**
 * Puts failed entries back in the queue, due now, with a fresh attempt budget (the worker
 * marks an entry failed again once it has used OUTBOX_MAX_ATTEMPTS). `ids` undefined means
 * every failed entry. Returns the ids that were failed and are now pending; other ids are
 * left alone.
 */
export async function retryFailedEntries(db: Kysely<Database>, ids: number[] | undefined, now: number): Promise<number[]> {
  if (ids !== undefined && ids.length === 0) return [];
  const rows = await db
    .updateTable('outbox')
    .set({ state: 'pending', attempts: 0, next_attempt_at: now, locked_until: null })
    .where('state', '=', 'failed')
    .$if(ids !== undefined, (q) => q.where('id', 'in', ids!))
    .returning('id')
    .execute();
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/**
 * Makes one entry due now: a failed one goes back in the queue with a fresh attempt budget, and
 * a pending one waiting for its next attempt (after a failed one) is tried at once, keeping its
 * count of attempts. Returns the entry's state before (undefined: no such entry); a sent
 * entry, and a pending one already due or being delivered, are left as they are.
 */
export async function retryEntryNow(db: Kysely<Database>, id: number, now: number): Promise<OutboxState | undefined> {
  const state = (await statesOf(db, [id])).get(id);
  if (state === 'failed') await retryFailedEntries(db, [id], now);
  if (state === 'pending') {
    await db
      .updateTable('outbox')
      .set({ next_attempt_at: now })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where('next_attempt_at', '>', now)
      .execute();
  }
  return state;
}

/** The states of the given ids (absent ids are missing from the result). */
export async function statesOf(db: Kysely<Database>, ids: number[]): Promise<Map<number, OutboxState>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('outbox').select(['id', 'state']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.state]));
}
