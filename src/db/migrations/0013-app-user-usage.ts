import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// What an app user holds as a whole (contract §5's account-wide bounds): its items, its list
// entries and the bytes of its media, kept on the app user's row by triggers whatever writes
// them (the API, the seeder, cascades), so a create checks the bounds by reading three numbers
// the write kernel's data-version bump returns anyway, instead of counting up to 100,000 rows.
//
// The rows are found by account (one app user per account, `app_users_account_key`), since
// items and entries carry their account but not their app user. PostgreSQL counts once per
// statement (transition tables): a list of 1,000 entries is one UPDATE, not 1,000. SQLite has
// only row triggers; in its own process each is an indexed update of a row already in cache.
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
// quota as the transaction path does (item-service.ts): the bump's RETURNING reads the app
// user's row as this transaction left it, earlier creates of the same call included. A new
// overload: the six-argument form stays for instances of the previous build during a rolling
// upgrade.
async function boundedListItemFunction(db: Kysely<any>): Promise<void> {
  await sql`CREATE FUNCTION create_list_items(
      p_account_ids integer[], p_topic_ids integer[], p_names text[], p_entry_counts integer[], p_texts text[],
      p_quota integer, p_max_items bigint, p_max_entries bigint)
    RETURNS TABLE (o_index integer, o_outcome text, o_item_id integer, o_list_content_id integer, o_entry_ids integer[])
    LANGUAGE plpgsql AS $$
    DECLARE
      v_app_user_id integer;
      v_items bigint;
      v_entries bigint;
      v_count integer;
      v_first integer := 1;
      v_texts text[];
    BEGIN
      FOR i IN 1 .. coalesce(array_length(p_account_ids, 1), 0) LOOP
        o_index := i;
        o_item_id := NULL;
        o_list_content_id := NULL;
        o_entry_ids := NULL;
        v_texts := p_texts[v_first : v_first + p_entry_counts[i] - 1];
        v_first := v_first + p_entry_counts[i];
        v_app_user_id := NULL;
        UPDATE app_users SET data_version = data_version + 1
          WHERE id = (SELECT profiles.app_user_id FROM topics JOIN profiles ON profiles.id = topics.profile_id
                      WHERE topics.id = p_topic_ids[i] AND topics.account_id = p_account_ids[i])
          RETURNING id, item_count, entry_count INTO v_app_user_id, v_items, v_entries;
        v_count := NULL;
        IF v_app_user_id IS NOT NULL THEN
          SELECT topics.item_count INTO v_count FROM topics WHERE topics.id = p_topic_ids[i];
        END IF;
        IF v_count IS NULL THEN
          o_outcome := 'not_found';
        ELSIF v_count + 1 > p_quota THEN
          o_outcome := 'over_quota';
        ELSIF v_items + 1 > p_max_items THEN
          o_outcome := 'over_account_items';
        ELSIF v_entries + p_entry_counts[i] > p_max_entries THEN
          o_outcome := 'over_account_entries';
        ELSE
          INSERT INTO items (account_id, topic_id, name) VALUES (p_account_ids[i], p_topic_ids[i], p_names[i])
            RETURNING id INTO o_item_id;
          INSERT INTO list_contents (account_id, item_id) VALUES (p_account_ids[i], o_item_id)
            RETURNING id INTO o_list_content_id;
          WITH inserted AS (
            INSERT INTO list_entries (account_id, list_content_id, text)
              SELECT p_account_ids[i], o_list_content_id, t.text
              FROM unnest(v_texts) WITH ORDINALITY AS t(text, n) ORDER BY t.n
              RETURNING id)
          SELECT coalesce(array_agg(inserted.id ORDER BY inserted.id), '{}') INTO o_entry_ids FROM inserted;
          o_outcome := 'created';
        END IF;
        RETURN NEXT;
      END LOOP;
    END $$`.execute(db);
}

async function sqliteTriggers(db: Kysely<any>, table: string, column: string, amount: string): Promise<void> {
  const of = (row: string) => (amount === '1' ? '1' : `${row}.${amount}`);
  await sql
    .raw(`CREATE TRIGGER ${table}_used_insert AFTER INSERT ON ${table}
      BEGIN UPDATE app_users SET ${column} = ${column} + ${of('NEW')} WHERE account_id = NEW.account_id; END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER ${table}_used_delete AFTER DELETE ON ${table}
      BEGIN UPDATE app_users SET ${column} = ${column} - ${of('OLD')} WHERE account_id = OLD.account_id; END`)
    .execute(db);
}

async function postgresTriggers(db: Kysely<any>, table: string, column: string, amount: string): Promise<void> {
  const total = amount === '1' ? 'COUNT(*)' : `SUM(${amount})`;
  for (const [event, rows, sign] of [
    ['INSERT', 'NEW', '+'],
    ['DELETE', 'OLD', '-'],
  ] as const) {
    const fn = `${table}_used_${event.toLowerCase()}`;
    await sql
      .raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE app_users SET ${column} = ${column} ${sign} changed.amount
            FROM (SELECT account_id, ${total} AS amount FROM changed_rows GROUP BY account_id) AS changed
            WHERE app_users.account_id = changed.account_id;
          RETURN NULL;
        END $$`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER ${fn} AFTER ${event} ON ${table} REFERENCING ${rows} TABLE AS changed_rows
        FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`)
      .execute(db);
  }
}
