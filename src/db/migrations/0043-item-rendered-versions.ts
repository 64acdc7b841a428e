import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { listItemFunction } from './0013-app-user-usage.ts';
import { changedRows, replaceRenderedTriggers, stampRows, stampStatements } from './0040-rendered-stamps-by-key.ts';

// Each item carries `rendered_version` as its topic does (migration 0034): its app user's data
// version when what the item shows last changed (its name, its contents, their media and list
// entries), set by the same triggers, in the transaction of the change, whatever makes it. A read
// of a profile after a write then re-reads and re-serialises only the items whose number moved in
// the topics whose number moved (src/app-data/views/profile-rendering.ts): after a one-entry
// write, one item of the profile's fifty, where the topic's stamp alone made it ten.
//
// A new item is stamped at its insert, so that an item id SQLite hands out again after the
// largest one was deleted never matches the rendering of the item that had it. On PostgreSQL
// create_list_items sets the stamp in its insert (its creates skip the insert triggers, 0039).
// Items made before this migration carry 0, lower than any version a change sets.

/** The items the row `r` of each table shows in: an expression for `id = …`, or a subquery for `id IN (…)`. */
const ITEM_OF: Record<string, { key?: (r: string) => string; set?: (r: string) => string }> = {
  items: { key: (r) => `${r}.id` },
  image_contents: { key: (r) => `${r}.item_id` },
  list_entries: { key: (r) => `(SELECT item_id FROM list_contents WHERE id = ${r}.list_content_id)` },
  media_resources: {
    set: (r) => `SELECT item_id FROM image_contents WHERE image_resource_id = ${r}.id OR media_resource_id = ${r}.id`,
  },
};

/** The item statements of a trigger: each changed row's item stamped (an update's old and new rows in turn; a deleted item has none). */
export function itemStampStatements(table: string, event: string): string {
  if (table === 'items' && event === 'delete') return '';
  const rows = changedRows(event);
  const { key, set } = ITEM_OF[table]!;
  if (key) return rows.map((r) => stampRows('items', `= ${key(r)}`, r)).join(' ');
  return stampRows('items', `IN (${rows.map((r) => set!(r)).join(' UNION ')})`, rows[0]!);
}

export function itemRenderedVersionsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('items')
        .addColumn('rendered_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await replaceRenderedTriggers(db, dialect, (table, event) =>
        `${stampStatements(table, event)} ${itemStampStatements(table, event)}`.trim(),
      );
      if (dialect === 'postgres') {
        await sql
          .raw(listItemFunction({ logged: true, activity: true, vias: true, topics: true, eventsWhenAny: true, itemStamps: true }))
          .execute(db);
      }
    },
  };
}
