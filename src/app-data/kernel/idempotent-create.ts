// Safe retries (docs/offline-and-live.md): a create sent with `Idempotency-Key` is performed once per key
// and account within 24 hours; a retry answers the first answer again (status, body,
// `Location`), and the same key with another request is 422.
//
// The key is claimed inside the create's own transaction (`claimKey`, called by the write
// kernel), so the key and the object commit together or not at all: a crash can never leave
// one without the other. A retry arriving while the first is still running waits for it: on
// PostgreSQL the claim's insert waits on the first's uncommitted row, then finds it; SQLite
// runs one write at a time. The answer is stored right after the commit; a retry that finds
// the key claimed waits for it, and a key whose answer never came (the process died between the
// commit and the store) answers 409, since the object exists but its first answer is lost.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { callerOf } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, invalid, unprocessable } from '../../errors.ts';
import { NO_TERMS, type IdempotencyClaim, type WriteTerms } from './write-terms.ts';

export const KEY_LIFETIME_MS = 24 * 60 * 60_000;

/** How long a retry waits for the first request's answer to be stored after its commit. */
const ANSWER_WAIT_MS = 2_000;
const ANSWER_POLL_MS = 20;

const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** The create's transaction found the key claimed by another request (rolled back: nothing written). */
export class KeyTaken extends Error {}

/** Keys sorted at every level: the same body sent with its fields in another order is the same request. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

function fingerprintOf(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  return createHash('sha256')
    .update(`${request.method} ${path}\n${JSON.stringify(canonical(request.body ?? null))}`)
    .digest('hex');
}

/**
 * Claims the create's key within its transaction (a no-op without one). A key older than 24
 * hours is taken over; a live one is `KeyTaken`.
 */
export async function claimKey(ctx: AppContext, trx: Kysely<Database>, claim: IdempotencyClaim | undefined): Promise<void> {
  if (!claim) return;
  if (claim.fingerprint === '') throw new Error('an upload claimed its Idempotency-Key before it had read its body');
  const now = ctx.clock.now();
  const fresh = { fingerprint: claim.fingerprint, created_at: now, status: null, body: null, location: null };
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({ account_id: claim.accountId, key: claim.key, ...fresh })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'key'])
        .doUpdateSet(fresh)
        .where('idempotency_keys.created_at', '<', now - KEY_LIFETIME_MS),
    )
    .returning('key')
    .executeTakeFirst();
  if (!claimed) throw new KeyTaken();
}

interface KeyRow {
  fingerprint: string;
  created_at: number;
  status: number | null;
  body: string | null;
  location: string | null;
}

function findKey(db: Kysely<Database>, accountId: number, key: string, since: number): Promise<KeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'created_at', 'status', 'body', 'location'])
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('created_at', '>=', since)
    .executeTakeFirst();
}

async function replay(
  ctx: AppContext,
  reply: FastifyReply,
  accountId: number,
  key: string,
  fingerprint: string,
): Promise<FastifyReply | undefined> {
  const since = ctx.clock.now() - KEY_LIFETIME_MS;
  let row = await findKey(ctx.db.kysely, accountId, key, since);
  if (!row) return undefined;
  if (row.fingerprint !== fingerprint) {
    throw unprocessable('idempotency.keyReused');
  }
  for (let waited = 0; row && row.body === null && waited < ANSWER_WAIT_MS; waited += ANSWER_POLL_MS) {
    await sleep(ANSWER_POLL_MS);
    row = await findKey(ctx.db.kysely, accountId, key, since);
  }
  if (!row || row.status === null || row.body === null) {
    throw conflict('idempotency.answerUnknown');
  }
  if (row.location !== null) reply.header('location', row.location);
  return reply.code(row.status).send(JSON.parse(row.body));
}

/** 201 with `Location` equal to the new object's absolute url (docs/api-conventions.md). */
export function created<T extends { url: string }>(reply: FastifyReply, body: T): FastifyReply {
  return reply.code(201).header('location', body.url).send(body);
}

/**
 * An upload's fingerprint, set on its write's key once the file is read (the upload reads its
 * own body): its path, its name and the file's type, size and SHA-256.
 */
export function fingerprintUpload(terms: WriteTerms, parts: string[]): void {
  if (terms.idempotencyKey) terms.idempotencyKey.fingerprint = createHash('sha256').update(parts.join('\n')).digest('hex');
}

/**
 * Answers a create (201 with `Location`): once per Idempotency-Key when the request has one.
 * `create` must run its write with the terms it is given (the kernel claims the key).
 * `readsBody`: the create reads the request's body itself (an upload), so the key can only be
 * checked once it has, by its claim (`fingerprintUpload` first); a retry's file is then read and
 * thrown away.
 */
export async function createdOnce<T extends { url: string }>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  create: (terms: WriteTerms) => Promise<T>,
  options: { readsBody?: boolean } = {},
): Promise<FastifyReply> {
  const key = request.headers['idempotency-key'];
  if (key === undefined) {
    return created(reply, await create(NO_TERMS));
  }
  if (typeof key !== 'string' || !VALID_KEY.test(key) || key.trim() === '') {
    throw invalid({ non_field_errors: ['idempotency.badKey'] });
  }
  const accountId = callerOf(request).accountId;
  const claim: IdempotencyClaim = { accountId, key, fingerprint: options.readsBody ? '' : fingerprintOf(request) };
  if (!options.readsBody) {
    const replayed = await replay(ctx, reply, accountId, key, claim.fingerprint);
    if (replayed) return replayed;
  }
  let body: T;
  try {
    body = await create({ idempotencyKey: claim });
  } catch (error) {
    if (!(error instanceof KeyTaken)) throw error;
    const answer = await replay(ctx, reply, accountId, key, claim.fingerprint);
    if (answer) return answer;
    throw error;
  }
  await storeAnswer(ctx.db.kysely, accountId, key, { status: 201, body: JSON.stringify(body), location: body.url });
  return created(reply, body);
}

async function storeAnswer(
  db: Kysely<Database>,
  accountId: number,
  key: string,
  answer: { status: number; body: string; location: string },
): Promise<void> {
  await db.updateTable('idempotency_keys').set(answer).where('account_id', '=', accountId).where('key', '=', key).execute();
}

/** Forgets keys older than 24 hours (the sweeper). */
export async function deleteKeysBefore(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
}
