// A profile's detail in one statement: the profile with what its app user holds, and, when
// that fits inline (tree-views.ts), its topics, its items and their list entries as three JSON
// arrays of the rows the per-level queries read, each row an array of its columns
// (db/json-tuples.ts). Every write makes the next read of a profile a rendering-cache miss, so
// this is the read that runs most after a hit: one round trip, and a named statement, planned
// once per connection (Db.executePrepared). The entries come as one array for the whole
// profile, not one per list item: a subquery per list item cost the database a fifth of the
// read.
//
// `since` narrows what is read to what changed: the topics whose rendered_version (migration
// 0034) is at or above it get the ids and stamps of their items (migration 0043), and only the
// items stamped at or above it come whole, with their list entries: a read after a write, with
// the other topics' and items' renderings kept (profile-rendering.ts), reads only what changed.
// At, not only above: a change made by hand before its data version was moved is stamped with
// the version the last rendering was made at. -1 reads every item whole.
//
// On SQLite the arrays come in whatever order the plan finds their rows (rowsOf puts them in id
// order: an ORDER BY inside an aggregate's subquery is no promise in SQL anyway); there it sorted
// each array in a temporary B-tree (a full tree's statement: 108 µs with them, 82 without), and
// the rows come mostly in id order. PostgreSQL's plan finds them in another order, and sorting
// them costs the service more than it costs the database (without the ORDER BY, W1u cost 1.07 ×
// its CPU per read).
//
// The statement also reads the app user's data version, which a rendering made from it is
// stamped with: read with the data, it is exactly what the data shows, and a read after a write
// (which made the version kept in memory stale on SQLite) needs no statement of its own for it.
import DataLoader from 'dataloader';
import { sql } from 'kysely';
import type { DataVersion } from '../../auth/data-version.ts';
import type { Db } from '../../db/database.ts';
import { jsonTuplesFrom, tuplesOf, type JsonTuples } from '../../db/json-tuples.ts';
import { namedStatement } from '../../db/prepared-query.ts';
import { entryRowsQuery, type Id, itemRowsQuery, type ItemRow, itemStampsQuery } from '../item-queries.ts';
import type { ListEntryRow } from '../list-entry-schemas.ts';
import type { ProfileRow } from '../profile-schemas.ts';
import { topicsQuery } from '../topic-queries.ts';
import type { TopicRow } from '../topic-schemas.ts';
import type { HeldCounts } from './tree-queries.ts';
import { PROFILE_WITH_HELD, profileWithHeldQuery } from './tree-queries.ts';
import { INLINE_ENTRIES, INLINE_ITEMS } from './tree-views.ts';

interface Params {
  accountId: number;
  id: number;
  since: number;
  inlineItems: number;
  inlineEntries: number;
}

/** The columns of each array, in order; each starts with the row's id. */
const TOPIC_COLUMNS = ['id', 'name', 'topic_type', 'rendered_version'] as const satisfies readonly (keyof StampedTopicRow)[];
const ITEM_COLUMNS = [
  'id',
  'topic_id',
  'name',
  'image_content_id',
  'description',
  'list_content_id',
  'image_media_id',
  'image_media_name',
  'image_media_storage_key',
  'image_media_content_type',
  'image_media_size',
  'content_media_id',
  'content_media_name',
  'content_media_storage_key',
  'content_media_content_type',
  'content_media_size',
] as const satisfies readonly (keyof ItemRow)[];
const ENTRY_COLUMNS = ['id', 'list_content_id', 'text'] as const;
const STAMP_COLUMNS = ['id', 'topic_id', 'rendered_version'] as const satisfies readonly (keyof ItemStamp)[];

/** The arrays of one profile: `profileId` and `accountId` its row's columns in a read of several. */
function treeArrays(db: Db, accountId: Id, profileId: Id, since: Id, inline: { items: Id; entries: Id }) {
  // The arrays are only built for an app user whose views fit inline; a one-time filter.
  const fits = sql<boolean>`"app_users"."item_count" <= ${inline.items} and "app_users"."entry_count" <= ${inline.entries}`;
  const scope = { profileId };
  const changed = sql<boolean>`"topics"."rendered_version" >= ${since}`;
  const itemChanged = sql<boolean>`"items"."rendered_version" >= ${since}`;
  const inAnyOrder = <Q extends { clearOrderBy(): Q }>(query: Q): Q => (db.dialect === 'sqlite' ? query.clearOrderBy() : query);
  return [
    jsonTuplesFrom(db.dialect, topicsQuery(db.kysely, accountId, scope).select('topics.rendered_version').where(fits), TOPIC_COLUMNS).as(
      'topics',
    ),
    jsonTuplesFrom(db.dialect, inAnyOrder(itemStampsQuery(db.kysely, accountId, scope).where(fits).where(changed)), STAMP_COLUMNS).as(
      'stamps',
    ),
    jsonTuplesFrom(
      db.dialect,
      inAnyOrder(itemRowsQuery(db.kysely, accountId, scope).where(fits).where(changed).where(itemChanged)),
      ITEM_COLUMNS,
    ).as('items'),
    jsonTuplesFrom(
      db.dialect,
      inAnyOrder(entryRowsQuery(db.kysely, accountId, scope).where(fits).where(changed).where(itemChanged)),
      ENTRY_COLUMNS,
    ).as('entries'),
  ] as const;
}

