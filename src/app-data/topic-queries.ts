// Queries on topics. Every one takes the caller's account id.
import type { Kysely } from 'kysely';
import { topicAppUser } from './kernel/access-queries.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import type { TopicRow } from './topic-schemas.ts';
import type { Id } from './item-queries.ts';

const COLUMNS = ['topics.id', 'topics.name', 'topics.topic_type'] as const;

/** Which topics to read: those of a profile, or one. */
export type TopicScope = { profileId: Id } | { topicId: number };

export interface OwnedTopicRow extends TopicRow {
  profile_id: number;
  app_user_id: number;
}

export function selectTopics(db: Kysely<Database>, accountId: number, scope: TopicScope): Promise<TopicRow[]> {
  return topicsQuery(db, accountId, scope).execute();
}

export function topicsQuery(db: Kysely<Database>, accountId: Id, scope: TopicScope) {
  const [column, value] =
    'profileId' in scope ? (['topics.profile_id', scope.profileId] as const) : (['topics.id', scope.topicId] as const);
  return db.selectFrom('topics').select(COLUMNS).where(column, '=', value).where('topics.account_id', '=', accountId).orderBy('topics.id');
}

export const selectOwnedTopic = preparedQuery((db, p: { accountId: number; id: number }) =>
  db
    .selectFrom('topics')
    .select([...COLUMNS, 'topics.profile_id'])
    .select((eb) => topicAppUser(eb).$notNull().as('app_user_id'))
    .where('topics.id', '=', p.id)
    .where('topics.account_id', '=', p.accountId),
);

export async function findTopic(db: Kysely<Database>, accountId: number, id: number): Promise<OwnedTopicRow | undefined> {
  return (await selectOwnedTopic(db, { accountId, id }))[0];
}

export async function countTopics(db: Kysely<Database>, accountId: number, profileId: number): Promise<number> {
  const row = await db
    .selectFrom('topics')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('profile_id', '=', profileId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function insertTopic(
  trx: Kysely<Database>,
  values: { accountId: number; profileId: number; name: string; topicType: number },
): Promise<TopicRow> {
  return trx
    .insertInto('topics')
    .values({ account_id: values.accountId, profile_id: values.profileId, name: values.name, topic_type: values.topicType })
    .returning(['id', 'name', 'topic_type'])
    .executeTakeFirstOrThrow();
}

export async function updateTopic(
  trx: Kysely<Database>,
  accountId: number,
  id: number,
  changes: { name?: string; topic_type?: number },
): Promise<void> {
  await trx.updateTable('topics').set(changes).where('id', '=', id).where('account_id', '=', accountId).execute();
}

export async function deleteTopic(trx: Kysely<Database>, accountId: number, id: number): Promise<boolean> {
  const result = await trx.deleteFrom('topics').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
