// A profile's detail in one statement: the profile with what its app user holds, and, when
// that fits inline (tree-views.ts), its topics and its items as two JSON arrays of the rows
// the per-level queries read, each list item's entries nested in its row (an index probe per
// list, where a query of their own joined back through items and topics). Every write makes the next read of a profile a
// rendering-cache miss, so this is the read that runs most after a hit: one round trip, and a
// named statement, planned once per connection (Db.executePrepared).
import { sql } from 'kysely';
import { namedStatement } from '../db/prepared-query.ts';
import { itemRowsQuery, type ItemRow } from './item-queries.ts';
import type { ListEntryRow } from './list-entry-schemas.ts';
import type { ProfileRow } from './profile-schemas.ts';
import { topicsQuery } from './topic-queries.ts';
import type { TopicRow } from './topic-schemas.ts';
import type { HeldCounts } from './tree-queries.ts';
import { profileWithHeldQuery } from './tree-queries.ts';

interface Params {
  accountId: number;
  id: number;
  inlineItems: number;
  inlineEntries: number;
}

/** A JSON array value as the database gave it: parsed (PostgreSQL's json) or its text (SQLite). */
type JsonArray<T> = T[] | string;

export const selectProfileTree = namedStatement('profile_tree', (db, p: Params) => {
  // The arrays are only built for an app user whose views fit inline; a one-time filter.
  const fits = sql<boolean>`"app_users"."item_count" <= ${p.inlineItems} and "app_users"."entry_count" <= ${p.inlineEntries}`;
  const scope = { profileId: p.id };
  return profileWithHeldQuery(db.kysely, p.accountId, p.id).select([
    db.jsonArrayFrom(topicsQuery(db.kysely, p.accountId, scope).where(fits)).as('topics'),
    db
      .jsonArrayFrom(
        itemRowsQuery(db.kysely, p.accountId, scope)
          .where(fits)
          .select((eb) => {
            const entries = db.jsonArrayFrom(
              eb
                .selectFrom('list_entries')
                .select(['list_entries.id', 'list_entries.text'])
                .whereRef('list_entries.list_content_id', '=', 'list_contents.id')
                .where('list_entries.account_id', '=', p.accountId),
            );
            // Only list items have entries to look up.
            return sql<ListEntryRow[] | null>`case when ${eb.ref('list_contents.id')} is not null then ${entries} end`.as('entries');
          }),
      )
      .as('items'),
  ]);
});

/** An item row with its list entries (none for an image item). */
export interface TreeItemRow extends ItemRow {
  entries: ListEntryRow[];
}

export interface ProfileTree {
  profile: ProfileRow & HeldCounts;
  topics: TopicRow[];
  items: TreeItemRow[];
}

/**
 * The rows of a JSON array, in id order (an aggregate's order is not promised by SQL). SQLite
 * gives a nested array as its text.
 */
function rowsOf<T extends { id: number }>(value: JsonArray<T> | null | unknown): T[] {
  if (value === null) return [];
  const rows = (typeof value === 'string' ? JSON.parse(value) : value) as T[];
  for (let i = 1; i < rows.length; i++) {
    if (rows[i - 1]!.id > rows[i]!.id) return rows.sort((a, b) => a.id - b.id);
  }
  return rows;
}

/** The profile and, when its app user's views fit inline, its tree's rows. */
export function profileTree(row: Awaited<ReturnType<typeof selectProfileTree>>[number]): ProfileTree {
  const { topics, items, ...profile } = row;
  const itemRows = rowsOf<TreeItemRow>(items);
  for (const item of itemRows) item.entries = rowsOf<ListEntryRow>(item.entries);
  return { profile, topics: rowsOf<TopicRow>(topics), items: itemRows };
}
