import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// - auth_tokens.sign_in_method: how each session was opened (password, password+totp,
//   passkey, provider, provider+totp, email_code), so that what asks for two factors — the
//   operators' routes — asks it of the session rather than of the account. Tokens issued
//   before this have none, and count as opened with one factor.
// - operator_audit.search: the text an operator's find searched for (finds are recorded too).
// - operator_audit.cli_user: who ran a command-line action, as `user@host`; null through the API.
export function signInMethodsAndAuditMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('auth_tokens').addColumn('sign_in_method', 'varchar(20)').execute();
      await db.schema.alterTable('operator_audit').addColumn('search', 'varchar(254)').execute();
      await db.schema.alterTable('operator_audit').addColumn('cli_user', 'varchar(300)').execute();
    },
  };
}
