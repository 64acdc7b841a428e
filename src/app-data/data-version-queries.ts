// The owning app user's data version of a profile or topic, the owner's account id in the
// query: undefined when the object is missing or someone else's.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export async function profileDataVersion(db: Kysely<Database>, accountId: number, profileId: number): Promise<number | undefined> {
  const row = await db.selectFrom('profiles')
    .innerJoin('app_users', 'app_users.id', 'profiles.app_user_id')
    .select('app_users.data_version')
    .where('profiles.id', '=', profileId).where('profiles.account_id', '=', accountId)
    .executeTakeFirst();
  return row?.data_version;
}

export async function topicDataVersion(db: Kysely<Database>, accountId: number, topicId: number): Promise<number | undefined> {
  const row = await db.selectFrom('topics')
    .innerJoin('profiles', 'profiles.id', 'topics.profile_id')
    .innerJoin('app_users', 'app_users.id', 'profiles.app_user_id')
    .select('app_users.data_version')
    .where('topics.id', '=', topicId).where('topics.account_id', '=', accountId)
    .executeTakeFirst();
  return row?.data_version;
}
