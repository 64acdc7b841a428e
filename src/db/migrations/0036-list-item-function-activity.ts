import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { listItemFunction } from './0013-app-user-usage.ts';

// PostgreSQL: create_list_items takes accessors' creates too. Its ten-argument form writes each
// accessor's create in the owner's activity log (docs/activity.md) in the call itself, as the
// write kernel does in a create's transaction, so that an accessor's list item create is
// gathered with the others of its turn like an owner's: one round trip instead of nine. The
// eight-argument form stays for instances of the previous build during a rolling upgrade.
export function listItemFunctionActivityMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql.raw(listItemFunction({ logged: true, activity: true })).execute(db);
    },
  };
}
