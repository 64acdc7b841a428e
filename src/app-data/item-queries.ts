// Queries on items and their image/list content. Every one takes the caller's account id. What
// an item's create, change or removal runs each time is compiled once (db/prepared-query.ts),
// but the image content's change, which sets whichever fields the request gives.
import type { Expression, ExpressionBuilder, Kysely } from 'kysely';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import type { Location } from './kernel/access-queries.ts';

/** Which items to read: those of a profile (all its topics), of a topic, one, or a page of them (the export). */
export type ItemScope = { profileId: Id } | { topicId: number } | { itemId: number } | { itemIds: readonly number[] };

/** A value, or a column of an outer query (a read of several profiles at once: profile-tree-query.ts). */
export type Id = number | Expression<number>;

/**
 * The scope as a condition on items joined to their topics: the scope's column, and the owner
 * column of the same table (so the planner starts there).
 */
function inScope(scope: ItemScope, accountId: Id) {
  return (eb: ExpressionBuilder<Database, 'items' | 'topics'>) => {
    if ('itemIds' in scope) return eb.and([eb('items.id', 'in', scope.itemIds), eb('items.account_id', '=', accountId)]);
    if ('profileId' in scope) return eb.and([eb('topics.profile_id', '=', scope.profileId), eb('topics.account_id', '=', accountId)]);
    if ('topicId' in scope) return eb.and([eb('items.topic_id', '=', scope.topicId), eb('items.account_id', '=', accountId)]);
    return eb.and([eb('items.id', '=', scope.itemId), eb('items.account_id', '=', accountId)]);
  };
}

/**
 * Items in scope with their content and the media the image content refers to, in one query:
 * each item row carries its image content (or nulls), its list content id (or null) and
 * the two media rows (or nulls).
 */
export function selectItemRows(db: Kysely<Database>, accountId: number, scope: ItemScope) {
  return itemRowsQuery(db, accountId, scope).execute();
}

export function itemRowsQuery(db: Kysely<Database>, accountId: Id, scope: ItemScope) {
  return itemRowsFrom(db).where(inScope(scope, accountId)).where('items.account_id', '=', accountId).orderBy('items.id');
}

/** The ids of the items in scope with their topics and stamps (migration 0043), in id order. */
export function itemStampsQuery(db: Kysely<Database>, accountId: Id, scope: ItemScope) {
  return db
    .selectFrom('items')
    .innerJoin('topics', 'topics.id', 'items.topic_id')
    .select(['items.id', 'items.topic_id', 'items.rendered_version'])
    .where(inScope(scope, accountId))
    .where('items.account_id', '=', accountId)
    .orderBy('items.id');
}

/** Items with their content and media, of anyone's: the rows `itemRowsQuery` filters and `locateItem` locates. */
export function itemRowsFrom(db: Kysely<Database>) {
  return db
    .selectFrom('items')
    .innerJoin('topics', 'topics.id', 'items.topic_id')
    .leftJoin('image_contents', 'image_contents.item_id', 'items.id')
    .leftJoin('list_contents', 'list_contents.item_id', 'items.id')
    .leftJoin('media_resources as image_media', (join) =>
      join.onRef('image_media.id', '=', 'image_contents.image_resource_id').onRef('image_media.account_id', '=', 'items.account_id'),
    )
    .leftJoin('media_resources as content_media', (join) =>
      join.onRef('content_media.id', '=', 'image_contents.media_resource_id').onRef('content_media.account_id', '=', 'items.account_id'),
    )
    .select([
      'items.id',
      'items.topic_id',
      'items.name',
      'image_contents.id as image_content_id',
      'image_contents.description',
      'list_contents.id as list_content_id',
      'image_media.id as image_media_id',
      'image_media.name as image_media_name',
      'image_media.storage_key as image_media_storage_key',
      'image_media.content_type as image_media_content_type',
      'image_media.size as image_media_size',
      'content_media.id as content_media_id',
      'content_media.name as content_media_name',
      'content_media.storage_key as content_media_storage_key',
      'content_media.content_type as content_media_content_type',
      'content_media.size as content_media_size',
    ]);
}

export type ItemRow = Awaited<ReturnType<typeof selectItemRows>>[number];

/** An item where it sits, with its row as its read answers it. */
export type LocatedItem = Location & ItemRow;

/**
 * Where the item `id` sits, with its row: the access decision's locate for an item read, so that
 * a caller with grants reads it in as many queries as its owner.
 */
export function locateItem(db: Kysely<Database>, id: number): Promise<LocatedItem | undefined> {
  return itemRowsFrom(db)
    .innerJoin('profiles as p', 'p.id', 'topics.profile_id')
    .select(['p.account_id', 'p.app_user_id', 'p.is_private as in_private', 'p.id as profile_id'])
    .where('items.id', '=', id)
    .executeTakeFirst();
}

/** The list entries of every list item in scope, in one query. */
export function selectEntryRows(db: Kysely<Database>, accountId: number, scope: ItemScope) {
  return entryRowsQuery(db, accountId, scope).execute();
}

