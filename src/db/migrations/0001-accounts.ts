import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

export function accountsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('accounts'), dialect)
        .addColumn('first_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('last_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('email_addresses'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('email', 'varchar(254)', (c) => c.notNull())
        .addColumn('email_lower', 'varchar(254)', (c) => c.notNull())
        .addColumn('verified', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('is_primary', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('verified_action', 'smallint', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_key_sent_at', 'bigint')
        .execute();
      // One address belongs to one account, whatever its case.
      await db.schema.createIndex('email_addresses_email_lower_key').on('email_addresses').column('email_lower').unique().execute();
      // At most one primary address per account.
      await db.schema
        .createIndex('email_addresses_one_primary')
        .on('email_addresses')
        .column('account_id')
        .unique()
        .where(sql.ref('is_primary'), '=', 1)
        .execute();
      await db.schema.createIndex('email_addresses_account').on('email_addresses').column('account_id').execute();

      await withId(db.schema.createTable('auth_tokens'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_tokens_account').on('auth_tokens').column('account_id').execute();

      await withId(db.schema.createTable('email_verification_keys'), dialect)
        .addColumn('email_address_id', 'integer', (c) => c.notNull().references('email_addresses.id').onDelete('cascade'))
        .addColumn('key_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('email_verification_keys_address').on('email_verification_keys').column('email_address_id').execute();

      await withId(db.schema.createTable('password_reset_keys'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('email_address_id', 'integer', (c) => c.notNull().references('email_addresses.id').onDelete('cascade'))
        .addColumn('key_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('password_reset_keys_account').on('password_reset_keys').column('account_id').execute();
    },
  };
}
