// Where a personal-data object sits: its owner's account, its app user, and whether it is
// private: in a private profile, or a media resource used only there. Only for callers who have
// grants (access.ts): the requests of a caller who holds none never run these. A read may locate
// with a query of its own that also fetches what it answers (item-queries.ts's `locateItem`).
import { sql, type Expression, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SyncedType } from '../../db/synced-types.ts';
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

/**
 * The profile whose id `profileId` gives, with scalar subqueries rather than joins for what lies
 * under it: SQLite (built with STAT4) plans a join whose WHERE compares a column with a bound
 * value again at every run, which made a locate cost three times its run.
 */
const underProfile = (db: Db, profileId: number | Expression<number | null>) =>
  db
    .selectFrom('profiles as p')
    .select(['p.account_id', 'p.app_user_id', 'p.is_private as in_private', 'p.id as profile_id'])
    .where('p.id', '=', profileId);

/** One step up from a row to its parent: `(select column from table where id = id)`. */
function parentOf(table: string, column: string, id: number | Expression<number | null>) {
  return sql<number | null>`(select ${sql.ref(column)} from ${sql.table(table)} where id = ${id})`;
}

const topicProfile = (topicId: number | Expression<number | null>) => parentOf('topics', 'profile_id', topicId);
const itemTopic = (itemId: number | Expression<number | null>) => parentOf('items', 'topic_id', itemId);
const entryItem = (entryId: number) => parentOf('list_contents', 'item_id', parentOf('list_entries', 'list_content_id', entryId));

/** What an app user holds directly (no profile above it), but media: never private. */
function underAppUser(table: 'emergency_items' | 'emergency_contacts' | 'emergency_links') {
  return preparedQuery((db, p: ById) =>
    db
      .selectFrom(table)
      .select(['account_id', 'app_user_id', sql<number>`0`.as('in_private'), sql<null>`null`.as('profile_id')])
      .where('id', '=', p.id),
  );
}

// Prepared: an accessor's every request locates what it names, and building the query each
// time cost more than running it.
const LOCATE: Record<Kind, PreparedQuery<ById, Location>> = {
  profile: preparedQuery((db, p: ById) => underProfile(db, p.id)),
  topic: preparedQuery((db, p: ById) => underProfile(db, topicProfile(p.id))),
  item: preparedQuery((db, p: ById) => underProfile(db, topicProfile(itemTopic(p.id)))),
  list_entry: preparedQuery((db, p: ById) => underProfile(db, topicProfile(itemTopic(entryItem(p.id))))),
  emergency_item: underAppUser('emergency_items'),
  emergency_contact: underAppUser('emergency_contacts'),
  media_resource: preparedQuery((db, p: ById) =>
    db
      .selectFrom('media_resources')
      .select(['account_id', 'app_user_id', 'in_private', sql<null>`null`.as('profile_id')])
      .where('id', '=', p.id),
  ),
  // Owner only (emergency/): located so that an accessor of its app user hears 403, not 404.
  emergency_link: underAppUser('emergency_links'),
};

export async function locate(db: Db, kind: Kind, id: number): Promise<Location | undefined> {
  return (await LOCATE[kind](db, { id }))[0];
}

/**
 * The app user who holds the topic in scope, as a scalar subquery rather than a join: the same
 * plan, which SQLite runs faster, and item creates look it up every time.
 */
export function topicAppUser(eb: ExpressionBuilder<Database, 'topics'>) {
  return eb.selectFrom('profiles').select('profiles.app_user_id').whereRef('profiles.id', '=', 'topics.profile_id').$asScalar();
}
