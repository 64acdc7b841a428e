import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { listItemFunction, TOPICS_WRITTEN } from './0013-app-user-usage.ts';

// PostgreSQL: create_list_items keeps its creates' topics itself: one update per create counts
// the item in its topic (item_count, migration 0006), stamps the topic (rendered_version,
// migration 0034) and returns the count the quota is checked against, where a query read the
// count and the insert triggers of items and list entries then updated the topic once for the
// count and once per row for the stamp, each a statement of its own: five per list item of
// three entries, most of them finding the topic already stamped. Under load (bench W3) an item
// create cost 0.35 ms of the database's CPU with them, 0.22 with this, as before the stamps. Those
// triggers skip the function's rows while the setting is on, as the change log's do (migration
// 0023); every other write, including the forms of create_list_items an earlier build may still
// call during a rolling upgrade, is counted and stamped by them. The setting is local to the
// transaction and turned off again before the call returns.
const SKIPPED = [
  { trigger: 'items_counted', events: 'INSERT OR DELETE OR UPDATE OF topic_id', table: 'items', run: 'count_topic_items' },
  { trigger: 'rendered_items_insert', events: 'INSERT', table: 'items', run: 'rendered_items_insert' },
  { trigger: 'rendered_list_entries_insert', events: 'INSERT', table: 'list_entries', run: 'rendered_list_entries_insert' },
];

export function listItemFunctionTopicsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql.raw(listItemFunction({ logged: true, activity: true, vias: true, topics: true })).execute(db);
      for (const { trigger, events, table, run } of SKIPPED) {
        await sql.raw(`DROP TRIGGER ${trigger} ON ${table}`).execute(db);
        await sql
          .raw(
            `CREATE TRIGGER ${trigger} AFTER ${events} ON ${table} FOR EACH ROW
              WHEN (current_setting('${TOPICS_WRITTEN}', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION ${run}()`,
          )
          .execute(db);
      }
    },
  };
}
