// What an account may see of others' data (docs/sharing.md): its accepted accessors, read with
// every token check (token-finder.ts), so that a request for shared data needs no query of its
// own to know whether it may go on, and a revocation or a permission change counts from the
// next request on every instance. An accessor past its `expires_at` grants nothing: the caller's
// grants (token-auth.ts) and `currentGrant` leave it out against the clock, so an expiry needs no
// write to take effect, on any instance, through any cache.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { dataVersionOf, type DataVersion } from './data-version.ts';

/** One app user shared with the caller, as the caller's accessor sees it. */
export interface Grant {
  accessorId: number;
  appUserId: number;
  ownerAccountId: number;
  canWrite: boolean;
  privateAccess: boolean;
  /** When the access ends (ms since the epoch); null: until revoked. */
  expiresAt: number | null;
  /** The only profiles it sees (ascending ids); null: every profile the other fields allow. */
  profiles: readonly number[] | null;
  /** The shared app user and its data version (null: gone): cached renderings of its data are stamped with it. */
  dataVersion(): Promise<DataVersion | null>;
}

export const NO_GRANTS: readonly Grant[] = Object.freeze([]);

/** Whether an access that ends at `expiresAt` (null: never) still holds at `now`. */
export const grantLive = (expiresAt: number | null, now: number): boolean => expiresAt === null || now < expiresAt;

/** The grants that still hold at `now` (the same list when all do, as nearly always). */
export function liveGrants(grants: readonly Grant[], now: number): readonly Grant[] {
  return grants.every((g) => grantLive(g.expiresAt, now)) ? grants : grants.filter((g) => grantLive(g.expiresAt, now));
}

/**
 * Where something a grant's accessor asks for sits: its app user, whether it is private (1),
 * and the profile it is or lies under (null: none — the app user itself, its emergency data,
 * its media).
 */
export interface Seen {
  app_user_id: number;
  in_private: number;
  profile_id: number | null;
}

/**
 * The rule of what an accessor sees (docs/sharing.md): what its grant's app user holds, and of
 * that what is private (a private profile, what lies under one, media used only there) only with
 * private access, and of the profiles only those it is limited to. A private media resource, which
 * lies under no one profile, asks one more thing of a limited grant: private-media.ts. The access
 * decision (app-data/kernel/access.ts), the rendering cache, the live stream and the signed
 * download all ask this; it sits here, beside the grants, because media/ may not import app-data/.
 */
export function grantSees(grant: Pick<Grant, 'appUserId' | 'privateAccess' | 'profiles'>, seen: Seen): boolean {
  return (
    grant.appUserId === seen.app_user_id &&
    (seen.in_private === 0 || grant.privateAccess) &&
    (grant.profiles === null || seen.profile_id === null || grant.profiles.includes(seen.profile_id))
  );
}

/** A list of profile ids as the queries read it (comma-separated; null: not chosen), ascending. */
export function profileList(chosen: number, ids: string | null): readonly number[] | null {
  if (chosen !== 1) return null;
  return ids
    ? ids
        .split(',')
        .map(Number)
        .sort((a, b) => a - b)
    : [];
}

/** An accepted accessor as it is now, for a check of a grant handed out before (a signed URL, a live stream). */
export interface CurrentGrant {
  accessorId: number;
  appUserId: number;
  /** The account it was accepted by. */
  accessorAccountId: number;
  canWrite: boolean;
  privateAccess: boolean;
  profiles: readonly number[] | null;
}

/**
 * The accessor `accessorId` if it is accepted and not expired at `now` (undefined: gone, not
 * accepted, or expired): one probe of its primary key.
 */
export async function currentGrant(db: Kysely<Database>, accessorId: number, now: number): Promise<CurrentGrant | undefined> {
  const row = await db
    .selectFrom('accessors')
    .select(['app_user_id', 'user_with_access_id', 'can_write', 'has_private_profile_access', 'expires_at', 'profiles_chosen'])
    .where('id', '=', accessorId)
    .where('user_with_access_id', 'is not', null)
    .where('accepted_at', 'is not', null)
    .executeTakeFirst();
  if (!row || row.user_with_access_id === null || !grantLive(row.expires_at, now)) return undefined;
  const profiles = row.profiles_chosen === 1 ? ((await chosenProfiles(db, [accessorId])).get(accessorId) ?? []) : null;
  return {
    accessorId,
    appUserId: row.app_user_id,
    accessorAccountId: row.user_with_access_id,
    canWrite: row.can_write === 1,
    privateAccess: row.has_private_profile_access === 1,
    profiles,
  };
}

