import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The account an outbox message carries data of (its address, names), so deleting the account
// deletes its messages too (docs/accounts.md). No foreign key: the last messages about a deleted
// account (its "account deleted" notice, its list member's removal) outlive it, unattributed.
export function outboxAccountsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('outbox').addColumn('account_id', 'integer').execute();
      await db.schema.createIndex('outbox_account').on('outbox').column('account_id').execute();
    },
  };
}
