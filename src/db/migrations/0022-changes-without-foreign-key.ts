import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// PostgreSQL: the change log (0019) without its foreign key, and with 64-bit ids.
// - PostgreSQL checks a foreign key with a query of its own for every inserted row; the log's
//   rows are written only by triggers that read the app user in the same statement, so the
//   check found nothing and cost about 30 µs of the database's CPU per item create (4 rows).
//   The app user's deletion now deletes its changes by trigger. SQLite keeps the key: its check
//   is an index probe inside the insert, and cost nothing measurable.
// - Ids as bigint: a busy deployment writes more than 2^31 changes over its life (they are
//   swept, but ids are not reused).
export function changesWithoutForeignKeyMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`ALTER TABLE changes DROP CONSTRAINT changes_app_user_id_fkey`.execute(db);
      await sql`ALTER TABLE changes ALTER COLUMN id TYPE bigint`.execute(db);
      await sql`CREATE FUNCTION forget_app_user_changes() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN DELETE FROM changes WHERE app_user_id = OLD.id; RETURN NULL; END $$`.execute(db);
      await sql`CREATE TRIGGER forget_app_user_changes AFTER DELETE ON app_users
        FOR EACH ROW EXECUTE FUNCTION forget_app_user_changes()`.execute(db);
    },
  };
}
