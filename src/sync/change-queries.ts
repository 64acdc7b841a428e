// Queries on the change log (migration 0019) and on what its rows name. Every one takes the
// owner's account id.
import type { Kysely } from 'kysely';
import type { Database, Flag } from '../db/schema.ts';
import type { SyncedType } from '../db/synced-types.ts';
import { itemRowsQuery } from '../app-data/item-queries.ts';

export interface ChangeRow {
  id: number;
  type: SyncedType;
  object_id: number;
  op: 'upsert' | 'delete';
  profile_id: number | null;
  in_private: Flag | null;
}

/** The app user's changes after `afterId`, in commit order: at most `limit`. */
export function changesAfter(
  db: Kysely<Database>,
  accountId: number,
  appUserId: number,
  afterId: number,
  limit: number,
): Promise<ChangeRow[]> {
  return db
    .selectFrom('changes')
    .select(['id', 'type', 'object_id', 'op', 'profile_id', 'in_private'])
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The app user's newest change, or undefined when the sweep has taken them all. */
export async function newestChangeId(db: Kysely<Database>, accountId: number, appUserId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('changes')
    .select('id')
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** The highest change id the retention sweep has deleted. */
export async function sweptThrough(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('changes_horizon').select('swept_through').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.swept_through);
}

/**
 * Deletes the oldest changes written before `cutoff` (ms), at most `batch` of them, and moves
 * the horizon past them; the number deleted. Ids grow with time, so the oldest rows are the
 * lowest ids: no index on time is needed.
 */
export async function sweepChanges(trx: Kysely<Database>, cutoff: number, batch: number): Promise<number> {
  const oldest = await trx.selectFrom('changes').select(['id', 'created_at']).orderBy('id').limit(batch).execute();
  let expired = 0;
  while (expired < oldest.length && Number(oldest[expired]!.created_at) < cutoff) expired += 1;
  if (expired === 0) return 0;
  const last = oldest[expired - 1]!.id;
  await trx.deleteFrom('changes').where('id', '<=', last).execute();
  await trx.updateTable('changes_horizon').set({ swept_through: last }).where('id', '=', 1).where('swept_through', '<', last).execute();
  return expired;
}

/** Each profile of the app user with its privacy: what an accessor without private access may see. */
export async function profilePrivacy(db: Kysely<Database>, accountId: number, appUserId: number): Promise<Map<number, boolean>> {
  const rows = await db
    .selectFrom('profiles')
    .select(['id', 'is_private'])
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .execute();
  return new Map(rows.map((row) => [row.id, row.is_private === 1]));
}

export function topicsByIds(db: Kysely<Database>, accountId: number, ids: readonly number[]) {
  return db
    .selectFrom('topics')
    .select(['id', 'name', 'topic_type', 'profile_id'])
    .where('id', 'in', ids)
    .where('account_id', '=', accountId)
    .execute();
}

/** Items by id with their content, media and the profile they are under. */
export function itemsByIds(db: Kysely<Database>, accountId: number, ids: readonly number[]) {
  return itemRowsQuery(db, accountId, { itemIds: ids }).select('topics.profile_id').execute();
}

/** List entries by id with the item and the profile they are under. */
export function entriesByIds(db: Kysely<Database>, accountId: number, ids: readonly number[]) {
  return db
    .selectFrom('list_entries')
    .innerJoin('list_contents', 'list_contents.id', 'list_entries.list_content_id')
    .innerJoin('items', 'items.id', 'list_contents.item_id')
    .innerJoin('topics', 'topics.id', 'items.topic_id')
    .select(['list_entries.id', 'list_entries.text', 'items.id as item_id', 'topics.profile_id'])
    .where('list_entries.id', 'in', ids)
    .where('list_entries.account_id', '=', accountId)
    .execute();
}
