import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Shares that end and show less (docs/sharing.md, docs/emergency-links.md).
//
// - `accessors.expires_at` (null: until revoked): past it the accessor grants nothing, read
//   against the clock wherever a grant is used (auth/grants.ts), so it needs no write to take
//   effect. `expiry_told_at` is when the expiry's e-mails were queued: the sweep claims an
//   expired accessor by setting it, once across instances; a later `expires_at` clears it.
// - An emergency link shows every emergency item and contact unless it chose some
//   (`items_chosen`, `contacts_chosen` = 1): then only those listed in `emergency_link_items` and
//   `emergency_link_contacts`. Both cascade from the item or contact, so deleting one removes it
//   from every list, and from the link.
export function sharesThatEndMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('accessors').addColumn('expires_at', 'bigint').execute();
      await db.schema.alterTable('accessors').addColumn('expiry_told_at', 'bigint').execute();
      await db.schema.createIndex('accessors_expires_at').on('accessors').column('expires_at').execute();

      await db.schema
        .alterTable('emergency_links')
        .addColumn('items_chosen', 'smallint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('emergency_links')
        .addColumn('contacts_chosen', 'smallint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('emergency_link_items')
        .addColumn('link_id', 'integer', (c) => c.notNull().references('emergency_links.id').onDelete('cascade'))
        .addColumn('emergency_item_id', 'integer', (c) => c.notNull().references('emergency_items.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('emergency_link_items_pk', ['link_id', 'emergency_item_id'])
        .execute();
      await db.schema.createIndex('emergency_link_items_item').on('emergency_link_items').column('emergency_item_id').execute();
      await db.schema
        .createTable('emergency_link_contacts')
        .addColumn('link_id', 'integer', (c) => c.notNull().references('emergency_links.id').onDelete('cascade'))
        .addColumn('emergency_contact_id', 'integer', (c) => c.notNull().references('emergency_contacts.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('emergency_link_contacts_pk', ['link_id', 'emergency_contact_id'])
        .execute();
      await db.schema.createIndex('emergency_link_contacts_contact').on('emergency_link_contacts').column('emergency_contact_id').execute();
    },
  };
}
