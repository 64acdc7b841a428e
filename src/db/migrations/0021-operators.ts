import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// Operators (docs/operators.md).
// - accounts.is_operator: the role, given and taken back from the command line only.
// - accounts.disabled_at: when an operator disabled the account (null: not disabled). A
//   disabled account's tokens are deleted as it is disabled, and no way in issues a new one.
// - accounts.last_sign_in_at: the last token issued by a way in (password, second step,
//   passkey); filled from the tokens still there, so it starts out as good as they are.
// - operator_audit: every operator action, by the API or the CLI, kept a year (the sweeper).
//   The operator's id is kept without a foreign key: the record outlives the operator's
//   account, and so does the acted-on account's id (a deletion is recorded too).
export function operatorsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('accounts')
        .addColumn('is_operator', 'smallint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('accounts').addColumn('disabled_at', 'bigint').execute();
      await db.schema.alterTable('accounts').addColumn('last_sign_in_at', 'bigint').execute();
      await sql`update accounts set last_sign_in_at = (select max(t.created_at) from auth_tokens t where t.account_id = accounts.id)`.execute(
        db,
      );

      await withId(db.schema.createTable('operator_audit'), dialect)
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('via', 'varchar(10)', (c) => c.notNull())
        .addColumn('operator_account_id', 'integer')
        .addColumn('action', 'varchar(40)', (c) => c.notNull())
        .addColumn('account_id', 'integer')
        .addColumn('reason', 'varchar(500)')
        .execute();
      await db.schema.createIndex('operator_audit_at').on('operator_audit').column('at').execute();
    },
  };
}
