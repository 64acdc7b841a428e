import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { CHANGES_WRITTEN, listItemFunction } from './0013-app-user-usage.ts';

// PostgreSQL: create_list_items writes the change log's rows of its creates itself, in one
// insert at the end of the call, and the row triggers of items and list entries (0019) skip
// the rows it inserts. A trigger's insert is a statement of its own, run once per row: four per
// list item of three entries, about 25 µs of the database's CPU each, where the whole create
// costs about 160. The rows are the same (an upsert of the item, then one per entry, in that
// order, after the app user's row is locked), so the log is as it was; every other write,
// including the six-argument form an older build may still call, is logged by the triggers.
// The setting is local to the transaction and turned off again before the call returns.
const SKIPPED = ['items', 'list_entries'];

export function listItemFunctionLogsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql.raw(listItemFunction({ logged: true })).execute(db);
      for (const table of SKIPPED) {
        const trigger = `log_${table}_insert`;
        await sql.raw(`DROP TRIGGER ${trigger} ON ${table}`).execute(db);
        await sql
          .raw(
            `CREATE TRIGGER ${trigger} AFTER INSERT ON ${table} FOR EACH ROW
              WHEN (current_setting('${CHANGES_WRITTEN}', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION ${trigger}()`,
          )
          .execute(db);
      }
    },
  };
}
