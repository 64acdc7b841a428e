import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// Passkeys (docs/sign-in-providers.md). Both tables hang off the account with ON DELETE CASCADE, so
// deleting the account removes them in the same statement.
// - passkeys: one WebAuthn credential each. credential_id and public_key are base64url text
//   (the COSE key as the authenticator gave it); counter is the last signature counter seen
//   (0 for authenticators that keep none); transports a comma list of the browser's hints.
// - webauthn_challenges: the challenge of each ceremony, kept in the database so that any
//   instance can finish what another began. It lives a few minutes and is deleted when used.
//   Registration challenges belong to an account; sign-in challenges to no one (discoverable
//   credentials: the account is known only from the answer).
export function passkeysMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('passkeys'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('backed_up', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('passkeys_account').on('passkeys').column('account_id').execute();

      await withId(db.schema.createTable('webauthn_challenges'), dialect)
        .addColumn('challenge', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webauthn_challenges_account').on('webauthn_challenges').column('account_id').execute();
      await db.schema.createIndex('webauthn_challenges_expires').on('webauthn_challenges').column('expires_at').execute();
    },
  };
}
