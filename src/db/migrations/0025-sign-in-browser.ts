import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// A provider's web flow and the one-time login code it ends in belong to the browser that
// started them: each keeps the hash of that browser's __Host- cookie (browser_hash), and the
// callback and POST /auth/login/code/ take them only with that cookie. Rows under way when
// this runs have none, and so are refused: they live minutes, and their owners start again.
export function signInBrowserMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('oidc_flows').addColumn('browser_hash', 'varchar(100)').execute();
      await db.schema.alterTable('login_codes').addColumn('browser_hash', 'varchar(100)').execute();
    },
  };
}
