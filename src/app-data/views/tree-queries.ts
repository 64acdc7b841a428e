// Queries of the views that grow with what an app user holds (tree-views.ts): a profile or a
// topic with what its app user holds as a whole (to choose between reading it whole or in
// pages), and the pages themselves. Every one takes the caller's account id.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ProfileRow } from '../profile-schemas.ts';
import type { TopicRow } from '../topic-schemas.ts';
import type { Id } from '../item-queries.ts';

type Db = Kysely<Database>;

/** What the app user holds as a whole (the counts of migration 0013). */
export interface HeldCounts {
  held_items: number;
  held_entries: number;
}

export function findProfileWithHeld(db: Db, accountId: number, id: number): Promise<(ProfileRow & HeldCounts) | undefined> {
  return profileWithHeldQuery(db, accountId, id).executeTakeFirst();
}

/** A profile's columns with what its app user holds (from `profiles` joined to `app_users`). */
export const PROFILE_WITH_HELD = [
  'profiles.id',
  'profiles.name',
  'profiles.is_default',
  'profiles.is_private',
  'app_users.item_count as held_items',
  'app_users.entry_count as held_entries',
] as const;

export function profileWithHeldQuery(db: Db, accountId: Id, id: Id) {
  return db
    .selectFrom('profiles')
    .innerJoin('app_users', 'app_users.id', 'profiles.app_user_id')
    .select(PROFILE_WITH_HELD)
    .where('profiles.id', '=', id)
    .where('profiles.account_id', '=', accountId);
}

/** A topic row with its item count. */
export type CountedTopicRow = TopicRow & { item_count: number };

export function findTopicWithHeld(db: Db, accountId: number, id: number): Promise<(CountedTopicRow & HeldCounts) | undefined> {
  return db
    .selectFrom('topics')
    .innerJoin('profiles', 'profiles.id', 'topics.profile_id')
    .innerJoin('app_users', 'app_users.id', 'profiles.app_user_id')
    .select([
      'topics.id',
      'topics.name',
      'topics.topic_type',
      'topics.item_count',
      'app_users.item_count as held_items',
      'app_users.entry_count as held_entries',
    ])
    .where('topics.id', '=', id)
    .where('topics.account_id', '=', accountId)
    .executeTakeFirst();
}

export function listCountedTopics(db: Db, accountId: number, profileId: number): Promise<CountedTopicRow[]> {
  return db
    .selectFrom('topics')
    .select(['id', 'name', 'topic_type', 'item_count'])
    .where('profile_id', '=', profileId)
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

/** The ids of the topic's next `limit` items after `afterId`, in order. */
export async function topicItemIdsPage(db: Db, accountId: number, topicId: number, afterId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('items')
    .select('id')
    .where('topic_id', '=', topicId)
    .where('account_id', '=', accountId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
