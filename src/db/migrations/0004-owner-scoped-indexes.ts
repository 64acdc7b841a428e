import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Personal-data lists are read as `where <parent>_id = ? and account_id = ?`. With an index on
// the parent alone and another on account_id alone, SQLite (which has no statistics until
// ANALYZE) picked the account_id one and scanned every row the account owns (every item, every
// list entry). Composite (parent, account_id) indexes replace both, so the only plan is the
// right one on both databases. No request looks rows up by account_id alone; deleting an
// account row directly (no endpoint does) now scans these tables for its foreign keys.
const PARENT_INDEXES: Array<[table: string, parent: string, oldIndex: string]> = [
  ['profiles', 'app_user_id', 'profiles_app_user'],
  ['topics', 'profile_id', 'topics_profile'],
  ['items', 'topic_id', 'items_topic'],
  ['list_entries', 'list_content_id', 'list_entries_list_content'],
  ['emergency_items', 'app_user_id', 'emergency_items_app_user'],
  ['emergency_contacts', 'app_user_id', 'emergency_contacts_app_user'],
  ['media_resources', 'app_user_id', 'media_resources_app_user'],
];

export function ownerScopedIndexesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const [table, parent, oldIndex] of PARENT_INDEXES) {
        await db.schema.createIndex(`${table}_${parent}_account`).on(table).columns([parent, 'account_id']).execute();
        await db.schema.dropIndex(oldIndex).execute();
        await db.schema.dropIndex(`${table}_account`).execute();
      }
      // Children of items: found by item_id (unique), never by account.
      for (const table of ['image_contents', 'list_contents']) await db.schema.dropIndex(`${table}_account`).execute();
    },
  };
}
