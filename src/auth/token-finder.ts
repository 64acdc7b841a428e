// The lookup of every authenticated request: the token, the data version of the caller's app
// user, which cached views are stamped with, and what others share with the caller (grants.ts).
import DataLoader from 'dataloader';
import { CompiledQuery } from 'kysely';
import type { CacheCounts } from '../context.ts';
import type { ChangeFeed } from '../db/change-feed.ts';
import { preparedStatement } from '../db/prepared-query.ts';
import type { Db } from '../db/database.ts';
import type { SignInMethod } from '../db/schema.ts';
import { RowCache } from '../db/row-cache.ts';
import { dataVersionOf, type DataVersion } from './data-version.ts';
import { GRANT_COLUMNS, GRANT_JOINS, grantOfRow, grantRows, NO_GRANTS, toGrant, type Grant, type GrantColumns } from './grants.ts';
import { hashSecret } from './token-hash.ts';

export interface TokenRow {
  id: number;
  account_id: number;
  last_used_at: number;
  /** How the session was opened (null: before this was recorded). */
  sign_in_method: SignInMethod | null;
}

export interface FoundToken extends TokenRow {
  /** The account's app user and its data version (null: none yet), for the requests that need it. */
  dataVersion(): Promise<DataVersion | null>;
  /** The app users others share with the account (accepted accessors), for the requests that need them. */
  grants(): Promise<readonly Grant[]>;
  /** Caller.versionKept: whether the data version of `accountId`'s app user is answered without a query now. */
  versionKept(accountId: number): boolean;
  /** Caller.versionRead: what a statement found of `accountId`'s app user, kept where `dataVersion` reads it. */
  versionRead(accountId: number): (found: DataVersion) => void;
}

export type TokenFinder = (token: string) => Promise<FoundToken | undefined>;

/** Tokens, and app users' data versions, copied in memory at most (SQLite): about 200 bytes each. */
const CACHED_ROWS = 100_000;

/** Lookups sent to PostgreSQL in one query at most. */
const MAX_BATCH = 200;

/** `cacheCounts`: where the caches (SQLite) add their hit and miss counts. */
export function tokenFinder(db: Db, cacheCounts?: Map<string, CacheCounts>): TokenFinder {
  return db.changes ? cachedFinder(db, db.changes, cacheCounts) : batchedFinder(db);
}

function tokenRows(db: Db) {
  return db.kysely
    .selectFrom('auth_tokens')
    .select([
      'auth_tokens.token_hash',
      'auth_tokens.id',
      'auth_tokens.account_id',
      'auth_tokens.last_used_at',
      'auth_tokens.sign_in_method',
    ]);
}

/**
 * SQLite: a found token stays in memory until a token of its account changes, and the data
 * version until the app user's changes. Apart, so that a write (which moves the data version)
 * costs its writer no token lookup on the next request; and the data version is only read
 * when a request asks for it.
 */
