// Where a personal-data object sits: its owner's account, its app user, and whether it is
// private: in a private profile, or a media resource used only there. Only for callers who have
// grants (access.ts): the requests of a caller who holds none never run these. A read may locate
// with a query of its own that also fetches what it answers (item-queries.ts's `locateItem`).
import DataLoader from 'dataloader';
import { sql, type Expression, type ExpressionBuilder, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SyncedType } from '../../db/synced-types.ts';
import type { Db as ServiceDb } from '../../db/database.ts';
import { preparedQuery, type PreparedQuery } from '../../db/prepared-query.ts';

/** What a path's `{id}` may name: every synced type under the app user, and its emergency links (not synced). */
export type Kind = Exclude<SyncedType, 'app_user'> | 'emergency_link';

export interface Location {
  account_id: number;
  app_user_id: number;
  /**
   * 1 when the object is a private profile or lies under one, or is a media resource shown only
   * by image items in private profiles (`media_resources.in_private`, kept by triggers).
   */
  in_private: number;
  /** The profile it is or lies under; null for what the app user holds outside profiles (an accessor may be limited to some profiles). */
  profile_id: number | null;
}

type IdExpression = Expression<number | null>;

/** One step up from a row to its parent: `(select column from table where id = id)`, a primary-key lookup. */
function parentOf(table: string, column: string, id: IdExpression) {
  return sql<number | null>`(select ${sql.ref(column)} from ${sql.table(table)} where id = ${id})`;
}

const topicProfile = (topicId: IdExpression) => parentOf('topics', 'profile_id', topicId);
const itemTopic = (itemId: IdExpression) => parentOf('items', 'topic_id', itemId);
const entryItem = (entryId: IdExpression) => parentOf('list_contents', 'item_id', parentOf('list_entries', 'list_content_id', entryId));

/** A row that answers a locate, and a `Location`'s columns read from it (as `located`). */
const ANSWERED_BY = {
  profiles: sql`located.account_id, located.app_user_id, located.is_private as in_private, located.id as profile_id`,
  // What an app user holds directly (no profile above it), but media: never private.
  emergency_items: sql`located.account_id, located.app_user_id, 0 as in_private, null as profile_id`,
  emergency_contacts: sql`located.account_id, located.app_user_id, 0 as in_private, null as profile_id`,
  emergency_links: sql`located.account_id, located.app_user_id, 0 as in_private, null as profile_id`,
  media_resources: sql`located.account_id, located.app_user_id, located.in_private, null as profile_id`,
};

/** Where each kind is located: the row that answers, by its id from the object's id (scalar subqueries up the tree). */
const LOCATED_IN: Record<Kind, { table: keyof typeof ANSWERED_BY; rowId: (id: IdExpression) => IdExpression }> = {
  profile: { table: 'profiles', rowId: (id) => id },
  topic: { table: 'profiles', rowId: topicProfile },
  item: { table: 'profiles', rowId: (id) => topicProfile(itemTopic(id)) },
  list_entry: { table: 'profiles', rowId: (id) => topicProfile(itemTopic(entryItem(id))) },
  emergency_item: { table: 'emergency_items', rowId: (id) => id },
  emergency_contact: { table: 'emergency_contacts', rowId: (id) => id },
  media_resource: { table: 'media_resources', rowId: (id) => id },
  // Owner only (emergency/): located so that an accessor of its app user hears 403, not 404.
  emergency_link: { table: 'emergency_links', rowId: (id) => id },
};

const KINDS = Object.keys(LOCATED_IN) as Kind[];

/** The answering row of each id the rows of `wanted` give (its column `id`), numbered by their column `n`. */
function locateEach(kind: Kind, wanted: RawBuilder<unknown>) {
  const { table, rowId } = LOCATED_IN[kind];
  return sql<Location & { n: number }>`(select wanted.n as n, ${ANSWERED_BY[table]}
    from ${wanted} join ${sql.table(table)} as located on located.id = ${rowId(sql.ref('wanted.id'))})`;
}

/**
 * How each dialect takes the ids asked for together as rows (`wanted`: `id`, and `n`, its place
 * in the list from 1): the one value bound (`value`), and the rows made of it.
 */
const WANTED = {
  postgres: {
    value: (ids: readonly number[]) => [...ids],
    rows: (ids: unknown) => sql`(select id, n::int4 as n from unnest(${ids}::int4[]) with ordinality as listed(id, n)) as wanted`,
  },
  sqlite: {
    value: (ids: readonly number[]) => JSON.stringify(ids),
    // json_each numbers the array's elements from 0.
    rows: (ids: unknown) => sql`(select key + 1 as n, value as id from json_each(${ids})) as wanted`,
  },
} satisfies Record<ServiceDb['dialect'], unknown>;

/** Several ids in one statement, each answer numbered by its place in the list. */
const LOCATE_MANY = Object.fromEntries(
  (['postgres', 'sqlite'] as const).map((dialect) => [
    dialect,
    Object.fromEntries(
      KINDS.map((kind) => [
        kind,
        preparedQuery((db, p: { ids: unknown }) => db.selectFrom(locateEach(kind, WANTED[dialect].rows(p.ids)).as('found')).selectAll()),
      ]),
    ),
  ]),
) as Record<ServiceDb['dialect'], Record<Kind, PreparedQuery<{ ids: unknown }, Location & { n: number }>>>;

/** Locates read at most in one statement. */
const MAX_BATCH = 200;

const loaders = new WeakMap<ServiceDb, Map<Kind, DataLoader<number, Location | undefined>>>();

/**
 * The locates of the requests that arrive in one turn of the event loop go to the database as
 * one statement per kind, as the token checks do (auth/token-finder.ts). On PostgreSQL, apart,
 * they would split the turn's requests over many turns, and the item creates that follow them,
 * gathered per turn (list-item-creates.ts), into many calls of one create each. On SQLite, each
 * statement outside a transaction is a read transaction of its own, whose locks cost system calls.
 */
function batchedLocate(db: ServiceDb, kind: Kind): DataLoader<number, Location | undefined> {
  let byKind = loaders.get(db);
  if (!byKind) {
    byKind = new Map();
    loaders.set(db, byKind);
  }
  let loader = byKind.get(kind);
  if (!loader) {
    loader = new DataLoader<number, Location | undefined>(
      async (ids) => {
        const found: (Location | undefined)[] = new Array(ids.length).fill(undefined);
        const rows = await LOCATE_MANY[db.dialect][kind](db.kysely, { ids: WANTED[db.dialect].value(ids) });
        for (const { n, ...location } of rows) found[n - 1] = location;
        return found;
      },
      { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
    );
    byKind.set(kind, loader);
  }
  return loader;
}

/** Where the object `kind` `id` sits, if it exists, read with the other locates of its turn. */
export function locate(db: ServiceDb, kind: Kind, id: number): Promise<Location | undefined> {
  return batchedLocate(db, kind).load(id);
}

/**
 * The app user who holds the topic in scope, as a scalar subquery (item creates look it up
 * every time; with bound values written `+?`, db/sqlite-parameters.ts, a join costs SQLite the same).
 */
export function topicAppUser(eb: ExpressionBuilder<Database, 'topics'>) {
  return eb.selectFrom('profiles').select('profiles.app_user_id').whereRef('profiles.id', '=', 'topics.profile_id').$asScalar();
}
