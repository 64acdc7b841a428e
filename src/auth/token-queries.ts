import type { Kysely } from 'kysely';
import type { Database, SignInMethod } from '../db/schema.ts';
import { hashSecret, newSecret } from './token-hash.ts';

/** Where a token was asked for: the client's User-Agent and IP address. */
export interface TokenOrigin {
  userAgent?: string | null;
  ipAddress?: string | null;
}

/** A new token for the account, recording how its session was opened. */
export async function issueToken(
  db: Kysely<Database>,
  accountId: number,
  now: number,
  method: SignInMethod,
  origin: TokenOrigin = {},
): Promise<string> {
  const token = newSecret();
  await db
    .insertInto('auth_tokens')
    .values({
      account_id: accountId,
      token_hash: hashSecret(token),
      created_at: now,
      last_used_at: now,
      user_agent: origin.userAgent ?? null,
      ip_address: origin.ipAddress ?? null,
      sign_in_method: method,
    })
    .execute();
  return token;
}

/** A token as a session: never its hash. */
export interface SessionRow {
  id: number;
  created_at: number;
  last_used_at: number;
  user_agent: string | null;
  ip_address: string | null;
  sign_in_method: SignInMethod | null;
}

/** The account's tokens as sessions, by id. */
export function listAccountTokens(db: Kysely<Database>, accountId: number): Promise<SessionRow[]> {
  return db
    .selectFrom('auth_tokens')
    .select(['id', 'created_at', 'last_used_at', 'user_agent', 'ip_address', 'sign_in_method'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

/** Revokes one of the account's tokens; false when the account has no such token. */
/** A session as it was when it ended: how it was opened, and from where. */
export interface EndedSession {
  sign_in_method: string | null;
  ip_address: string | null;
  user_agent: string | null;
}

/** Revokes the account's session with this token id; undefined: no such session. */
export function revokeAccountToken(db: Kysely<Database>, accountId: number, tokenId: number): Promise<EndedSession | undefined> {
  return db
    .deleteFrom('auth_tokens')
    .where('id', '=', tokenId)
    .where('account_id', '=', accountId)
    .returning(['sign_in_method', 'ip_address', 'user_agent'])
    .executeTakeFirst();
}

/** When the account's session with this token id was opened (ms); undefined: no such session. */
export async function sessionOpenedAt(db: Kysely<Database>, accountId: number, tokenId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('auth_tokens')
    .select('created_at')
    .where('id', '=', tokenId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? Number(row.created_at) : undefined;
}

export async function touchToken(db: Kysely<Database>, tokenId: number, now: number): Promise<void> {
  await db.updateTable('auth_tokens').set({ last_used_at: now }).where('id', '=', tokenId).execute();
}

export async function revokeToken(db: Kysely<Database>, tokenId: number): Promise<void> {
  await db.deleteFrom('auth_tokens').where('id', '=', tokenId).execute();
}

/** Revokes every token of the account, or every one but `keepTokenId`. */
export async function revokeAccountTokens(db: Kysely<Database>, accountId: number, keepTokenId?: number): Promise<void> {
  let query = db.deleteFrom('auth_tokens').where('account_id', '=', accountId);
  if (keepTokenId !== undefined) query = query.where('id', '!=', keepTokenId);
  await query.execute();
}
