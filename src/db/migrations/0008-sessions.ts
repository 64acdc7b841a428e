import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Each login token is a session (docs/accounts.md): where it was created from, as the person who
// lists their sessions needs to tell them apart. Tokens issued before this have neither.
export function sessionsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('auth_tokens').addColumn('user_agent', 'varchar(255)').execute();
      await db.schema.alterTable('auth_tokens').addColumn('ip_address', 'varchar(45)').execute();
    },
  };
}
