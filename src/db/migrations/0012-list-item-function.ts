import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// PostgreSQL: a list item create — the busiest write — as one function call, so that it is
// one round trip to the database instead of seven (BEGIN, the version bump, the quota count,
// three inserts, COMMIT), each a network wait holding a pooled connection. The steps are
// those of every owned write (app-data/owned-write.ts), in the same order, so the locks are
// taken in the same order as elsewhere:
//
//   1. the app user's data version bumped, found through the caller's topic (nothing is
//      returned when the topic is not the caller's: the 404). The UPDATE locks the app user's
//      row until commit, so this app user's writes queue behind each other;
//   2. the topic's item count read after that lock, in a statement of its own (a PL/pgSQL
//      statement takes a fresh snapshot), so it sees every item committed before: the quota
//      is exact, as in the transaction path. Over the quota: SQLSTATE PSQ01, which rolls the
//      bump back;
//   3. the item, its list, and its entries in order (ids rise in the order of the texts).
//
// SQLite runs in the service's process, where a round trip costs nothing: it keeps the
// transaction path (item-service.ts).
export function listItemFunctionMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE FUNCTION create_list_item(
          p_account_id integer, p_topic_id integer, p_name text, p_texts text[], p_quota integer)
        RETURNS TABLE (o_item_id integer, o_list_content_id integer, o_entry_ids integer[])
        LANGUAGE plpgsql AS $$
        DECLARE
          v_app_user_id integer;
          v_count integer;
        BEGIN
          UPDATE app_users SET data_version = data_version + 1
            WHERE id = (SELECT profiles.app_user_id FROM topics JOIN profiles ON profiles.id = topics.profile_id
                        WHERE topics.id = p_topic_id AND topics.account_id = p_account_id)
            RETURNING id INTO v_app_user_id;
          IF v_app_user_id IS NULL THEN RETURN; END IF;
          SELECT topics.item_count INTO v_count FROM topics WHERE topics.id = p_topic_id;
          -- Deleted while this call waited for the app user's lock: the same 404.
          IF v_count IS NULL THEN RETURN; END IF;
          IF v_count + 1 > p_quota THEN
            RAISE EXCEPTION 'items per topic over the quota' USING ERRCODE = 'PSQ01';
          END IF;
          INSERT INTO items (account_id, topic_id, name) VALUES (p_account_id, p_topic_id, p_name)
            RETURNING id INTO o_item_id;
          INSERT INTO list_contents (account_id, item_id) VALUES (p_account_id, o_item_id)
            RETURNING id INTO o_list_content_id;
          WITH inserted AS (
            INSERT INTO list_entries (account_id, list_content_id, text)
              SELECT p_account_id, o_list_content_id, t.text FROM unnest(p_texts) WITH ORDINALITY AS t(text, n) ORDER BY t.n
              RETURNING id)
          SELECT coalesce(array_agg(inserted.id ORDER BY inserted.id), '{}') INTO o_entry_ids FROM inserted;
          RETURN NEXT;
        END $$`.execute(db);
    },
  };
}