/** The app user's id and data version, which the tree's rendering is stamped with. */
const VERSION = ['app_users.id as app_user_id', 'app_users.data_version'] as const;

/**
 * One profile's tree (SQLite: in this process, where a read costs no round trip). Its bound
 * values are out of the planner's sight (db/sqlite-parameters.ts): it is planned once.
 */
export const selectProfileTree = namedStatement('profile_tree', (db, p: Params) => {
  const inline = { items: p.inlineItems, entries: p.inlineEntries };
  return profileWithHeldQuery(db.kysely, p.accountId, p.id)
    .select(VERSION)
    .select(treeArrays(db, p.accountId, p.id, p.since, inline));
});

/**
 * The trees of several profiles, each row numbered by its place in the lists (PostgreSQL: the
 * reads that arrive in one turn of the event loop share a round trip, as the token checks do).
 */
const selectProfileTrees = namedStatement(
  'profile_trees',
  (db, p: { accountIds: number[]; ids: number[]; sinces: number[]; inlineItems: number; inlineEntries: number }) =>
    db.kysely
      .selectFrom(
        sql<{
          account_id: number;
          id: number;
          since: number;
          n: number;
        }>`(select * from unnest(${p.accountIds}::int4[], ${p.ids}::int4[], ${p.sinces}::int4[])
          with ordinality as w(account_id, id, since, n))`.as('wanted'),
      )
      // Each profile found by its key (a lateral probe). Joined, the plan made once (costed for
      // ten ids) scanned every profile while they were few: a quarter of the database's time
      // for a one-profile read.
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('profiles')
            .selectAll()
            .whereRef('profiles.id', '=', 'wanted.id')
            .whereRef('profiles.account_id', '=', 'wanted.account_id')
            .limit(1)
            .as('profiles'),
        (join) => join.onTrue(),
      )
      .innerJoin('app_users', 'app_users.id', 'profiles.app_user_id')
      .select([sql<number>`wanted.n::int4`.as('n'), ...PROFILE_WITH_HELD, ...VERSION])
      .select(
        treeArrays(db, sql.ref<number>('profiles.account_id'), sql.ref<number>('profiles.id'), sql.ref<number>('wanted.since'), {
          items: p.inlineItems,
          entries: p.inlineEntries,
        }),
      ),
);

type TreeRow = Awaited<ReturnType<typeof selectProfileTree>>[number];

const INLINE = { inlineItems: INLINE_ITEMS, inlineEntries: INLINE_ENTRIES };

/** Trees read at most in one statement. */
const MAX_BATCH = 100;

const loaders = new WeakMap<Db, DataLoader<string, TreeRow | undefined>>();