export function entryRowsQuery(db: Kysely<Database>, accountId: Id, scope: ItemScope) {
  return db
    .selectFrom('list_entries')
    .innerJoin('list_contents', 'list_contents.id', 'list_entries.list_content_id')
    .innerJoin('items', 'items.id', 'list_contents.item_id')
    .innerJoin('topics', 'topics.id', 'items.topic_id')
    .select(['list_entries.id', 'list_entries.list_content_id', 'list_entries.text'])
    .where(inScope(scope, accountId))
    .where('list_entries.account_id', '=', accountId)
    .orderBy('list_entries.id');
}

export interface OwnedItemRow {
  id: number;
  app_user_id: number;
  image_content_id: number | null;
  list_content_id: number | null;
}

/** The caller's item with its app user and its content's id: an item's PATCH and DELETE find it so. */
export const selectOwnedItem = preparedQuery((db, p: { accountId: number; id: number }) =>
  db
    .selectFrom('items')
    .innerJoin('topics', 'topics.id', 'items.topic_id')
    .innerJoin('profiles', 'profiles.id', 'topics.profile_id')
    .leftJoin('image_contents', 'image_contents.item_id', 'items.id')
    .leftJoin('list_contents', 'list_contents.item_id', 'items.id')
    .select(['items.id', 'profiles.app_user_id', 'image_contents.id as image_content_id', 'list_contents.id as list_content_id'])
    .where('items.id', '=', p.id)
    .where('items.account_id', '=', p.accountId),
);

export async function findItem(db: Kysely<Database>, accountId: number, id: number): Promise<OwnedItemRow | undefined> {
  return (await selectOwnedItem(db, { accountId, id }))[0];
}

export const selectItemCount = preparedQuery((db, p: { accountId: number; topicId: number }) =>
  db.selectFrom('topics').select('item_count').where('id', '=', p.topicId).where('account_id', '=', p.accountId),
);

/** How many items the topic has (a counter kept by triggers on items, migration 0006). */
export async function countItems(db: Kysely<Database>, accountId: number, topicId: number): Promise<number> {
  const [row] = await selectItemCount(db, { accountId, topicId });
  if (!row) throw new Error(`topic ${topicId} of account ${accountId} not found`);
  return row.item_count;
}

export const insertItemRow = preparedQuery((db, p: { accountId: number; topicId: number; name: string }) =>
  db.insertInto('items').values({ account_id: p.accountId, topic_id: p.topicId, name: p.name }).returning('id'),
);

export async function insertItem(trx: Kysely<Database>, values: { accountId: number; topicId: number; name: string }): Promise<number> {
  const [row] = await insertItemRow(trx, values);
  return row!.id;
}

export interface ImageContentValues {
  description?: string;
  image_resource_id?: number | null;
  media_resource_id?: number | null;
}

const insertImageContentRow = preparedQuery(
  (db, p: { accountId: number; itemId: number; description: string; imageResourceId: number | null; mediaResourceId: number | null }) =>
    db.insertInto('image_contents').values({
      account_id: p.accountId,
      item_id: p.itemId,
      description: p.description,
      image_resource_id: p.imageResourceId,
      media_resource_id: p.mediaResourceId,
    }),
);

export async function insertImageContent(
  trx: Kysely<Database>,
  accountId: number,
  itemId: number,
  values: ImageContentValues,
): Promise<void> {
  await insertImageContentRow(trx, {
    accountId,
    itemId,
    description: values.description ?? '',
    imageResourceId: values.image_resource_id ?? null,
    mediaResourceId: values.media_resource_id ?? null,
  });
}

export const insertListContentRow = preparedQuery((db, p: { accountId: number; itemId: number }) =>
  db.insertInto('list_contents').values({ account_id: p.accountId, item_id: p.itemId }).returning('id'),
);

export async function insertListContent(trx: Kysely<Database>, accountId: number, itemId: number): Promise<number> {
  const [row] = await insertListContentRow(trx, { accountId, itemId });
  return row!.id;
}

const updateItemNameQuery = preparedQuery((db, p: { accountId: number; id: number; name: string }) =>
  db.updateTable('items').set({ name: p.name }).where('id', '=', p.id).where('account_id', '=', p.accountId),
);

export async function updateItemName(trx: Kysely<Database>, accountId: number, id: number, name: string): Promise<void> {
  await updateItemNameQuery(trx, { accountId, id, name });
}

export async function updateImageContent(trx: Kysely<Database>, accountId: number, id: number, changes: ImageContentValues): Promise<void> {
  await trx.updateTable('image_contents').set(changes).where('id', '=', id).where('account_id', '=', accountId).execute();
}

const deleteItemQuery = preparedQuery((db, p: { accountId: number; id: number }) =>
  db.deleteFrom('items').where('id', '=', p.id).where('account_id', '=', p.accountId).returning('id'),
);

export async function deleteItem(trx: Kysely<Database>, accountId: number, id: number): Promise<boolean> {
  return (await deleteItemQuery(trx, { accountId, id })).length > 0;
}
