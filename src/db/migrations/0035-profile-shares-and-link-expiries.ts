import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Accessors limited to some profiles (docs/sharing.md): an accessor that chose profiles
// (`profiles_chosen` = 1) sees only those listed in `accessor_profiles`, and what is under
// them, besides what the app user holds outside profiles. The rows cascade from the accessor
// and from the profile: a deleted profile leaves every list.
//
// An emergency link's expiry in its owner's activity log (docs/activity.md): the pass that
// records it claims the link by setting `expiry_recorded_at` where it is still null, so of several
// instances exactly one records it; a later `expires_at` clears it.
export function profileSharesAndLinkExpiriesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('accessors')
        .addColumn('profiles_chosen', 'smallint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('accessor_profiles')
        .addColumn('accessor_id', 'integer', (c) => c.notNull().references('accessors.id').onDelete('cascade'))
        .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('accessor_profiles_pk', ['accessor_id', 'profile_id'])
        .execute();
      await db.schema.createIndex('accessor_profiles_profile').on('accessor_profiles').column('profile_id').execute();
      await db.schema.alterTable('emergency_links').addColumn('expiry_recorded_at', 'bigint').execute();
      await db.schema.createIndex('emergency_links_expires_at').on('emergency_links').column('expires_at').execute();
    },
  };
}
