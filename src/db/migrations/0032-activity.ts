import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// activity_events: the two logs an owner reads (docs/activity.md). An event under an app user
// (app_user_id set) is in its owner's activity log; one without (app_user_id null) is in the
// account's security log. Both go with the account or the app user (foreign keys, cascade).
// - actor_*: who did it, as the owner is to see them then (an accessor's name is copied: the
//   event outlives a change of name and the accessor itself); object_*: likewise.
// - ip_address, user_agent: a sign-in's session, as it was opened.
// - read_hour: an accessor's read, the hour it falls in (null for every other event); unique
//   with the app user and the reader, so instances that each decide in memory that a read is
//   the first of its hour write it once between them (insert-or-ignore).
// Pages run newest first by id under an app user, or under the account for the security log;
// the retention sweep deletes by time.
export function activityMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('activity_events'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('app_user_id', 'integer', (c) => c.references('app_users.id').onDelete('cascade'))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor_kind', 'varchar(20)')
        .addColumn('actor_id', 'integer')
        .addColumn('actor_name', 'varchar(400)')
        .addColumn('action', 'varchar(40)', (c) => c.notNull())
        .addColumn('object_type', 'varchar(40)')
        .addColumn('object_id', 'integer')
        .addColumn('object_name', 'varchar(1000)')
        .addColumn('via', 'varchar(10)')
        .addColumn('ip_address', 'varchar(100)')
        .addColumn('user_agent', 'varchar(1000)')
        .addColumn('read_hour', 'integer')
        .execute();
      await db.schema.createIndex('activity_events_app_user').on('activity_events').columns(['app_user_id', 'id']).execute();
      await db.schema.createIndex('activity_events_account').on('activity_events').columns(['account_id', 'app_user_id', 'id']).execute();
      await db.schema.createIndex('activity_events_at').on('activity_events').column('at').execute();
      await db.schema
        .createIndex('activity_events_read_hour')
        .on('activity_events')
        .columns(['app_user_id', 'actor_id', 'read_hour'])
        .unique()
        .execute();
    },
  };
}
