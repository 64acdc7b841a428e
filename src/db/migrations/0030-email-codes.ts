import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// email_codes: the 6-digit codes e-mailed beside verification and reset links, and for signing
// in by e-mail (docs/accounts.md#codes-by-e-mail). One row per address and kind: a newer code of
// a kind replaces the older (the unique index), so only the newest works. The code is kept as an
// HMAC-SHA-256 under a server key, bound to its kind and address; `failed_attempts` counts the
// tries, each counted before it is judged; `used_at` marks it spent. Rows go with their address
// (and so with their account).
// mfa_challenges.first_step: how a sign-in waiting for its second step began when not by the
// password or a provider (`email_code`), so that the session it opens records `email_code+totp`.
export function emailCodesMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('email_codes'), dialect)
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('email_address_id', 'integer', (c) => c.notNull().references('email_addresses.id').onDelete('cascade'))
        .addColumn('email_lower', 'varchar(254)', (c) => c.notNull())
        .addColumn('code_hash', 'char(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('email_codes_address_kind').on('email_codes').columns(['email_lower', 'kind']).unique().execute();
      await db.schema.createIndex('email_codes_account').on('email_codes').column('account_id').execute();
      await db.schema.createIndex('email_codes_address').on('email_codes').column('email_address_id').execute();
      await db.schema.createIndex('email_codes_expires').on('email_codes').column('expires_at').execute();
      await db.schema.alterTable('mfa_challenges').addColumn('first_step', 'varchar(20)').execute();
    },
  };
}
