import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// Two-step sign-in (docs/accounts.md). Everything hangs off the account with ON DELETE CASCADE, so
// deleting the account removes it in the same statement.
// - totp_secrets: one per account, encrypted (auth/secret-box.ts); enabled = 0 while pending
//   confirmation. last_used_step is the newest 30-second step whose code was accepted: a code
//   of that step or an older one is a replay.
// - recovery_codes: stored only as hashes; used_at set once a code has been spent.
// - mfa_challenges: the mfa_token between a right password and the second factor, stored
//   hashed; it lives a few minutes, dies after a few wrong codes and works once.
export function twoStepSignInMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('totp_secrets')
        .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('enabled', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_used_step', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('recovery_codes'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('code_hash', 'char(64)', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('recovery_codes_account').on('recovery_codes').columns(['account_id', 'code_hash']).execute();

      await withId(db.schema.createTable('mfa_challenges'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('mfa_challenges_account').on('mfa_challenges').column('account_id').execute();
      await db.schema.createIndex('mfa_challenges_expires').on('mfa_challenges').column('expires_at').execute();
    },
  };
}
