import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// Every personal-data row carries the owning account's id, so ownership is part of every
// query (`where id = ? and account_id = ?`) instead of a walk up the tree.
export function appDataMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      const owned = (table: string) =>
        withId(db.schema.createTable(table), dialect).addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        );

      await owned('app_users')
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('quote', 'text')
        // Bumped in the same transaction as any change to what the app user holds; caches key on it.
        .addColumn('data_version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // One app user per account.
      await db.schema.createIndex('app_users_account_key').on('app_users').column('account_id').unique().execute();

      await owned('media_resources')
        .addColumn('app_user_id', 'integer', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('storage_key', 'varchar(255)', (c) => c.notNull().unique())
        .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('media_resources_app_user').on('media_resources').column('app_user_id').execute();

      await owned('profiles')
        .addColumn('app_user_id', 'integer', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('is_default', 'smallint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('profiles_app_user').on('profiles').column('app_user_id').execute();
      // At most one default profile per app user.
      await db.schema
        .createIndex('profiles_one_default')
        .on('profiles')
        .column('app_user_id')
        .unique()
        .where(sql.ref('is_default'), '=', 1)
        .execute();

      await owned('topics')
        .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('topic_type', 'smallint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('topics_profile').on('topics').column('profile_id').execute();

      await owned('items')
        .addColumn('topic_id', 'integer', (c) => c.notNull().references('topics.id').onDelete('cascade'))
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('items_topic').on('items').column('topic_id').execute();

      await owned('image_contents')
        .addColumn('item_id', 'integer', (c) => c.notNull().unique().references('items.id').onDelete('cascade'))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('image_resource_id', 'integer', (c) => c.references('media_resources.id').onDelete('set null'))
        .addColumn('media_resource_id', 'integer', (c) => c.references('media_resources.id').onDelete('set null'))
        .execute();

      await owned('list_contents')
        .addColumn('item_id', 'integer', (c) => c.notNull().unique().references('items.id').onDelete('cascade'))
        .execute();

      await owned('list_entries')
        .addColumn('list_content_id', 'integer', (c) => c.notNull().references('list_contents.id').onDelete('cascade'))
        .addColumn('text', 'varchar(255)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('list_entries_list_content').on('list_entries').column('list_content_id').execute();

      await owned('emergency_items')
        .addColumn('app_user_id', 'integer', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('media_resource_id', 'integer', (c) => c.references('media_resources.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('emergency_items_app_user').on('emergency_items').column('app_user_id').execute();

      await owned('emergency_contacts')
        .addColumn('app_user_id', 'integer', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('relation', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('phone_number', 'varchar(16)', (c) => c.notNull())
        .addColumn('alt_phone_number', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('emergency_contacts_app_user').on('emergency_contacts').column('app_user_id').execute();

      // Indexes for the foreign keys that set null / cascade, so deletes do not scan.
      await db.schema.createIndex('image_contents_image_resource').on('image_contents').column('image_resource_id').execute();
      await db.schema.createIndex('image_contents_media_resource').on('image_contents').column('media_resource_id').execute();
      await db.schema.createIndex('emergency_items_media_resource').on('emergency_items').column('media_resource_id').execute();
      for (const table of [
        'profiles',
        'topics',
        'items',
        'image_contents',
        'list_contents',
        'list_entries',
        'media_resources',
        'emergency_items',
        'emergency_contacts',
      ]) {
        await db.schema.createIndex(`${table}_account`).on(table).column('account_id').execute();
      }
    },
  };
}
