import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { hashSecret, newSecret } from './token-hash.ts';

export async function issueToken(db: Kysely<Database>, accountId: number, now: number): Promise<string> {
  const token = newSecret();
  await db
    .insertInto('auth_tokens')
    .values({ account_id: accountId, token_hash: hashSecret(token), created_at: now, last_used_at: now })
    .execute();
  return token;
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
