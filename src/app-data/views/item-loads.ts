// Items with their contents (image content with its media, list content with its entries) in
// two queries whatever their number, filtered by the scope and the owner's account id, and
// assembled in memory into the API's read shape.
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Access } from '../kernel/access.ts';
import type { Database } from '../../db/schema.ts';
import { selectEntryRows, selectItemRows, type ItemRow, type ItemScope } from '../item-queries.ts';
import { toItem, type Item } from '../item-schemas.ts';
import type { ListEntryRow } from '../list-entry-schemas.ts';

/** 2 queries: the items in scope (with contents and media), the list entries. */
/** `rows`: the items' rows when already read (an item located with its row: access-queries.ts). */
export async function loadItems(
  ctx: AppContext,
  access: Access,
  db: Kysely<Database>,
  scope: ItemScope,
  rows?: readonly ItemRow[],
): Promise<Item[]> {
  const byTopic = await loadItemsByTopic(ctx, access, db, scope, rows);
  return [...byTopic.values()].flat().sort((a, b) => a.id - b.id);
}

/** 2 queries: the items in scope (with contents and media), the list entries; by topic id. */
export async function loadItemsByTopic(
  ctx: AppContext,
  access: Access,
  db: Kysely<Database>,
  scope: ItemScope,
  read?: readonly ItemRow[],
): Promise<Map<number, Item[]>> {
  const rows = read ?? (await selectItemRows(db, access.accountId, scope));
  const entryRows = await selectEntryRows(db, access.accountId, scope);
  const entriesByList = new Map<number, ListEntryRow[]>();
  for (const entry of entryRows) {
    const list = entriesByList.get(entry.list_content_id);
    if (list) list.push(entry);
    else entriesByList.set(entry.list_content_id, [entry]);
  }
  const byTopic = new Map<number, Item[]>();
  for (const row of rows) {
    const item = toItem(ctx, access, row, row.list_content_id === null ? [] : (entriesByList.get(row.list_content_id) ?? []));
    const items = byTopic.get(row.topic_id);
    if (items) items.push(item);
    else byTopic.set(row.topic_id, [item]);
  }
  return byTopic;
}
