import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The owner's change of an accessor or an emergency link says what it changed (docs/activity.md):
// the fields changed, with their new values, as JSON. Null for every other event.
export function activityChangesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('activity_events').addColumn('changes', 'varchar(2000)').execute();
    },
  };
}
