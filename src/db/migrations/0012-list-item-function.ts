import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// PostgreSQL: list item creates — the busiest write — as one function call for all those
// that arrive together (app-data/list-item-creates.ts gathers them): one round trip and one
// durable commit for the lot, where each used to take a transaction of seven statements, each
// a network wait holding a pooled connection, and a WAL flush of its own. Each create takes
// the steps of every owned write (app-data/kernel/owned-write.ts), in the same order:
//
//   1. the app user's data version bumped, found through the caller's topic ('not_found'
//      when the topic is not the caller's). The UPDATE locks the app user's row until commit,
//      so this app user's writes queue behind each other;
//   2. the topic's item count read after that lock, in a statement of its own (a PL/pgSQL
//      statement takes a fresh snapshot; earlier creates of the same call are this
//      transaction's own rows), so it sees every item committed or created before: the quota
//      is exact ('over_quota');
//   3. the item, its list, and its entries in order (ids rise in the order of the texts).
//
// The caller sorts the creates by account, so every call takes the app users' locks in the
// same order and two calls cannot deadlock each other. Once the app user is locked and the
// topic seen, nothing can remove the topic before the commit (every delete above an item
// bumps or deletes the same app user row first), so no create fails on a foreign key; if one
// ever did, the whole call fails and the caller runs it again, when the topic is 'not_found'.
//
// The entries of create i are p_texts[first .. first + p_entry_counts[i] - 1], one flat array
// (PostgreSQL's arrays of arrays must be rectangular). SQLite runs in the service's process,
// where a round trip costs nothing: it keeps the transaction path (item-service.ts).
export function listItemFunctionMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE FUNCTION create_list_items(
          p_account_ids integer[], p_topic_ids integer[], p_names text[], p_entry_counts integer[], p_texts text[],
          p_quota integer)
        RETURNS TABLE (o_index integer, o_outcome text, o_item_id integer, o_list_content_id integer, o_entry_ids integer[])
        LANGUAGE plpgsql AS $$
        DECLARE
          v_app_user_id integer;
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
              RETURNING id INTO v_app_user_id;
            -- A topic deleted while this call waited for the app user's lock: the same 404.
            v_count := NULL;
            IF v_app_user_id IS NOT NULL THEN
              SELECT topics.item_count INTO v_count FROM topics WHERE topics.id = p_topic_ids[i];
            END IF;
            IF v_count IS NULL THEN
              o_outcome := 'not_found';
            ELSIF v_count + 1 > p_quota THEN
              o_outcome := 'over_quota';
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
    },
  };
}
