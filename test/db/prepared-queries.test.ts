// The SQL of the hot path's prepared queries, as a reviewer reads it, checked on both
// dialects: the SQLite text as written here, and PostgreSQL's the same with numbered
// placeholders. A change to one of these queries shows up here as a changed expectation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { insertItemRow, insertListContentRow, selectItemCount, selectOwnedItem } from '../../src/app-data/item-queries.ts';
import { entryInsert, selectEntry, updateEntryText } from '../../src/app-data/list-entry-queries.ts';
import { selectOwnedTopic } from '../../src/app-data/topic-queries.ts';
import { bumpDataVersion, bumpTopicOwnersVersion } from '../../src/app-data/kernel/owned-write.ts';
import type { Database } from '../../src/db/schema.ts';

const sqlite = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
const postgres = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

type Rendered = { render(db: Kysely<Database>): { sql: string; parameters: readonly unknown[] } };

/** Query → its SQL (SQLite's placeholders) and its parameters (`:name` for named ones). */
/** The bump of the write kernel, which counts what a create adds in the app user's totals. */
const COUNTING_BUMP =
  'update "app_users" set "data_version" = data_version + 1, "item_count" = item_count + ?, "entry_count" = entry_count + ?, "media_bytes" = media_bytes + ?';

const EXPECTED: Array<[string, Rendered, string, unknown[]]> = [
  [
    "the caller's topic with its app user",
    selectOwnedTopic,
    'select "topics"."id", "topics"."name", "topics"."topic_type", "topics"."profile_id", ' +
      '(select "profiles"."app_user_id" from "profiles" where "profiles"."id" = "topics"."profile_id") as "app_user_id" ' +
      'from "topics" where "topics"."id" = ? and "topics"."account_id" = ?',
    [':id', ':accountId'],
  ],
  [
    "a topic's item count",
    selectItemCount,
    'select "item_count" from "topics" where "id" = ? and "account_id" = ?',
    [':topicId', ':accountId'],
  ],
  [
    'an item',
    insertItemRow,
    'insert into "items" ("account_id", "topic_id", "name") values (?, ?, ?) returning "id"',
    [':accountId', ':topicId', ':name'],
  ],
  [
    'a list content',
    insertListContentRow,
    'insert into "list_contents" ("account_id", "item_id") values (?, ?) returning "id"',
    [':accountId', ':itemId'],
  ],
  [
    'two list entries',
    entryInsert(2),
    'insert into "list_entries" ("account_id", "list_content_id", "text") values (?, ?, ?), (?, ?, ?) returning "id", "text"',
    [':accountId', ':listContentId', ':text0', ':accountId', ':listContentId', ':text1'],
  ],
  [
    "the caller's item with its app user and content",
    selectOwnedItem,
    'select "items"."id", "profiles"."app_user_id", "image_contents"."id" as "image_content_id", "list_contents"."id" as "list_content_id" ' +
      'from "items" inner join "topics" on "topics"."id" = "items"."topic_id" ' +
      'inner join "profiles" on "profiles"."id" = "topics"."profile_id" ' +
      'left join "image_contents" on "image_contents"."item_id" = "items"."id" ' +
      'left join "list_contents" on "list_contents"."item_id" = "items"."id" ' +
      'where "items"."id" = ? and "items"."account_id" = ?',
    [':id', ':accountId'],
  ],
  [
    "the caller's list entry with its app user",
    selectEntry,
    'select "list_entries"."id", "list_entries"."text", "profiles"."app_user_id" from "list_entries" ' +
      'inner join "list_contents" on "list_contents"."id" = "list_entries"."list_content_id" ' +
      'inner join "items" on "items"."id" = "list_contents"."item_id" ' +
      'inner join "topics" on "topics"."id" = "items"."topic_id" ' +
      'inner join "profiles" on "profiles"."id" = "topics"."profile_id" ' +
      'where "list_entries"."id" = ? and "list_entries"."account_id" = ?',
    [':id', ':accountId'],
  ],
  [
    "a list entry's text",
    updateEntryText,
    'update "list_entries" set "text" = ? where "id" = ? and "account_id" = ? returning "id", "text"',
    [':text', ':id', ':accountId'],
  ],
  [
    'the data version bump',
    bumpDataVersion,
    `${COUNTING_BUMP} where "id" = ? returning "data_version", "item_count", "entry_count", "media_bytes"`,
    [':items', ':entries', ':bytes', ':appUserId'],
  ],
  [
    'the data version bump through a topic',
    bumpTopicOwnersVersion,
    `${COUNTING_BUMP} where "id" = (select ` +
      '(select "profiles"."app_user_id" from "profiles" where "profiles"."id" = "topics"."profile_id") as "app_user_id" ' +
      'from "topics" where "topics"."id" = ? and "topics"."account_id" = ?) returning "id", "data_version", "item_count", "entry_count", "media_bytes"',
    [':items', ':entries', ':bytes', ':topicId', ':accountId'],
  ],
];

function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

describe('prepared queries on the hot path', () => {
  for (const [what, query, sql, parameters] of EXPECTED) {
    test(`${what}: SQLite and PostgreSQL`, () => {
      assert.deepEqual(query.render(sqlite), { sql, parameters });
      assert.deepEqual(query.render(postgres), { sql: numbered(sql), parameters });
    });
  }
});
