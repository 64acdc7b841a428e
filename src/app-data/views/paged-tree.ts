// The profile tree written in pages into a JsonWriter, for the answers too large to build whole
// (the views of the largest accounts, tree-views.ts, and the data export): topics one by one, a
// topic's items PAGE_ITEMS at a time with their contents and entries (3 queries a page; an
// empty topic costs none), other requests running between pages. Every object goes through the
// API's own mapper, then `out.map` (the export leaves the links out).
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Access } from '../kernel/access.ts';
import type { Database } from '../../db/schema.ts';
import type { JsonWriter } from '../../spool/json-writer.ts';
import { loadItems } from './item-loads.ts';
import { toTopic } from '../topic-schemas.ts';
import { listCountedTopics, topicItemIdsPage, type CountedTopicRow } from './tree-queries.ts';

/** Items read at once: with up to 1,000 entries each (QUOTA_ENTRIES_PER_ITEM), a page holds at most 25,000 entries. */
export const PAGE_ITEMS = 25;

export interface PagedOutput {
  json: JsonWriter;
  /** Runs between two pages (the spool's flush, a turn for other requests). */
  between(): Promise<void>;
  map(value: object): unknown;
}

/** The topic's items as elements of the open array. */
export async function writeItems(
  ctx: AppContext,
  access: Access,
  db: Kysely<Database>,
  out: PagedOutput,
  topic: CountedTopicRow,
): Promise<void> {
  let afterId = 0;
  while (topic.item_count > 0) {
    const itemIds = await topicItemIdsPage(db, access.accountId, topic.id, afterId, PAGE_ITEMS);
    if (itemIds.length === 0) break;
    for (const item of await loadItems(ctx, access, db, { itemIds })) out.json.value(out.map(item));
    await out.between();
    if (itemIds.length < PAGE_ITEMS) break;
    afterId = itemIds.at(-1)!;
  }
}

/** The topic with its items: an element of the open array, or the member `key` of the open object. */
export async function writeTopic(
  ctx: AppContext,
  access: Access,
  db: Kysely<Database>,
  out: PagedOutput,
  topic: CountedTopicRow,
): Promise<void> {
  out.json.openObject();
  out.json.members(out.map(toTopic(ctx, topic, [])) as object, 'items');
  out.json.openArray('items');
  await writeItems(ctx, access, db, out, topic);
  out.json.close();
  out.json.close();
}

/** The profile's topics with their items, as the array `key` of the open object (or a document of its own). */
export async function writeTopics(
  ctx: AppContext,
  access: Access,
  db: Kysely<Database>,
  out: PagedOutput,
  profileId: number,
  key?: string,
): Promise<void> {
  out.json.openArray(key);
  for (const topic of await listCountedTopics(db, access.accountId, profileId)) await writeTopic(ctx, access, db, out, topic);
  out.json.close();
}
