// A media resource used only in private profiles is private (`media_resources.in_private`,
// migration 0028): an accessor sees it only with private profile access. An accessor limited to
// some profiles sees it only when an image item under one of those profiles shows it: the other
// profiles do not exist for that accessor, and neither does what only they show
// (docs/sharing.md). Media used anywhere else is the app user's, outside profiles, and every
// accessor of the app user sees it. The gallery, the media detail and its changes, a signed
// download and a writer's reference all ask this; it sits here, beside the grants, because
// media/ may not import app-data/.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

/** What decides it: the accessor's profiles (null: not limited). Private access is checked before (grants.ts's `grantSees`). */
export interface MediaView {
  seesPrivate: boolean;
  profiles: readonly number[] | null;
}

/** Whether an image item under one of `profiles` shows the media resource `mediaId` (a value or a column). */
function shownUnder(mediaId: Expression<number>, profiles: readonly number[]): Expression<SqlBool> {
  if (profiles.length === 0) return sql<SqlBool>`1 = 0`;
  const under = (column: 'image_resource_id' | 'media_resource_id') =>
    sql`exists (select 1 from image_contents ic join items i on i.id = ic.item_id join topics t on t.id = i.topic_id
      where ic.${sql.ref(column)} = ${mediaId} and t.profile_id in (${sql.join(profiles)}))`;
  return sql<SqlBool>`(${under('image_resource_id')} or ${under('media_resource_id')})`;
}

/**
 * The condition on `media_resources` rows that keeps those `view` sees; undefined: all of them.
 * For a query that also filters on the app user (and its owner's account).
 */
export function visibleMedia(view: MediaView): ((table: string) => Expression<SqlBool>) | undefined {
  if (!view.seesPrivate) return (table) => sql<SqlBool>`${sql.ref(`${table}.in_private`)} = 0`;
  const { profiles } = view;
  if (profiles === null) return undefined;
  return (table) => sql<SqlBool>`(${sql.ref(`${table}.in_private`)} = 0 or ${shownUnder(sql.ref(`${table}.id`), profiles)})`;
}

/**
 * Of the private media resources `ids`, those an image item under one of `profiles` shows: what
 * an accessor limited to `profiles`, with private access, sees of them.
 */
export async function privateMediaShown(db: Db, ids: readonly number[], profiles: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0 || profiles.length === 0) return new Set();
  const rows = await db
    .selectFrom('media_resources as m')
    .select('m.id')
    .where('m.id', 'in', ids)
    .where(shownUnder(sql.ref('m.id'), profiles))
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Whether an accessor that sees the media resource's app user and its private media
 * (`grantSees`) sees this one: only a private one under a limited accessor costs a query.
 */
export async function limitedSeesMedia(
  db: Db,
  profiles: readonly number[] | null,
  media: { id: number; in_private: number },
): Promise<boolean> {
  if (profiles === null || media.in_private === 0) return true;
  return (await privateMediaShown(db, [media.id], profiles)).has(media.id);
}

/**
 * The private media resources of the app user that an image item under one of `lost` shows and
 * none under `kept` does: what an accessor whose list of profiles went from `lost` + `kept` to
 * `kept` no longer sees (its changes tell it of their deletion).
 */
export async function privateMediaLost(
  db: Db,
  accountId: number,
  appUserId: number,
  lost: readonly number[],
  kept: readonly number[],
): Promise<number[]> {
  if (lost.length === 0) return [];
  let query = db
    .selectFrom('media_resources as m')
    .select('m.id')
    .where('m.app_user_id', '=', appUserId)
    .where('m.account_id', '=', accountId)
    .where('m.in_private', '=', 1)
    .where(shownUnder(sql.ref('m.id'), lost));
  if (kept.length > 0) query = query.where((eb) => eb.not(shownUnder(sql.ref('m.id'), kept)));
  return (await query.orderBy('m.id').execute()).map((row) => row.id);
}