function cachedFinder(db: Db, changes: ChangeFeed, cacheCounts?: Map<string, CacheCounts>): TokenFinder {
  const findToken = preparedStatement(db, 'find_token', (p: { tokenHash: string }) =>
    tokenRows(db).where('auth_tokens.token_hash', '=', p.tokenHash),
  );
  const findDataVersion = preparedStatement(db, 'find_data_version', (p: { accountId: number }) =>
    db.kysely.selectFrom('app_users').select(['id', 'data_version']).where('account_id', '=', p.accountId),
  );
  const tokens = new RowCache<FoundToken>(changes, 'tokens', CACHED_ROWS);
  const dataVersions = new RowCache<DataVersion | null>(changes, 'app_user', CACHED_ROWS);
  // Kept as grants, each reading its app user's data version from the cache above when asked.
  const grantLists = new RowCache<readonly Grant[]>(changes, 'grants', CACHED_ROWS);
  cacheCounts?.set('token', tokens.counts).set('data_version', dataVersions.counts).set('grants', grantLists.counts);

  const versionOf = async (accountId: number): Promise<DataVersion | null> =>
    (await dataVersions.get(String(accountId), async () => {
      const row = (await findDataVersion({ accountId }))[0];
      return { accountId, value: dataVersionOf(row?.id, row?.data_version) };
    }))!;
  // The owner's app user now, if it is still the one shared (else it is gone: null).
  const sharedVersionOf = async (ownerAccountId: number, appUserId: number): Promise<DataVersion | null> => {
    const version = await versionOf(ownerAccountId);
    return version?.appUserId === appUserId ? version : null;
  };

  const loadGrants = async (accountId: number) => {
    const rows = await grantRows(db.kysely, accountId);
    const value = rows.length === 0 ? NO_GRANTS : rows.map((row) => toGrant(row, () => sharedVersionOf(row.ownerAccountId, row.appUserId)));
    return { accountId, value };
  };
  const grantsOf = async (accountId: number): Promise<readonly Grant[]> =>
    (await grantLists.get(String(accountId), () => loadGrants(accountId)))!;
  const versionKept = (accountId: number) => dataVersions.has(String(accountId));
  const versionRead = (accountId: number) => {
    const keep = dataVersions.reading(String(accountId));
    return (found: DataVersion) => keep({ accountId, value: found });
  };

  return (token) => {
    const tokenHash = hashSecret(token);
    return tokens.get(tokenHash, async () => {
      const row = (await findToken({ tokenHash }))[0];
      if (!row) return undefined;
      const accountId = row.account_id;
      return {
        accountId,
        value: {
          id: row.id,
          account_id: accountId,
          last_used_at: row.last_used_at,
          sign_in_method: row.sign_in_method,
          dataVersion: () => versionOf(accountId),
          grants: () => grantsOf(accountId),
          versionKept,
          versionRead,
        },
      };
    });
  };
}

// The hashes go as one text, each found token answered with its place in it and found by its
// key: a lateral probe, which the plan made once keeps at any table size (a join let it scan
// every token while they were few). The data version is a subquery, one index probe per token.
// Why: docs/decisions.md#caching. The grants come as rows of their own (a token's row once per
// grant, once with a null grant for none): one probe of `accessors_user_with_access` per token,
// where a JSON aggregate of them cost an accessor's read two thirds more database CPU.
const FIND_TOKENS = `select wanted.n::int4 as n, t.id, t.account_id, t.last_used_at, t.sign_in_method, u.id as app_user_id, u.data_version,
  ${GRANT_COLUMNS}
from unnest(string_to_array($1, ',')::bpchar[]) with ordinality as wanted(hash, n)
cross join lateral (select * from auth_tokens where token_hash = wanted.hash limit 1) t
left join app_users u on u.account_id = t.account_id
${GRANT_JOINS}`;

interface FoundRow extends TokenRow, GrantColumns {
  /** The hash's place in the query's list, from 1. */
  n: number;
  app_user_id: number | null;
  data_version: number | null;
}

// Every version a request may ask for comes with its token: nothing to keep, always answered.
const NOTHING_KEPT = () => () => {};
const ALWAYS = () => true;

/**
 * PostgreSQL (shared by every instance, so nothing is kept): the lookups of the requests that
 * arrive in one turn of the event loop go to the database as one query, which also reads each
 * caller's data version. A round trip costs far more than a row, so under load this saves
 * most of them; a lone request waits for nothing but the end of the turn.
 */
function batchedFinder(db: Db): TokenFinder {
  const loader = new DataLoader<string, FoundToken | undefined>(
    async (tokenHashes) => {
      const found: (FoundToken | undefined)[] = new Array(tokenHashes.length).fill(undefined);
      const query = CompiledQuery.raw(FIND_TOKENS, [tokenHashes.join(',')]);
      const grantsOf = new Map<number, Grant[]>();
      for (const row of await db.executePrepared<FoundRow>('find_tokens', query)) {
        const grant = grantOfRow(row);
        const seen = grantsOf.get(row.n);
        if (seen) {
          if (grant) seen.push(grant);
          continue;
        }
        const grants = grant ? [grant] : [];
        grantsOf.set(row.n, grants);
        const dataVersion = Promise.resolve(dataVersionOf(row.app_user_id, row.data_version));
        const answered = Promise.resolve(grants);
        found[row.n - 1] = {
          id: row.id,
          account_id: row.account_id,
          last_used_at: row.last_used_at,
          sign_in_method: row.sign_in_method,
          dataVersion: () => dataVersion,
          grants: () => answered,
          versionKept: ALWAYS,
          versionRead: NOTHING_KEPT,
        };
      }
      return found;
    },
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
  return (token) => loader.load(hashSecret(token));
}
