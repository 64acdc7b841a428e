import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// Emergency access links (docs/emergency-links.md): a public link to an app user's emergency items and
// contacts, and a record of every time it was opened.
//
// - The token is stored only as its SHA-256 (`token_hash`, unique: the public route finds the
//   link by it); the PIN only as an argon2id hash (`pin_hash`, null: no PIN). Too many wrong
//   PINs lock the link until `pin_locked_until` (emergency/pin-lockout.ts).
// - `account_id` and `app_user_id` cascade on both tables: deleting the account or the app user
//   removes its links and their views; deleting a link removes its views.
// - `view_count`, `last_viewed_at` and `notified_at` (the last view notice e-mailed: at most
//   one an hour) stay on the link when its views are swept after 90 days.
export function emergencyLinksMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('emergency_links'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('app_user_id', 'integer', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('label', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('pin_hash', 'varchar(255)')
        .addColumn('pin_locked_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_viewed_at', 'bigint')
        .addColumn('notified_at', 'bigint')
        .execute();
      await db.schema.createIndex('emergency_links_token_hash').on('emergency_links').column('token_hash').unique().execute();
      await db.schema.createIndex('emergency_links_app_user').on('emergency_links').columns(['app_user_id', 'account_id']).execute();
      await db.schema.createIndex('emergency_links_account').on('emergency_links').column('account_id').execute();

      await withId(db.schema.createTable('emergency_link_views'), dialect)
        .addColumn('link_id', 'integer', (c) => c.notNull().references('emergency_links.id').onDelete('cascade'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('viewed_at', 'bigint', (c) => c.notNull())
        .addColumn('ip_address', 'varchar(45)')
        .addColumn('user_agent', 'varchar(255)')
        .execute();
      // A link's views, newest first; and the sweep of those past 90 days.
      await db.schema.createIndex('emergency_link_views_link').on('emergency_link_views').columns(['link_id', 'viewed_at']).execute();
      await db.schema.createIndex('emergency_link_views_viewed_at').on('emergency_link_views').column('viewed_at').execute();
      await db.schema.createIndex('emergency_link_views_account').on('emergency_link_views').column('account_id').execute();
    },
  };
}
