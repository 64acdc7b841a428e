import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

export function outboxMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('outbox'), dialect)
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .execute();
      // The worker's claim query reads only pending rows in due order.
      await db.schema
        .createIndex('outbox_pending_due')
        .on('outbox')
        .columns(['next_attempt_at', 'id'])
        .where(sql.ref('state'), '=', 'pending')
        .execute();

      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
