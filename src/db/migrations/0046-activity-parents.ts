import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { listItemFunction } from './0013-app-user-usage.ts';

// An accessor's write to a topic, an item or a list entry names where it was made, as it was
// then: the profile, topic or item that holds it (docs/activity.md), so the owner reads "Ben
// added 'Penicillin' to 'Allergies'". Two columns, null for every other event. PostgreSQL's
// list-item function writes them for the creates it gathers.
export function activityParentsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('activity_events').addColumn('parent_id', 'integer').execute();
      await db.schema.alterTable('activity_events').addColumn('parent_name', 'varchar(1000)').execute();
      if (dialect !== 'postgres') return;
      await sql
        .raw(
          listItemFunction({
            logged: true,
            activity: true,
            vias: true,
            topics: true,
            eventsWhenAny: true,
            itemStamps: true,
            parents: true,
          }),
        )
        .execute(db);
    },
  };
}
