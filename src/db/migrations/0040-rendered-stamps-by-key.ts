import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { RENDERED_TRIGGERS, TOPIC_OF, UPDATED } from './0034-topic-rendered-versions.ts';

// The triggers that stamp topics' rendered_version (migrations 0034, 0037) reach the topic and
// the version by keys: the row's topic as one value (`id = (…)`) and the version from the app
// user of the row's own account (every row carries its owner's account_id; an account has one
// app user), where they read the topic set with `id IN (SELECT …)` and the version through the
// topic's profile. On SQLite `IN (SELECT …)` fills a temporary index at every firing: a list
// item create of three entries fires four of these triggers, and they cost it 8 µs of 50 in a
// loop of creates on one connection (better-sqlite3) and 14 % of its CPU under load (bench W3);
// by keys they cost about 3 µs. The stamps they set are the same. A media resource's rename still
// reaches every topic showing it with `IN`, as before: it may be shown in several.
//
// PostgreSQL keeps its triggers (0039 gave three of them a condition) and gets the same
// statements in their functions.

/** The data version of the app user holding the row `r` (NEW or OLD). */
const versionOf = (r: string) => `(SELECT data_version FROM app_users WHERE account_id = ${r}.account_id)`;

/** The one topic of the row `r`, for the tables whose rows are under one topic. */
const TOPIC_KEY: Record<string, ((r: string) => string) | undefined> = {
  items: (r) => `${r}.topic_id`,
  image_contents: (r) => `(SELECT topic_id FROM items WHERE id = ${r}.item_id)`,
  list_entries: (r) => `(SELECT i.topic_id FROM list_contents lc JOIN items i ON i.id = lc.item_id WHERE lc.id = ${r}.list_content_id)`,
};

/** Stamps the rows of `table` whose id matches `ids` (`= …` or `IN (…)`) with the version of the row `r`'s app user. */
export const stampRows = (table: 'topics' | 'items', ids: string, r: string) =>
  `UPDATE ${table} SET rendered_version = ${versionOf(r)} WHERE id ${ids} AND rendered_version < ${versionOf(r)};`;

/** The rows a row trigger on `event` sees: an update's old and new rows in turn. */
export const changedRows = (event: string): string[] => (event === 'insert' ? ['NEW'] : event === 'delete' ? ['OLD'] : ['OLD', 'NEW']);

/** The statements of a trigger: each changed row's topic stamped (an update's old and new rows in turn). */
export function stampStatements(table: string, event: string): string {
  const rows = changedRows(event);
  const key = TOPIC_KEY[table];
  if (key) return rows.map((r) => stampRows('topics', `= ${key(r)}`, r)).join(' ');
  return stampRows('topics', `IN (${rows.map((r) => TOPIC_OF[table]!(r)).join(' UNION ')})`, rows[0]!);
}

/**
 * Gives each rendered_* trigger the statements `bodyOf` makes: on SQLite the trigger made again,
 * on PostgreSQL its function replaced (the row trigger of migration 0037, with 0039's
 * conditions, stays).
 */
export async function replaceRenderedTriggers(
  db: Kysely<any>,
  dialect: Dialect,
  bodyOf: (table: string, event: string) => string,
): Promise<void> {
  for (const { table, event } of RENDERED_TRIGGERS) {
    const name = `rendered_${table}_${event}`;
    const body = bodyOf(table, event);
    if (dialect === 'sqlite') {
      const on = event === 'update' ? `UPDATE OF ${UPDATED[table]}` : event.toUpperCase();
      await sql.raw(`DROP TRIGGER ${name}`).execute(db);
      await sql.raw(`CREATE TRIGGER ${name} AFTER ${on} ON ${table} BEGIN ${body} END`).execute(db);
      continue;
    }
    await sql
      .raw(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`)
      .execute(db);
  }
}

export function renderedStampsByKeyMigration(dialect: Dialect): Migration {
  return {
    up: (db: Kysely<any>) => replaceRenderedTriggers(db, dialect, stampStatements),
  };
}
