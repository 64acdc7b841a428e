// Where a personal-data object sits: its owner's account, its app user, and whether it is
// private: in a private profile, or a media resource used only there. Only for callers who have
// grants (access.ts): the requests of a caller who holds none never run these. A read may locate
// with a query of its own that also fetches what it answers (item-queries.ts's `locateItem`).
import DataLoader from 'dataloader';
import { sql, type Expression, type ExpressionBuilder, type Kysely } from 'kysely';
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

type Db = Kysely<Database>;

/** The object's id, the one parameter of every locate. */
interface ById {
  id: number;
}

type IdExpression = Expression<number | null>;

/** The profile whose id `profileId` gives, with scalar subqueries (each a primary-key lookup) for what lies under it. */
const underProfile = (db: Db, profileId: IdExpression) =>
  db
    .selectFrom('profiles as p')
    .select(['p.account_id', 'p.app_user_id', 'p.is_private as in_private', 'p.id as profile_id'])
    .where('p.id', '=', profileId);

/** One step up from a row to its parent: `(select column from table where id = id)`. */
function parentOf(table: string, column: string, id: IdExpression) {
  return sql<number | null>`(select ${sql.ref(column)} from ${sql.table(table)} where id = ${id})`;
}

const topicProfile = (topicId: IdExpression) => parentOf('topics', 'profile_id', topicId);
const itemTopic = (itemId: IdExpression) => parentOf('items', 'topic_id', itemId);
const entryItem = (entryId: IdExpression) => parentOf('list_contents', 'item_id', parentOf('list_entries', 'list_content_id', entryId));

/** What an app user holds directly (no profile above it), but media: never private. */
const underAppUser = (db: Db, table: 'emergency_items' | 'emergency_contacts' | 'emergency_links', id: IdExpression) =>
  db
    .selectFrom(table)
    .select(['account_id', 'app_user_id', sql<number>`0`.as('in_private'), sql<null>`null`.as('profile_id')])
    .where('id', '=', id);

/** Each kind's locate, of the id `id` gives (a bound value, or a column of the ids asked for together). */
const LOCATE_QUERY = {
  profile: (db: Db, id: IdExpression) => underProfile(db, id),
  topic: (db: Db, id: IdExpression) => underProfile(db, topicProfile(id)),
  item: (db: Db, id: IdExpression) => underProfile(db, topicProfile(itemTopic(id))),
  list_entry: (db: Db, id: IdExpression) => underProfile(db, topicProfile(itemTopic(entryItem(id)))),
  emergency_item: (db: Db, id: IdExpression) => underAppUser(db, 'emergency_items', id),
  emergency_contact: (db: Db, id: IdExpression) => underAppUser(db, 'emergency_contacts', id),
  media_resource: (db: Db, id: IdExpression) =>
    db
      .selectFrom('media_resources')
      .select(['account_id', 'app_user_id', 'in_private', sql<null>`null`.as('profile_id')])
      .where('id', '=', id),
  // Owner only (emergency/): located so that an accessor of its app user hears 403, not 404.
  emergency_link: (db: Db, id: IdExpression) => underAppUser(db, 'emergency_links', id),
} satisfies Record<Kind, (db: Db, id: IdExpression) => unknown>;

const KINDS = Object.keys(LOCATE_QUERY) as Kind[];

/** One id at a time, prepared: an accessor's every request locates what it names, and building the query each time cost more than running it. */
const LOCATE_ONE = Object.fromEntries(
  KINDS.map((kind) => [kind, preparedQuery((db, p: ById) => LOCATE_QUERY[kind](db, sql<number>`${p.id}`))]),
) as Record<Kind, PreparedQuery<ById, Location>>;

/** Several ids in one statement, each answer numbered by its place in the list (PostgreSQL). */
const LOCATE_MANY = Object.fromEntries(
  KINDS.map((kind) => [
    kind,
    preparedQuery((db, p: { ids: number[] }) =>
      db
        .selectFrom(
          sql<Location & { n: number }>`(select wanted.n::int4 as n, found.*
            from unnest(${p.ids}::int4[]) with ordinality as wanted(id, n)
            cross join lateral (${LOCATE_QUERY[kind](db, sql.ref<number>('wanted.id'))}) as found)`.as('located'),
        )
        .selectAll(),
    ),
  ]),
) as Record<Kind, PreparedQuery<{ ids: number[] }, Location & { n: number }>>;

/** Locates read at most in one statement. */
const MAX_BATCH = 200;

const loaders = new WeakMap<ServiceDb, Map<Kind, DataLoader<number, Location | undefined>>>();

/**
 * PostgreSQL: the locates of the requests that arrive in one turn of the event loop go to the
 * database as one statement per kind, as the token checks do (auth/token-finder.ts). Apart, they
 * split the turn's requests over many turns, and the item creates that follow them, gathered
 * per turn (list-item-creates.ts), into many calls of one create each.
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
        for (const { n, ...location } of await LOCATE_MANY[kind](db.kysely, { ids: [...ids] })) found[n - 1] = location;
        return found;
      },
      { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
    );
    byKind.set(kind, loader);
  }
  return loader;
}

/** Where the object `kind` `id` sits, if it exists: on PostgreSQL with the other locates of its turn. */
export async function locate(db: ServiceDb, kind: Kind, id: number): Promise<Location | undefined> {
  if (db.dialect === 'postgres') return batchedLocate(db, kind).load(id);
  return (await LOCATE_ONE[kind](db.kysely, { id }))[0];
}

/**
 * The app user who holds the topic in scope, as a scalar subquery (item creates look it up
 * every time; with bound values written `+?`, db/sqlite-parameters.ts, a join costs SQLite the same).
 */
export function topicAppUser(eb: ExpressionBuilder<Database, 'topics'>) {
  return eb.selectFrom('profiles').select('profiles.app_user_id').whereRef('profiles.id', '=', 'topics.profile_id').$asScalar();
}
