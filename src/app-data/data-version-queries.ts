// The owning app user's data version of a profile or topic, the owner's account id in the
// query: undefined when the object is missing or someone else's. These run on every read of
// a cached view, so they are compiled once per database.
import type { Kysely } from 'kysely';
import { compileOnce } from '../db/compiled-query.ts';
import type { Database } from '../db/schema.ts';

export type VersionLookup = (accountId: number, id: number) => Promise<number | undefined>;

export function profileVersionLookup(db: Kysely<Database>): VersionLookup {
  const find = compileOnce(db, (profileId: number, accountId: number) => db.selectFrom('profiles')
    .innerJoin('app_users', 'app_users.id', 'profiles.app_user_id')
    .select('app_users.data_version')
    .where('profiles.id', '=', profileId).where('profiles.account_id', '=', accountId), -1, -2);
  return async (accountId, profileId) => (await find(profileId, accountId))[0]?.data_version;
}

export function topicVersionLookup(db: Kysely<Database>): VersionLookup {
  const find = compileOnce(db, (topicId: number, accountId: number) => db.selectFrom('topics')
    .innerJoin('profiles', 'profiles.id', 'topics.profile_id')
    .innerJoin('app_users', 'app_users.id', 'profiles.app_user_id')
    .select('app_users.data_version')
    .where('topics.id', '=', topicId).where('topics.account_id', '=', accountId), -1, -2);
  return async (accountId, topicId) => (await find(topicId, accountId))[0]?.data_version;
}
