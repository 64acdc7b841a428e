import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The abuse limits' counters, where several instances share them (docs/production.md): one row per
// key (e.g. a login's account and IP) and fixed window. Used on PostgreSQL; an SQLite service is
// one instance and counts in memory (auth/counter-store.ts), but the table exists on both.
export function rateCountersMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('rate_counters')
        .addColumn('name', 'varchar(400)', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('reset_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rate_counters_reset_at').on('rate_counters').column('reset_at').execute();
    },
  };
}
