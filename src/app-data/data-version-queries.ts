// The owning app user's data version of a profile or topic, the owner's account id in the
// query: undefined when the object is missing or someone else's. These run on every read of
// a cached view, so they are compiled once per database, and with a change feed (SQLite)
// their answers are kept in memory until the app user's data version moves.
import type { Kysely } from 'kysely';
import { compileOnce } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import { RowCache } from '../db/row-cache.ts';
import type { Database } from '../db/schema.ts';

export type VersionLookup = (accountId: number, id: number) => Promise<number | undefined>;

/** Answers kept in memory at most, per kind of object (SQLite). */
const CACHED_VERSIONS = 100_000;

type VersionRow = { app_user_id: number; data_version: number };
type VersionQuery = (kysely: Kysely<Database>) => (id: number, accountId: number) => Promise<VersionRow[]>;

function versionLookup(db: Db, query: VersionQuery): VersionLookup {
  const find = query(db.kysely);
  if (!db.changes) return async (accountId, id) => (await find(id, accountId))[0]?.data_version;
  const cache = new RowCache<number>(db.changes, 'app_users', CACHED_VERSIONS);
  return (accountId, id) => cache.get(`${accountId}:${id}`, async () => {
    const row = (await find(id, accountId))[0];
    return row && { tag: row.app_user_id, value: row.data_version };
  });
}

export function profileVersionLookup(db: Db): VersionLookup {
  return versionLookup(db, (kysely) => compileOnce(kysely, (profileId: number, accountId: number) => kysely.selectFrom('profiles')
    .innerJoin('app_users', 'app_users.id', 'profiles.app_user_id')
    .select(['app_users.id as app_user_id', 'app_users.data_version'])
    .where('profiles.id', '=', profileId).where('profiles.account_id', '=', accountId), -1, -2));
}

export function topicVersionLookup(db: Db): VersionLookup {
  return versionLookup(db, (kysely) => compileOnce(kysely, (topicId: number, accountId: number) => kysely.selectFrom('topics')
    .innerJoin('profiles', 'profiles.id', 'topics.profile_id')
    .innerJoin('app_users', 'app_users.id', 'profiles.app_user_id')
    .select(['app_users.id as app_user_id', 'app_users.data_version'])
    .where('topics.id', '=', topicId).where('topics.account_id', '=', accountId), -1, -2));
}
