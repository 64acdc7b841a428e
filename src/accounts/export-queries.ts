// The data export's reads that no endpoint needs: the topics of a profile with their item
// counts (an empty topic costs no further query), and the items of a topic a page at a time.
import type { Kysely } from 'kysely';
import type { TopicRow } from '../app-data/topic-schemas.ts';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

export function listProfileTopics(db: Db, accountId: number, profileId: number): Promise<Array<TopicRow & { item_count: number }>> {
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
