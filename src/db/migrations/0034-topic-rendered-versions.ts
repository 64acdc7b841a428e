import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Each topic carries `rendered_version`: its app user's data version when what a topic's
// rendering shows last changed (its items with their contents, media and list entries; not its
// own name or type, which a profile's detail renders from the topic's row each time). Kept by
// triggers in the transaction of every such change, whatever makes it (the API, the list-item
// function, a cascade, a media rename), so that a read of a profile re-renders only the topics
// whose number moved (src/app-data/views/profile-rendering.ts).
//
// The value is the app user's data version, not a counter of its own: every write bumps that
// version before it writes (app-data/kernel/owned-write.ts, the list-item function), so a change
// always sets a number greater than any the app user's topics carried before, and a read can ask
// for "the topics changed since the version my last rendering was made at" in the same
// statement. Setting it only when it is lower keeps a write of many rows to one update of the
// topic. SQLite: a row trigger per change; PostgreSQL: a statement trigger per change with its
// transition table (a list item created with its entries inserts them in one statement).

/** The data version of the app user holding the topic row `t`. */
const versionOf = (t: string) =>
  `(SELECT a.data_version FROM profiles p JOIN app_users a ON a.id = p.app_user_id WHERE p.id = ${t}.profile_id)`;

/** Sets the stamp of the topics `ids` (an SQL list or subquery) to their app user's version. */
export const stampSqlite = (ids: string) =>
  `UPDATE topics SET rendered_version = ${versionOf('topics')} WHERE id IN (${ids}) AND rendered_version < ${versionOf('topics')};`;

const stampPostgres = (ids: string) =>
  `UPDATE topics t SET rendered_version = a.data_version FROM profiles p JOIN app_users a ON a.id = p.app_user_id
    WHERE p.id = t.profile_id AND t.id IN (${ids}) AND t.rendered_version < a.data_version;`;

/**
 * The topics of the changed rows of each table: `row` is NEW or OLD (SQLite's row trigger), or,
 * with `from` (a PostgreSQL transition table), the alias of its rows.
 */
export const TOPIC_OF: Record<string, (row: string, from?: string) => string> = {
  items: (r, from) => `SELECT ${r}.topic_id${from ? ` FROM ${from} ${r}` : ''}`,
  image_contents: (r, from) =>
    from
      ? `SELECT i.topic_id FROM ${from} ${r} JOIN items i ON i.id = ${r}.item_id`
      : `SELECT i.topic_id FROM items i WHERE i.id = ${r}.item_id`,
  list_entries: (r, from) =>
    from
      ? `SELECT i.topic_id FROM ${from} ${r} JOIN list_contents lc ON lc.id = ${r}.list_content_id JOIN items i ON i.id = lc.item_id`
      : `SELECT i.topic_id FROM list_contents lc JOIN items i ON i.id = lc.item_id WHERE lc.id = ${r}.list_content_id`,
  media_resources: (r, from) =>
    from
      ? `SELECT i.topic_id FROM ${from} ${r} JOIN image_contents ic ON ic.image_resource_id = ${r}.id OR ic.media_resource_id = ${r}.id JOIN items i ON i.id = ic.item_id`
      : `SELECT i.topic_id FROM image_contents ic JOIN items i ON i.id = ic.item_id WHERE ic.image_resource_id = ${r}.id OR ic.media_resource_id = ${r}.id`,
};

/** The columns whose update changes a rendering (SQLite's `UPDATE OF`; PostgreSQL's statement triggers take every update). */
export const UPDATED: Record<string, string> = {
  items: 'name, topic_id',
  image_contents: 'description, image_resource_id, media_resource_id, item_id',
  list_entries: 'text, list_content_id',
  media_resources: 'name, storage_key, content_type, size',
};

/** Tables whose inserts and deletes change a rendering (a media resource is shown only once an image content names it). */
const INSERTS_AND_DELETES = ['items', 'image_contents', 'list_entries'];

export const RENDERED_TRIGGERS = Object.keys(TOPIC_OF).flatMap((table) =>
  (INSERTS_AND_DELETES.includes(table) ? ['insert', 'update', 'delete'] : ['update']).map((event) => ({ table, event })),
);

export function topicRenderedVersionsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('topics')
        .addColumn('rendered_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      for (const { table, event } of RENDERED_TRIGGERS) {
        const name = `rendered_${table}_${event}`;
        const topicOf = TOPIC_OF[table]!;
        if (dialect === 'sqlite') {
          const rows = event === 'insert' ? ['NEW'] : event === 'delete' ? ['OLD'] : ['OLD', 'NEW'];
          const ids = rows.map((r) => topicOf(r)).join(' UNION ');
          const on = event === 'update' ? `UPDATE OF ${UPDATED[table]}` : event.toUpperCase();
          await sql.raw(`CREATE TRIGGER ${name} AFTER ${on} ON ${table} BEGIN ${stampSqlite(ids)} END`).execute(db);
          continue;
        }
        const tables = event === 'insert' ? ['new_rows'] : event === 'delete' ? ['old_rows'] : ['old_rows', 'new_rows'];
        const ids = tables.map((t) => topicOf('r', t)).join(' UNION ');
        const referencing = tables.map((t) => (t === 'new_rows' ? 'NEW TABLE AS new_rows' : 'OLD TABLE AS old_rows')).join(' ');
        await sql
          .raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${stampPostgres(ids)} RETURN NULL; END $$`)
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
          )
          .execute(db);
      }
    },
  };
}
