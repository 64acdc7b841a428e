import type { Kysely } from 'kysely';
import { compileOnce } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import { RowCache } from '../db/row-cache.ts';
import type { Database } from '../db/schema.ts';
import { hashSecret, newSecret } from './token-hash.ts';

export async function issueToken(db: Kysely<Database>, accountId: number, now: number): Promise<string> {
  const token = newSecret();
  await db.insertInto('auth_tokens')
    .values({ account_id: accountId, token_hash: hashSecret(token), created_at: now, last_used_at: now })
    .execute();
  return token;
}

export interface TokenRow {
  id: number;
  account_id: number;
  last_used_at: number;
}

/** Tokens copied in memory at most (SQLite), about 100 bytes each. */
const CACHED_TOKENS = 100_000;

/**
 * The token lookup of every authenticated request, compiled once for this database. With a
 * change feed (SQLite), found tokens are kept in memory until their row changes.
 */
export function tokenFinder(db: Db): (token: string) => Promise<TokenRow | undefined> {
  const { kysely } = db;
  const find = compileOnce(kysely, (tokenHash: string) => kysely.selectFrom('auth_tokens')
    .select(['id', 'account_id', 'last_used_at'])
    .where('token_hash', '=', tokenHash), '\u0000token-hash');
  const load = async (tokenHash: string) => (await find(tokenHash))[0];
  if (!db.changes) return (token) => load(hashSecret(token));
  const cache = new RowCache<TokenRow>(db.changes, 'auth_tokens', CACHED_TOKENS);
  return (token) => {
    const tokenHash = hashSecret(token);
    return cache.get(tokenHash, async () => {
      const row = await load(tokenHash);
      return row && { tag: tokenHash, value: row };
    });
  };
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
