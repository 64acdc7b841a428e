import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// Every key e-mail sent (verification, reset), by address and by the account that caused it.
// The per-address cooldown counts these rows, not the keys: keys go with their address when
// it is deleted, and a deleted and re-added address must not be a way to mail a stranger
// again and again. Rows older than the longest limit's window are swept.
export function emailSendsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('email_sends'), dialect)
        .addColumn('email_lower', 'varchar(254)', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('email_sends_address').on('email_sends').columns(['email_lower', 'kind', 'created_at']).execute();
      await db.schema.createIndex('email_sends_account').on('email_sends').columns(['account_id', 'kind', 'created_at']).execute();
      await db.schema.createIndex('email_sends_created').on('email_sends').column('created_at').execute();
      // The sweep of never-verified accounts looks for old accounts.
      await db.schema.createIndex('accounts_created').on('accounts').column('created_at').execute();
    },
  };
}
