import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/** An integer primary key that the database numbers itself. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect): CreateTableBuilder<T, 'id'> {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity());
}

/** A row trigger: its name, `AFTER INSERT ON t`-style event, optional condition, and statements. */
export interface RowTrigger {
  name: string;
  on: string;
  when?: string;
  body: string;
}

/**
 * Creates row triggers, each the same statements on both databases: SQLite's inline, and on
 * PostgreSQL a function of the trigger's name that the trigger runs.
 */
export async function createRowTriggers(db: Kysely<any>, dialect: Dialect, triggers: readonly RowTrigger[]): Promise<void> {
  for (const trigger of triggers) {
    if (dialect === 'sqlite') {
      await sql
        .raw(`CREATE TRIGGER ${trigger.name} ${trigger.on}${trigger.when ? ` WHEN ${trigger.when}` : ''} BEGIN ${trigger.body} END`)
        .execute(db);
      continue;
    }
    await sql
      .raw(`CREATE FUNCTION ${trigger.name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${trigger.body} RETURN NULL; END $$`)
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${trigger.name} ${trigger.on} FOR EACH ROW${trigger.when ? ` WHEN (${trigger.when})` : ''} EXECUTE FUNCTION ${trigger.name}()`,
      )
      .execute(db);
  }
}

/** The time of the statement in epoch milliseconds, as a trigger on each database reads it. */
export const NOW_MS: Record<Dialect, string> = {
  sqlite: `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`,
  postgres: `(extract(epoch from now()) * 1000)::bigint`,
};

/** The change log's columns, in the order its triggers' `INSERT … SELECT`s give them. */
export const CHANGE_COLUMNS = 'app_user_id, account_id, type, object_id, op, profile_id, in_private, created_at';

/** A table whose rows are objects of a synced type (src/db/synced-types.ts): what its change-log triggers write. */
export interface LoggedTable {
  table: string;
  /** The synced type its rows are. */
  type: string;
  /** Columns whose update is a change of the object; null: any update. */
  updateOf: string[] | null;
  /** How a delete finds the app user, the profile and its privacy: FROM … (with `a` the app user), or null: deletes are not logged. */
  deleteFrom: string | null;
  /** A tombstone's profile and whether it was private (`p.id`, `p.is_private` from `deleteFrom`; `NULL` for what no profile holds). */
  profile: string;
  private: string;
}

/** An upsert of the `type` object `objectId`, for the app user `a` that `from` (FROM …) finds. */
export function logUpsert(dialect: Dialect, type: string, objectId: string, from: string, privateBefore = 'NULL'): string {
  return `INSERT INTO changes (${CHANGE_COLUMNS}) SELECT a.id, a.account_id, '${type}', ${objectId}, 'upsert', NULL, ${privateBefore}, ${NOW_MS[dialect]} FROM ${from};`;
}

/**
 * The change-log triggers of a table (docs/offline-and-live.md): `log_<table>_insert` and
 * `log_<table>_update` write an upsert, `log_<table>_delete` a tombstone. For createRowTriggers.
 */
export function changeLogTriggers(dialect: Dialect, t: LoggedTable): RowTrigger[] {
  const triggers: RowTrigger[] = [];
  const own = t.table === 'app_users' ? 'app_users a WHERE a.id = NEW.id' : 'app_users a WHERE a.account_id = NEW.account_id';
  // A profile's upsert keeps whether it was hidden just before: a new one was (it did not exist).
  const profile = t.table === 'profiles';
  triggers.push({
    name: `log_${t.table}_insert`,
    on: `AFTER INSERT ON ${t.table}`,
    body: logUpsert(dialect, t.type, 'NEW.id', own, profile ? '1' : 'NULL'),
  });
  triggers.push({
    name: `log_${t.table}_update`,
    on: `AFTER UPDATE${t.updateOf ? ` OF ${t.updateOf.join(', ')}` : ''} ON ${t.table}`,
    body: logUpsert(dialect, t.type, 'NEW.id', own, profile ? 'OLD.is_private' : 'NULL'),
  });
  if (t.deleteFrom) {
    triggers.push({
      name: `log_${t.table}_delete`,
      on: `AFTER DELETE ON ${t.table}`,
      body: `INSERT INTO changes (${CHANGE_COLUMNS}) SELECT a.id, a.account_id, '${t.type}', OLD.id, 'delete', ${t.profile}, ${t.private}, ${NOW_MS[dialect]} FROM ${t.deleteFrom};`,
    });
  }
  return triggers;
}