function batchedReads(db: Db): DataLoader<string, TreeRow | undefined> {
  let loader = loaders.get(db);
  if (!loader) {
    loader = new DataLoader<string, TreeRow | undefined>(
      async (keys) => {
        const wanted = keys.map((key) => key.split(':').map(Number) as [number, number, number]);
        const found: (TreeRow | undefined)[] = new Array(keys.length).fill(undefined);
        const rows = await selectProfileTrees(db, {
          accountIds: wanted.map(([a]) => a),
          ids: wanted.map(([, id]) => id),
          sinces: wanted.map(([, , since]) => since),
          ...INLINE,
        });
        for (const { n, ...row } of rows) found[n - 1] = row;
        return found;
      },
      { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
    );
    loaders.set(db, loader);
  }
  return loader;
}

/**
 * The profile's row with its tree's arrays (the items and entries of the topics whose
 * rendered_version is at or above `since`; -1: all), or undefined when the account holds no such profile.
 */
export async function readProfileTree(db: Db, accountId: number, profileId: number, since = -1): Promise<TreeRow | undefined> {
  if (db.dialect === 'postgres') return batchedReads(db).load(`${accountId}:${profileId}:${since}`);
  return (await selectProfileTree(db, { accountId, id: profileId, since, ...INLINE }))[0];
}

/** An item row with its list entries (none for an image item). */
export interface TreeItemRow extends ItemRow {
  entries: ListEntryRow[];
}

/** An item of a changed topic: its id, its topic and the stamp of its rendering (migration 0043). */
export interface ItemStamp {
  id: number;
  topic_id: number;
  rendered_version: number;
}

/** A topic row with the stamp of its rendering (migration 0034). */
export interface StampedTopicRow extends TopicRow {
  rendered_version: number;
}

export interface ProfileTree {
  profile: ProfileRow & HeldCounts;
  /** The app user's data version, read with the tree. */
  version: DataVersion;
  topics: StampedTopicRow[];
  /** The items of the topics read (with `since`: of the changed topics), in id order. */
  stamps: ItemStamp[];
  /** The items read whole (with `since`: those stamped at or above it). */
  items: TreeItemRow[];
}

/**
 * Each array's rows built from its tuples, each column at its place in the array's columns above
 * (test/app-data/profile-tree.test.ts checks that they agree): one literal per kind, so every row
 * of a kind has one shape from the start, where setting the columns by name one by one sent each
 * row through a run of shapes in V8's runtime.
 */
const ROWS = {
  topics: (t: unknown[]): StampedTopicRow => ({
    id: t[0] as number,
    name: t[1] as string,
    topic_type: t[2] as number,
    rendered_version: t[3] as number,
  }),
  stamps: (t: unknown[]): ItemStamp => ({ id: t[0] as number, topic_id: t[1] as number, rendered_version: t[2] as number }),
  items: (t: unknown[]): TreeItemRow => ({
    id: t[0] as number,
    topic_id: t[1] as number,
    name: t[2] as string,
    image_content_id: t[3] as number | null,
    description: t[4] as string | null,
    list_content_id: t[5] as number | null,
    image_media_id: t[6] as number | null,
    image_media_name: t[7] as string | null,
    image_media_storage_key: t[8] as string | null,
    image_media_content_type: t[9] as string | null,
    image_media_size: t[10] as number | null,
    content_media_id: t[11] as number | null,
    content_media_name: t[12] as string | null,
    content_media_storage_key: t[13] as string | null,
    content_media_content_type: t[14] as string | null,
    content_media_size: t[15] as number | null,
    entries: NO_ENTRIES,
  }),
  entries: (t: unknown[]): EntryRow => ({ id: t[0] as number, list_content_id: t[1] as number, text: t[2] as string }),
} as const;

/** The columns each array's tuples carry, in order (for tests: `ROWS` must read them where they are). */
export const TREE_COLUMNS = { topics: TOPIC_COLUMNS, stamps: STAMP_COLUMNS, items: ITEM_COLUMNS, entries: ENTRY_COLUMNS } as const;

/** A row of each array, from a tuple (for tests). */
export const treeRow = <K extends keyof typeof ROWS>(kind: K, tuple: unknown[]): ReturnType<(typeof ROWS)[K]> =>
  ROWS[kind](tuple) as ReturnType<(typeof ROWS)[K]>;

const NO_ENTRIES: ListEntryRow[] = [];

interface EntryRow extends ListEntryRow {
  list_content_id: number;
}

/** Rows of `value`'s tuples, in id order (an aggregate's order is not promised by SQL). */
function rowsOf<T extends { id: number }>(value: JsonTuples | null, row: (tuple: unknown[]) => T): T[] {
  const rows = tuplesOf(value).map(row);
  for (let i = 1; i < rows.length; i++) {
    if (rows[i - 1]!.id > rows[i]!.id) return rows.sort((a, b) => a.id - b.id);
  }
  return rows;
}

/** The profile and, when its app user's views fit inline, its tree's rows. */
export function profileTree(row: TreeRow): ProfileTree {
  const { topics, stamps, items, entries, app_user_id, data_version, ...profile } = row;
  const entriesOf = new Map<number, ListEntryRow[]>();
  for (const entry of rowsOf(entries, ROWS.entries)) {
    const list = entriesOf.get(entry.list_content_id);
    const kept = { id: entry.id, text: entry.text };
    if (list) list.push(kept);
    else entriesOf.set(entry.list_content_id, [kept]);
  }
  const itemRows = rowsOf(items, ROWS.items);
  for (const item of itemRows) item.entries = (item.list_content_id !== null && entriesOf.get(item.list_content_id)) || [];
  return {
    profile,
    version: { appUserId: app_user_id, dataVersion: data_version },
    topics: rowsOf(topics, ROWS.topics),
    stamps: rowsOf(stamps, ROWS.stamps),
    items: itemRows,
  };
}
