// The lookup of every authenticated request: the token, and in the same query the data
// version of the caller's app user, so that a cached view needs no query of its own.
import DataLoader from 'dataloader';
import { sql } from 'kysely';
import type { ChangeFeed } from '../db/change-feed.ts';
import { compileOnce } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import { RowCache } from '../db/row-cache.ts';
import { hashSecret } from './token-hash.ts';

export interface TokenRow {
  id: number;
  account_id: number;
  last_used_at: number;
  /** The data version of the account's app user (null: none yet), which cached views are stamped with. */
  data_version: number | null;
}

export type TokenFinder = (token: string) => Promise<TokenRow | undefined>;

/** Tokens copied in memory at most (SQLite), about 200 bytes each. */
const CACHED_TOKENS = 100_000;

/** Lookups sent to PostgreSQL in one query at most. */
const MAX_BATCH = 200;

export function tokenFinder(db: Db): TokenFinder {
  return db.changes ? cachedFinder(db, db.changes) : batchedFinder(db);
}

/** The token rows with their account's data version; the finders add which tokens. */
function tokenRows(db: Db) {
  return db.kysely.selectFrom('auth_tokens')
    .leftJoin('app_users', 'app_users.account_id', 'auth_tokens.account_id')
    .select(['auth_tokens.token_hash', 'auth_tokens.id', 'auth_tokens.account_id', 'auth_tokens.last_used_at', 'app_users.data_version']);
}

/** SQLite: found tokens stay in memory until a token of the account or its data version changes. */
function cachedFinder(db: Db, changes: ChangeFeed): TokenFinder {
  const find = compileOnce(db, 'find_token', (tokenHash: string) => tokenRows(db)
    .where('auth_tokens.token_hash', '=', tokenHash), '\u0000token-hash');
  const cache = new RowCache<TokenRow>(changes, CACHED_TOKENS);
  return (token) => {
    const tokenHash = hashSecret(token);
    return cache.get(tokenHash, async () => {
      const row = (await find(tokenHash))[0];
      return row && { accountId: row.account_id, value: row };
    });
  };
}

/**
 * PostgreSQL (shared by every instance, so nothing is kept): the lookups of the requests that
 * arrive in one turn of the event loop go to the database as one query. A round trip costs
 * far more than a row, so under load this saves most of them; a lone request waits for
 * nothing but the end of the turn.
 */
function batchedFinder(db: Db): TokenFinder {
  const placeholder: string[] = [];
  const find = compileOnce(db, 'find_tokens', (tokenHashes: string[]) => tokenRows(db)
    .where(sql<boolean>`auth_tokens.token_hash = any(${tokenHashes})`), placeholder);
  const loader = new DataLoader<string, TokenRow | undefined>(async (tokenHashes) => {
    const byHash = new Map((await find([...tokenHashes])).map((row) => [row.token_hash, row]));
    return tokenHashes.map((tokenHash) => byHash.get(tokenHash));
  }, { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (dispatch) => setImmediate(dispatch) });
  return (token) => loader.load(hashSecret(token));
}
