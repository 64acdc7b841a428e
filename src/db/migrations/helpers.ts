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
