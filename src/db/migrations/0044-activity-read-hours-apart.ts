import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// activity_events keeps one index keyed by the owner for the events most writes add.
// - The read-hour index (app_user_id, actor_id, read_hour) holds only reads (`read_hour` set):
//   it is what makes a read the first of its hour once between instances, and nothing else
//   needs it since the app user's foreign key is (account_id, app_user_id), which the
//   account index (account_id, app_user_id, id) serves for a deletion's cascade. Security
//   events (no app user) are not checked against app users, as before.
// - Why: SQLite gathers the writes that arrive during a commit into the next (group-commit.ts),
//   and every page an index keyed by the owner puts an event on is one more page of that commit
//   for each owner in it. 50 accessors' item creates, each writing an event under another owner
//   (bench W9): 75.7 µs of native commit time per create with the read-hour index over every
//   event, 58.0–58.2 without (the owner's own create: 40), and the event's insert 18.0 →
//   12.3–12.9 µs.
// SQLite cannot change a foreign key: the table is made again and its rows copied, ids and
// the id sequence kept (a page's cursor is an id).
export function activityReadHoursApartMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      // The parent key of the foreign key: an app user's account and id (account_id alone is
      // already unique: one app user per account).
      await db.schema.createIndex('app_users_account_id').on('app_users').columns(['account_id', 'id']).unique().execute();
      if (dialect === 'postgres') {
        await sql`ALTER TABLE activity_events DROP CONSTRAINT activity_events_app_user_id_fkey`.execute(db);
        await sql`ALTER TABLE activity_events ADD CONSTRAINT activity_events_app_user_fkey
          FOREIGN KEY (account_id, app_user_id) REFERENCES app_users (account_id, id) ON DELETE CASCADE`.execute(db);
      } else {
        await rebuildOnSqlite(db);
      }
      await db.schema.dropIndex('activity_events_read_hour').ifExists().execute();
      await db.schema
        .createIndex('activity_events_read_hour')
        .on('activity_events')
        .columns(['app_user_id', 'actor_id', 'read_hour'])
        .unique()
        .where('read_hour', 'is not', null)
        .execute();
    },
  };
}

async function rebuildOnSqlite(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('activity_events_new'), 'sqlite')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('app_user_id', 'integer')
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
    .addForeignKeyConstraint('activity_events_app_user_fkey', ['account_id', 'app_user_id'], 'app_users', ['account_id', 'id'], (c) =>
      c.onDelete('cascade'),
    )
    .execute();
  const columns = sql.raw(
    'id, account_id, app_user_id, at, actor_kind, actor_id, actor_name, action, object_type, object_id, object_name, via, ip_address, user_agent, read_hour',
  );
  await sql`INSERT INTO activity_events_new (${columns}) SELECT ${columns} FROM activity_events`.execute(db);
  const sequence = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'activity_events'`.execute(db);
  await sql`DROP TABLE activity_events`.execute(db);
  await sql`ALTER TABLE activity_events_new RENAME TO activity_events`.execute(db);
  const seq = sequence.rows[0]?.seq;
  if (seq !== undefined) await sql`UPDATE sqlite_sequence SET seq = max(seq, ${seq}) WHERE name = 'activity_events'`.execute(db);
  await db.schema.createIndex('activity_events_account').on('activity_events').columns(['account_id', 'app_user_id', 'id']).execute();
  await db.schema.createIndex('activity_events_at').on('activity_events').column('at').execute();
}
