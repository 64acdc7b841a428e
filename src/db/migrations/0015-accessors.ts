import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// Sharing with people (docs/sharing.md). An accessor is an invitation to an e-mail address to
// read (or write) one app user's data; accepting binds it to the accepting account
// (`user_with_access_id`), and from then on the address no longer matters.
//
// - `owner_account_id` cascades: deleting the owner removes what they shared.
// - `user_with_access_id` cascades: deleting the accepting account removes its access. An
//   invitation never accepted has no account and stays with its sender (the address may
//   register again).
// - `email_lower` is unique per app user: one invitation per address and app user.
// - Profiles gain `is_private`: hidden, with everything under them, from accessors without
//   `has_private_profile_access`.
export function accessorsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('accessors'), dialect)
        .addColumn('app_user_id', 'integer', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('owner_account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('email', 'varchar(254)', (c) => c.notNull())
        .addColumn('email_lower', 'varchar(254)', (c) => c.notNull())
        .addColumn('user_with_access_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('can_write', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('has_private_profile_access', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('accepted_at', 'bigint')
        .execute();
      await db.schema.createIndex('accessors_app_user_email').on('accessors').columns(['app_user_id', 'email_lower']).unique().execute();
      // The grants read with every token (auth/token-finder.ts), and an account's deletion. One
      // accessor per person and app user: two invitations to one person's addresses cannot both
      // be accepted (NULLs, pending invitations, are distinct).
      await db.schema
        .createIndex('accessors_user_with_access')
        .on('accessors')
        .columns(['user_with_access_id', 'app_user_id'])
        .unique()
        .execute();
      // Pending invitations, found by the invited person's verified addresses.
      await db.schema.createIndex('accessors_email').on('accessors').column('email_lower').execute();
      await db.schema.createIndex('accessors_owner').on('accessors').column('owner_account_id').execute();

      await db.schema
        .alterTable('profiles')
        .addColumn('is_private', 'smallint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
