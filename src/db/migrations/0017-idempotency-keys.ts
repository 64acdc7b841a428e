import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Safe retries (docs/offline-and-live.md): a create sent with `Idempotency-Key` is performed once per key
// and account within 24 hours. The row is inserted in the create's own transaction (so the key
// and the object commit together, or neither), its answer stored right after the commit for
// replays. The primary key makes concurrent retries wait for the first and then find it.
export function idempotencyKeysMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('key', 'varchar(255)', (c) => c.notNull())
        // SHA-256 of the method, path and body: the same key with another request is refused.
        .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // The first answer, stored once the create has committed (null until then).
        .addColumn('status', 'integer')
        .addColumn('body', 'text')
        .addColumn('location', 'text')
        .addPrimaryKeyConstraint('idempotency_keys_pkey', ['account_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
    },
  };
}
