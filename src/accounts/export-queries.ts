// The data export's reads that no endpoint needs: everything of one kind the account holds,
// with the id of its parent, one query each. The tables are indexed by (parent, account_id),
// not by account alone, so each goes through the account's app users or profiles.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { accountAppUserIds } from '../app-data/app-user-queries.ts';
import type { EmergencyContactRow } from '../app-data/emergency-contact-schemas.ts';
import { accountProfileIds } from '../app-data/profile-queries.ts';
import type { ProfileRow } from '../app-data/profile-schemas.ts';
import type { TopicRow } from '../app-data/topic-schemas.ts';
import type { MediaRow } from '../media/media-view.ts';

type Db = Kysely<Database>;

export function listAccountProfiles(db: Db, accountId: number): Promise<Array<ProfileRow & { app_user_id: number }>> {
  return db
    .selectFrom('profiles')
    .select(['id', 'app_user_id', 'name', 'is_default'])
    .where('app_user_id', 'in', accountAppUserIds(db, accountId))
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export function listAccountTopics(db: Db, accountId: number): Promise<Array<TopicRow & { profile_id: number }>> {
  return db
    .selectFrom('topics')
    .select(['id', 'profile_id', 'name', 'topic_type'])
    .where('profile_id', 'in', accountProfileIds(db, accountId))
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export function listAccountEmergencyContacts(db: Db, accountId: number): Promise<Array<EmergencyContactRow & { app_user_id: number }>> {
  return db
    .selectFrom('emergency_contacts')
    .select(['id', 'app_user_id', 'name', 'relation', 'phone_number', 'alt_phone_number', 'email'])
    .where('app_user_id', 'in', accountAppUserIds(db, accountId))
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export function listAccountMedia(db: Db, accountId: number): Promise<Array<MediaRow & { app_user_id: number }>> {
  return db
    .selectFrom('media_resources')
    .select(['id', 'app_user_id', 'name', 'storage_key', 'content_type', 'size'])
    .where('app_user_id', 'in', accountAppUserIds(db, accountId))
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}
