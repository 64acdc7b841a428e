// Where a personal-data object sits: its owner's account, its app user, and whether it is
// private: in a private profile, or a media resource used only there. Only for callers who have
// grants (access.ts): the requests of a caller who holds none never run these. A read may locate
// with a query of its own that also fetches what it answers (item-queries.ts's `locateItem`).
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SyncedType } from '../../db/synced-types.ts';

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

const underProfile = (db: Db) =>
  db.selectFrom('profiles as p').select(['p.account_id', 'p.app_user_id', 'p.is_private as in_private', 'p.id as profile_id']);

/** What an app user holds directly (no profile above it), but media: never private. */
function underAppUser(db: Db, table: 'emergency_items' | 'emergency_contacts' | 'emergency_links', id: number) {
  return db
    .selectFrom(table)
    .select(['account_id', 'app_user_id', sql<number>`0`.as('in_private'), sql<null>`null`.as('profile_id')])
    .where('id', '=', id)
    .executeTakeFirst();
}

const LOCATE: Record<Kind, (db: Db, id: number) => Promise<Location | undefined>> = {
  profile: (db, id) => underProfile(db).where('p.id', '=', id).executeTakeFirst(),
  topic: (db, id) => underProfile(db).innerJoin('topics as t', 't.profile_id', 'p.id').where('t.id', '=', id).executeTakeFirst(),
  item: (db, id) =>
    underProfile(db)
      .innerJoin('topics as t', 't.profile_id', 'p.id')
      .innerJoin('items as i', 'i.topic_id', 't.id')
      .where('i.id', '=', id)
      .executeTakeFirst(),
  list_entry: (db, id) =>
    underProfile(db)
      .innerJoin('topics as t', 't.profile_id', 'p.id')
      .innerJoin('items as i', 'i.topic_id', 't.id')
      .innerJoin('list_contents as c', 'c.item_id', 'i.id')
      .innerJoin('list_entries as e', 'e.list_content_id', 'c.id')
      .where('e.id', '=', id)
      .executeTakeFirst(),
  emergency_item: (db, id) => underAppUser(db, 'emergency_items', id),
  emergency_contact: (db, id) => underAppUser(db, 'emergency_contacts', id),
  media_resource: (db, id) =>
    db
      .selectFrom('media_resources')
      .select(['account_id', 'app_user_id', 'in_private', sql<null>`null`.as('profile_id')])
      .where('id', '=', id)
      .executeTakeFirst(),
  // Owner only (emergency/): located so that an accessor of its app user hears 403, not 404.
  emergency_link: (db, id) => underAppUser(db, 'emergency_links', id),
};

export function locate(db: Db, kind: Kind, id: number): Promise<Location | undefined> {
  return LOCATE[kind](db, id);
}

/**
 * The app user who holds the topic in scope, as a scalar subquery rather than a join: the same
 * plan, which SQLite runs faster, and item creates look it up every time.
 */
export function topicAppUser(eb: ExpressionBuilder<Database, 'topics'>) {
  return eb.selectFrom('profiles').select('profiles.app_user_id').whereRef('profiles.id', '=', 'topics.profile_id').$asScalar();
}
