import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// accounts.language (docs/accounts.md#language): the language the account's e-mails are written
// in, one of the catalogued languages (src/i18n/languages.ts). Every account that exists before
// it spoke English, so they get `en`; the default keeps it so for rows written without one (the
// seeder's bulk loads). Which language a new account gets is the service's rule, not the
// database's: it always writes one.
export function accountLanguageMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      // Both databases add a NOT NULL column with a default in place, filling existing rows from it.
      await db.schema
        .alterTable('accounts')
        .addColumn('language', 'varchar(8)', (c) => c.notNull().defaultTo('en'))
        .execute();
    },
  };
}
