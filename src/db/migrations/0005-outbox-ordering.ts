import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Outbox rows that share an ordering key are delivered one after another, in id order: a
// mailing-list job waiting for a retry holds back the later jobs of the same account, so an
// address change and a name change reach the list in the order they happened.
export function outboxOrderingMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('outbox').addColumn('ordering_key', 'varchar(64)').execute();
      await db.schema
        .createIndex('outbox_pending_ordering')
        .on('outbox')
        .columns(['ordering_key', 'id'])
        .where(sql.ref('state'), '=', 'pending')
        .execute();
    },
  };
}