/** The profiles each of `accessorIds` chose, ascending (an accessor with none listed is absent). */
export async function chosenProfiles(db: Kysely<Database>, accessorIds: readonly number[]): Promise<Map<number, number[]>> {
  const chosen = new Map<number, number[]>();
  if (accessorIds.length === 0) return chosen;
  const rows = await db
    .selectFrom('accessor_profiles')
    .select(['accessor_id', 'profile_id'])
    .where('accessor_id', 'in', accessorIds)
    .orderBy('profile_id')
    .execute();
  for (const row of rows) {
    const list = chosen.get(row.accessor_id) ?? [];
    list.push(row.profile_id);
    chosen.set(row.accessor_id, list);
  }
  return chosen;
}

/** A grant's columns as the queries below read them (flags as 0/1). */
export interface GrantRow {
  accessorId: number;
  appUserId: number;
  ownerAccountId: number;
  canWrite: number;
  privateAccess: number;
  expiresAt: number | null;
  /** 1: only the profiles in `profiles` */
  profilesChosen: number;
  /** The chosen profiles' ids, comma-separated (null or '' for none). */
  profiles: string | null;
}

export const toGrant = (row: GrantRow, dataVersion: () => Promise<DataVersion | null>): Grant => ({
  accessorId: row.accessorId,
  appUserId: row.appUserId,
  ownerAccountId: row.ownerAccountId,
  canWrite: row.canWrite === 1,
  privateAccess: row.privateAccess === 1,
  expiresAt: row.expiresAt,
  profiles: profileList(row.profilesChosen, row.profiles),
  dataVersion,
});

/** The accepted accessors of an account, by app user (a second query only for those that chose profiles). */
export async function grantRows(db: Kysely<Database>, accountId: number): Promise<GrantRow[]> {
  const rows = await db
    .selectFrom('accessors')
    .select([
      'id as accessorId',
      'app_user_id as appUserId',
      'owner_account_id as ownerAccountId',
      'can_write as canWrite',
      'has_private_profile_access as privateAccess',
      'expires_at as expiresAt',
      'profiles_chosen as profilesChosen',
    ])
    .where('user_with_access_id', '=', accountId)
    .orderBy('app_user_id')
    .execute();
  const limited = rows.filter((row) => row.profilesChosen === 1).map((row) => row.accessorId);
  const chosen = await chosenProfiles(db, limited);
  return rows.map((row) => ({ ...row, profiles: chosen.get(row.accessorId)?.join(',') ?? null }));
}

/**
 * PostgreSQL's token lookup reads the grants in the same query (token-finder.ts): the token's
 * row once per grant, or once with a null grant. For an account that shares nothing with anyone
 * it is one probe of an empty index range. A grant is one column, a JSON array of its fields:
 * the driver's cost grows with a statement's columns, read for every row and every lookup
 * (bench/README.md, "Instructions per read"), and most callers hold no grant.
 */
export const GRANT_COLUMNS = `case when g.id is not null then json_build_array(g.id, g.app_user_id, g.owner_account_id,
  g.can_write, g.has_private_profile_access, g.expires_at, gu.data_version, g.profiles_chosen,
  case when g.profiles_chosen = 1 then (select string_agg(ap.profile_id::text, ',') from accessor_profiles ap where ap.accessor_id = g.id) end)
  end as g_grant`;

export const GRANT_JOINS = `left join accessors g on g.user_with_access_id = t.account_id
left join app_users gu on gu.id = g.app_user_id`;

/** A grant as GRANT_COLUMNS reads it, in its order (flags as 0/1; the data version null: the app user is gone). */
type GrantTuple = [
  accessorId: number,
  appUserId: number,
  ownerAccountId: number,
  canWrite: number,
  privateAccess: number,
  expiresAt: number | null,
  dataVersion: number | null,
  profilesChosen: number,
  profiles: string | null,
];

export interface GrantColumns {
  g_grant: GrantTuple | null;
}

/** The grant a row of the token lookup carries, if any. */
export function grantOfRow(row: GrantColumns): Grant | undefined {
  if (row.g_grant === null) return undefined;
  const [accessorId, appUserId, ownerAccountId, canWrite, privateAccess, expiresAt, dataVersion, profilesChosen, profiles] = row.g_grant;
  if (dataVersion === null) return undefined;
  const version = Promise.resolve(dataVersionOf(appUserId, dataVersion));
  return toGrant({ accessorId, appUserId, ownerAccountId, canWrite, privateAccess, expiresAt, profilesChosen, profiles }, () => version);
}
