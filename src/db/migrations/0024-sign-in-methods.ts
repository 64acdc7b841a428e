import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// How each session was opened (auth_tokens.sign_in_method: password, password+totp, passkey,
// provider, provider+totp, email_code), so that what asks for two factors — the operators'
// routes — asks it of the session rather than of the account. Tokens issued before this have
// none, and count as opened with one factor.
export function signInMethodsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('auth_tokens').addColumn('sign_in_method', 'varchar(20)').execute();
    },
  };
}
