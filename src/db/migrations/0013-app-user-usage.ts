import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// What an app user holds as a whole (docs/app-data.md's account-wide bounds): its items, its list
// entries and the bytes of its media, on the app user's row. A create counts what it adds in
// the write kernel's data-version bump, the one UPDATE of that row it makes anyway
// (app-data/kernel/owned-write.ts; on PostgreSQL the list item function below), which returns the
// totals for the check: a trigger per inserted row cost a list item create a quarter more CPU
// on SQLite. Removals are counted by triggers, since cascades (an item, a topic, a profile, an
// app user deleted) remove rows that no code lists.
//
// The rows are found by account (one app user per account, `app_users_account_key`), since
// items and entries carry their account but not their app user. PostgreSQL counts once per
// statement (transition tables): a cascade of 1,000 entries is one UPDATE, not 1,000. SQLite
// has only row triggers.
const COUNTED: Array<{ table: string; column: string; amount: string }> = [
  { table: 'items', column: 'item_count', amount: '1' },
  { table: 'list_entries', column: 'entry_count', amount: '1' },
  { table: 'media_resources', column: 'media_bytes', amount: 'size' },
];

export function appUserUsageMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const { table, column, amount } of COUNTED) {
        await db.schema
          .alterTable('app_users')
          .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
        const total = amount === '1' ? 'COUNT(*)' : `COALESCE(SUM(${amount}), 0)`;
        await sql
          .raw(`UPDATE app_users SET ${column} = (SELECT ${total} FROM ${table} WHERE ${table}.account_id = app_users.account_id)`)
          .execute(db);
        if (dialect === 'sqlite') await sqliteTriggers(db, table, column, amount);
        else await postgresTriggers(db, table, column, amount);
      }
      if (dialect === 'postgres') await boundedListItemFunction(db);
    },
  };
}

// create_list_items (migration 0012) with the account-wide bounds, checked after the topic's
// quota as the transaction path does (item-service.ts): the bump counts the create in the app
// user's totals and returns them (earlier creates of the same call included), and a refused
// create takes its count back. A new overload: the six-argument form stays for instances of
// the previous build during a rolling upgrade (their creates go uncounted until replaced).
async function boundedListItemFunction(db: Kysely<any>): Promise<void> {
  await sql.raw(listItemFunction({ logged: false })).execute(db);
}

/** The setting create_list_items turns on while it writes rows whose changes it logs itself. */
export const CHANGES_WRITTEN = 'profile_service.changes_written';

/** The setting create_list_items turns on while it writes items whose topics it keeps itself (migration 0039). */
export const TOPICS_WRITTEN = 'profile_service.topics_written';

/**
 * The CREATE statement of create_list_items. `logged`: it writes the change log's rows of its
 * creates itself (migration 0023), in one insert at the end, with the tables' row triggers told
 * to skip them. `activity` (migration 0036, which implies `logged`): the ten-argument form,
 * which also writes an accessor's create in its owner's activity log (p_readers: the accessor's
 * account, null for the owner's own; p_at: when). `vias` (migration 0038, which implies `activity`):
 * the eleven-argument form, which also takes how each create came (p_vias: 'api' or 'web'), where
 * the ten-argument form records every one as 'api'. `topics` (migration 0039): it keeps its
 * creates' topics itself, their item_count (migration 0006) and rendered_version (migration 0034)
 * in the one update that also reads the count for the quota, with the insert triggers of items
 * and list entries told to skip them. `eventsWhenAny` (migration 0042, with `activity`): the
 * activity log's insert runs only when a create was an accessor's.
 */
