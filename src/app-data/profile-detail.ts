// Reads the profile tree (profile → topics → items → image/list content → entries and media)
// with a fixed number of queries whatever its size: one per level, filtered by the root's id
// and the owner's account id, assembled in memory. Returns plain response objects, so a
// rendering can be cached (keyed on the app user's data_version).
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { selectEntryRows, selectItemRows, type ItemScope } from './item-queries.ts';
import { toItem, type Item } from './item-schemas.ts';
import type { ListEntryRow } from './list-entry-schemas.ts';
import { findProfile } from './profile-queries.ts';
import { toProfileDetail, type ProfileDetail } from './profile-schemas.ts';
import { selectTopics, type TopicScope } from './topic-queries.ts';
import { toTopic, type Topic } from './topic-schemas.ts';

/** 4 queries: the profile, its topics, their items (with contents and media), the list entries. */
export async function loadProfileDetail(ctx: AppContext, accountId: number, profileId: number): Promise<ProfileDetail | undefined> {
  const profile = await findProfile(ctx.db.kysely, accountId, profileId);
  if (!profile) return undefined;
  const topics = await loadTopics(ctx, ctx.db.kysely, accountId, { profileId });
  return toProfileDetail(ctx, profile, topics);
}

/** 3 queries: the topics in scope, their items, the list entries. */
export async function loadTopics(ctx: AppContext, db: Kysely<Database>, accountId: number, scope: TopicScope): Promise<Topic[]> {
  const rows = await selectTopics(db, accountId, scope);
  const items = await loadItemsByTopic(ctx, db, accountId, scope);
  return rows.map((row) => toTopic(ctx, row, items.get(row.id) ?? []));
}

/** 2 queries: the items in scope (with contents and media), the list entries. */
export async function loadItems(ctx: AppContext, db: Kysely<Database>, accountId: number, scope: ItemScope): Promise<Item[]> {
  const byTopic = await loadItemsByTopic(ctx, db, accountId, scope);
  return [...byTopic.values()].flat().sort((a, b) => a.id - b.id);
}

/** 2 queries: the items in scope (with contents and media), the list entries; by topic id. */
export async function loadItemsByTopic(
  ctx: AppContext,
  db: Kysely<Database>,
  accountId: number,
  scope: ItemScope,
): Promise<Map<number, Item[]>> {
  const rows = await selectItemRows(db, accountId, scope);
  const entryRows = await selectEntryRows(db, accountId, scope);
  const entriesByList = new Map<number, ListEntryRow[]>();
  for (const entry of entryRows) {
    const list = entriesByList.get(entry.list_content_id);
    if (list) list.push(entry);
    else entriesByList.set(entry.list_content_id, [entry]);
  }
  const byTopic = new Map<number, Item[]>();
  for (const row of rows) {
    const item = toItem(ctx, row, row.list_content_id === null ? [] : (entriesByList.get(row.list_content_id) ?? []));
    const items = byTopic.get(row.topic_id);
    if (items) items.push(item);
    else byTopic.set(row.topic_id, [item]);
  }
  return byTopic;
}
