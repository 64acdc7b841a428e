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
  /** The data version of the account's app user (null: none yet), which cached views are stamped with. */
  data_version: number | null;
}

/** Tokens copied in memory at most (SQLite), about 200 bytes each. */
const CACHED_TOKENS = 100_000;

/**
 * The lookup of every authenticated request: the token, and in the same query the data
 * version of the caller's app user, so that a cached view needs no query of its own. Compiled
 * once; with a change feed (SQLite) found tokens are kept in memory until a token of the
 * account or its data version changes.
 */
export function tokenFinder(db: Db): (token: string) => Promise<TokenRow | undefined> {
  const { kysely } = db;
  const find = compileOnce(db, 'find_token', (tokenHash: string) => kysely.selectFrom('auth_tokens')
    .leftJoin('app_users', 'app_users.account_id', 'auth_tokens.account_id')
    .select(['auth_tokens.id', 'auth_tokens.account_id', 'auth_tokens.last_used_at', 'app_users.data_version'])
    .where('auth_tokens.token_hash', '=', tokenHash), '\u0000token-hash');
  const load = async (tokenHash: string) => (await find(tokenHash))[0];
  if (!db.changes) return (token) => load(hashSecret(token));
  const cache = new RowCache<TokenRow>(db.changes, CACHED_TOKENS);
  return (token) => {
    const tokenHash = hashSecret(token);
    return cache.get(tokenHash, async () => {
      const row = await load(tokenHash);
      return row && { accountId: row.account_id, value: row };
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