export function listItemFunction({
  logged,
  activity = false,
  vias = false,
  topics = false,
  eventsWhenAny = false,
  itemStamps = false,
  parents = false,
}: {
  logged: boolean;
  activity?: boolean;
  vias?: boolean;
  topics?: boolean;
  eventsWhenAny?: boolean;
  /** With `topics`: each new item stamped with the version its topic is (migration 0043). */
  itemStamps?: boolean;
  /** With `activity`: each event names the item's topic, its id and name then (migration 0046). */
  parents?: boolean;
}): string {
  // How each accessor's create came: the eleven-argument form's own, else 'api'.
  const via = vias
    ? {
        declared: `\n      v_read_vias text[] := '{}';`,
        kept: `\n            v_read_vias := v_read_vias || p_vias[i];`,
        unnested: ', v_read_vias',
        alias: 'via, ',
        column: 'r.via',
      }
    : { declared: '', kept: '', unnested: '', alias: '', column: "'api'" };
  // The topic's count read for the quota: with `topics`, by the update that counts the create in it
  // and stamps it with its app user's version after the create (what the triggers would do), taken
  // back but for the stamp when the create is refused (a stamp moved needlessly costs only a
  // re-rendering of the topic).
  const topic = topics
    ? {
        declared: `\n      v_version integer;`,
        begin: `\n      PERFORM set_config('${TOPICS_WRITTEN}', 'on', true);`,
        returned: ', data_version',
        into: ', v_version',
        counted: `UPDATE topics SET item_count = item_count + 1, rendered_version = greatest(rendered_version, v_version)
            WHERE topics.id = p_topic_ids[i] RETURNING item_count - 1 INTO v_count;`,
        undone: `\n          IF v_count IS NOT NULL THEN UPDATE topics SET item_count = item_count - 1 WHERE id = p_topic_ids[i]; END IF;`,
        end: `\n      PERFORM set_config('${TOPICS_WRITTEN}', 'off', true);`,
      }
    : {
        declared: '',
        begin: '',
        returned: '',
        into: '',
        counted: 'SELECT topics.item_count INTO v_count FROM topics WHERE topics.id = p_topic_ids[i];',
        undone: '',
        end: '',
      };
  return `CREATE OR REPLACE FUNCTION create_list_items(
      p_account_ids integer[], p_topic_ids integer[], p_names text[], p_entry_counts integer[], p_texts text[],
      p_quota integer, p_max_items bigint, p_max_entries bigint${activity ? ', p_readers integer[], p_at bigint' : ''}${vias ? ', p_vias text[]' : ''})
    RETURNS TABLE (o_index integer, o_outcome text, o_item_id integer, o_list_content_id integer, o_entry_ids integer[])
    LANGUAGE plpgsql AS $$
    DECLARE
      v_app_user_id integer;
      v_items bigint;
      v_entries bigint;
      v_count integer;
      v_first integer := 1;
      v_texts text[];${topic.declared}${
        logged
          ? `
      v_log_app_users integer[] := '{}';
      v_log_accounts integer[] := '{}';
      v_log_types text[] := '{}';
      v_log_ids integer[] := '{}';`
          : ''
      }${
        activity
          ? `
      v_read_app_users integer[] := '{}';
      v_read_owners integer[] := '{}';
      v_read_readers integer[] := '{}';
      v_read_items integer[] := '{}';
      v_read_names text[] := '{}';${via.declared}`
          : ''
      }
    BEGIN${
      logged
        ? `
      PERFORM set_config('${CHANGES_WRITTEN}', 'on', true);`
        : ''
    }${topic.begin}
      FOR i IN 1 .. coalesce(array_length(p_account_ids, 1), 0) LOOP
        o_index := i;
        o_item_id := NULL;
        o_list_content_id := NULL;
        o_entry_ids := NULL;
        v_texts := p_texts[v_first : v_first + p_entry_counts[i] - 1];
        v_first := v_first + p_entry_counts[i];
        v_app_user_id := NULL;
        UPDATE app_users
          SET data_version = data_version + 1, item_count = item_count + 1, entry_count = entry_count + p_entry_counts[i]
          WHERE id = (SELECT profiles.app_user_id FROM topics JOIN profiles ON profiles.id = topics.profile_id
                      WHERE topics.id = p_topic_ids[i] AND topics.account_id = p_account_ids[i])
          RETURNING id, item_count, entry_count${topic.returned} INTO v_app_user_id, v_items, v_entries${topic.into};
        v_count := NULL;
        IF v_app_user_id IS NOT NULL THEN
          ${topic.counted}
        END IF;
        IF v_count IS NULL THEN
          o_outcome := 'not_found';
        ELSIF v_count + 1 > p_quota THEN
          o_outcome := 'over_quota';
        ELSIF v_items > p_max_items THEN
          o_outcome := 'over_account_items';
        ELSIF v_entries > p_max_entries THEN
          o_outcome := 'over_account_entries';
        ELSE
          ${
            itemStamps
              ? `INSERT INTO items (account_id, topic_id, name, rendered_version)
            VALUES (p_account_ids[i], p_topic_ids[i], p_names[i], v_version)`
              : 'INSERT INTO items (account_id, topic_id, name) VALUES (p_account_ids[i], p_topic_ids[i], p_names[i])'
          }
            RETURNING id INTO o_item_id;
          INSERT INTO list_contents (account_id, item_id) VALUES (p_account_ids[i], o_item_id)
            RETURNING id INTO o_list_content_id;
          WITH inserted AS (
            INSERT INTO list_entries (account_id, list_content_id, text)
              SELECT p_account_ids[i], o_list_content_id, t.text
              FROM unnest(v_texts) WITH ORDINALITY AS t(text, n) ORDER BY t.n
              RETURNING id)
          SELECT coalesce(array_agg(inserted.id ORDER BY inserted.id), '{}') INTO o_entry_ids FROM inserted;
          o_outcome := 'created';${
            logged
              ? `
          v_log_app_users := v_log_app_users || array_fill(v_app_user_id, ARRAY[1 + cardinality(o_entry_ids)]);
          v_log_accounts := v_log_accounts || array_fill(p_account_ids[i], ARRAY[1 + cardinality(o_entry_ids)]);
          v_log_types := v_log_types || 'item'::text || array_fill('list_entry'::text, ARRAY[cardinality(o_entry_ids)]);
          v_log_ids := v_log_ids || o_item_id || o_entry_ids;`
              : ''
          }${
            activity
              ? `
          IF p_readers[i] IS NOT NULL THEN
            v_read_app_users := v_read_app_users || v_app_user_id;
            v_read_owners := v_read_owners || p_account_ids[i];
            v_read_readers := v_read_readers || p_readers[i];
            v_read_items := v_read_items || o_item_id;
            v_read_names := v_read_names || p_names[i];${via.kept}
          END IF;`
              : ''
          }
        END IF;
        IF v_app_user_id IS NOT NULL AND o_outcome <> 'created' THEN
          UPDATE app_users SET item_count = item_count - 1, entry_count = entry_count - p_entry_counts[i] WHERE id = v_app_user_id;${topic.undone}
        END IF;
        RETURN NEXT;
      END LOOP;${
        logged
          ? `
      INSERT INTO changes (app_user_id, account_id, type, object_id, op, profile_id, in_private, created_at)
        SELECT l.app_user_id, l.account_id, l.type, l.object_id, 'upsert', NULL, NULL, (extract(epoch from now()) * 1000)::bigint
        FROM unnest(v_log_app_users, v_log_accounts, v_log_types, v_log_ids) WITH ORDINALITY AS l(app_user_id, account_id, type, object_id, n)
        ORDER BY l.n;
      PERFORM set_config('${CHANGES_WRITTEN}', 'off', true);`
          : ''
      }${
        activity
          ? `${eventsWhenAny ? '\n      IF cardinality(v_read_app_users) > 0 THEN' : ''}
      INSERT INTO activity_events (account_id, app_user_id, at, actor_kind, actor_id, actor_name, action, object_type, object_id, object_name, via${parents ? ', parent_id, parent_name' : ''})
        SELECT r.owner, r.app_user_id, p_at, 'accessor', r.reader,
          (SELECT trim(first_name || ' ' || last_name) FROM accounts WHERE accounts.id = r.reader),
          'created', 'item', r.item_id, r.name, ${via.column}${
            parents
              ? `,
          (SELECT topic_id FROM items WHERE items.id = r.item_id),
          (SELECT t.name FROM items i JOIN topics t ON t.id = i.topic_id WHERE i.id = r.item_id)`
              : ''
          }
        FROM unnest(v_read_app_users, v_read_owners, v_read_readers, v_read_items, v_read_names${via.unnested}) WITH ORDINALITY
          AS r(app_user_id, owner, reader, item_id, name, ${via.alias}n)
        ORDER BY r.n;${eventsWhenAny ? '\n      END IF;' : ''}`
          : ''
      }${topic.end}
    END $$`;
}

async function sqliteTriggers(db: Kysely<any>, table: string, column: string, amount: string): Promise<void> {
  const of = amount === '1' ? '1' : `OLD.${amount}`;
  await sql
    .raw(`CREATE TRIGGER ${table}_used_delete AFTER DELETE ON ${table}
      BEGIN UPDATE app_users SET ${column} = ${column} - ${of} WHERE account_id = OLD.account_id; END`)
    .execute(db);
}

async function postgresTriggers(db: Kysely<any>, table: string, column: string, amount: string): Promise<void> {
  const total = amount === '1' ? 'COUNT(*)' : `SUM(${amount})`;
  const fn = `${table}_used_delete`;
  await sql
    .raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE app_users SET ${column} = ${column} - removed.amount
          FROM (SELECT account_id, ${total} AS amount FROM removed_rows GROUP BY account_id) AS removed
          WHERE app_users.account_id = removed.account_id;
        RETURN NULL;
      END $$`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER ${fn} AFTER DELETE ON ${table} REFERENCING OLD TABLE AS removed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`)
    .execute(db);
}
