// Who may do what to an app user's data (docs/sharing.md): the one decision, made here before
// any service runs, and carried to it as a value (`Access`, a service's first argument after the
// app-wide context). A caller is, to one app user, its owner, a writer or a reader (an accepted
// accessor, with or without private profiles), or nobody.
//
// - What the caller cannot see is 404, as before sharing: a stranger learns nothing.
// - What the caller can see but may not change is 403 with a sentence saying why: a reader's
//   write, or an accessor's owner-only action (the app user itself, its accessors, export and
//   deletion, a profile's `is_private`).
// - Every query still filters on an account id, the owner's: once access is decided, an
//   accessor's request runs the owner's queries (`Access.accountId`).
//
// Owners pay nothing: a caller who holds no grants (read with the token, auth/grants.ts) is the
// owner of whatever it names, and the owner's queries find it or answer 404. A caller who holds
// grants has the object located first (access-queries.ts): it is then the caller's own, or under
// an app user one of its grants names, or 404. A request under an app user by id (its profiles,
// emergency data, gallery) finds the grant, or the caller's own app user, in memory.
import { grantSees, type Grant } from '../../auth/grants.ts';
import { limitedSeesMedia } from '../../auth/private-media.ts';
import type { Caller } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { locate, type Kind, type Location } from './access-queries.ts';
import type { RequestVia } from '../../activity/activity-events.ts';

export type { Kind } from './access-queries.ts';

/** What a request needs: to read, to change the data, or to be the owner. */
export type Need = 'read' | 'write' | 'owner';

/** A request's decided access to one app user's data. */
export interface Access {
  /** The owner's account: what every personal-data query filters on. */
  accountId: number;
  /**
   * The app user the request is about, when it is known before the service runs (an accessor's,
   * a located object's, or the caller's own); null when the owner's queries are to find it.
   */
  appUserId: number | null;
  /** The caller's accessor when the data is someone else's; null for the owner. */
  grant: Grant | null;
  /** Whether the caller may change the data (the owner, or a writer). */
  mayWrite: boolean;
  /** Whether private profiles, and what is under them, exist for the caller. */
  seesPrivate: boolean;
  /** The only profiles that exist for the caller (an accessor limited to some); null: all of them. */
  profiles: readonly number[] | null;
  /** The accessor that media file URLs are signed for (they stop working when it ends); null for the owner. */
  accessorId: number | null;
  /** How the request came (the web client or another client of the API), for the events its writes record. */
  via: RequestVia;
}

/** The 403 of a write, as the OpenAPI document describes it. */
export const NOT_ALLOWED = 'An accessor without write access, or an owner-only action by an accessor (docs/sharing.md)';

export const READ_ONLY = 'access.readOnly';
export const OWNER_ONLY = 'access.ownerOnly';

/**
 * An accessor's read is in its owner's activity log, at most once an hour per accessor and app
 * user (activity/read-ledger.ts: decided in memory, no query per read).
 */
async function readNoted(caller: Caller, grant: Grant, access: Access, need: Need): Promise<Access> {
  const noting = need === 'read' ? caller.noteRead(grant) : undefined;
  if (noting) await noting;
  return access;
}

/** The owner's access to their own data (`appUserId`: when already known), by a request that came `via`. */
export function ownerAccess(accountId: number, via: RequestVia, appUserId: number | null = null): Access {
  return { accountId, appUserId, grant: null, mayWrite: true, seesPrivate: true, profiles: null, accessorId: null, via };
}

function accessorAccess(grant: Grant, need: Need, via: RequestVia): Access {
  if (need === 'owner') throw forbidden(OWNER_ONLY);
  if (need === 'write' && !grant.canWrite) throw forbidden(READ_ONLY);
  return {
    accountId: grant.ownerAccountId,
    appUserId: grant.appUserId,
    grant,
    mayWrite: grant.canWrite,
    seesPrivate: grant.privateAccess,
    profiles: grant.profiles,
    accessorId: grant.accessorId,
    via,
  };
}

// The rule of what a grant sees is auth/grants.ts's `grantSees`: the signed download (media/)
// asks it too, and media/ does not import app-data/.
export { grantSees, type Seen } from '../../auth/grants.ts';

/**
 * The caller's access to the app user `appUserId`, for a request under it: as the accessor of a
 * grant for it, or as its owner when it is the caller's own app user (the caller carries its
 * id: no query), else 404. The access then names the app user: services need not find it.
 */
export async function appUserAccess(caller: Caller, appUserId: number, need: Need): Promise<Access> {
  const grant = (await caller.grants()).find((g) => g.appUserId === appUserId);
  if (grant) return readNoted(caller, grant, accessorAccess(grant, need, caller.via), need);
  if ((await caller.appUserId()) !== appUserId) throw notFound();
  return ownerAccess(caller.accountId, caller.via, appUserId);
}

/**
 * 404 unless the access was decided for the app user `appUserId` (a request under it:
 * `appUserAccess` decided it, so it exists for the caller).
 */
export function requireAppUser(access: Access, appUserId: number): void {
  if (access.appUserId !== appUserId) throw notFound();
}

/** A decided access, with where the object was found when it was located (null: it was not). */
export interface Decision<L extends Location = Location> {
  access: Access;
  location: L | null;
}

/**
 * How a caller with grants has an object located: `locate` for its kind, or a read's own query
 * that also fetches what the read answers.
 */
export type Locator<L extends Location> = (db: Kysely<Database>, id: number) => Promise<L | undefined>;

/**
 * The caller's access to the object `kind` `id` (or to what is under it), for a request that
 * needs `need`. A caller without grants is its owner (the owner's queries find it or answer
 * 404); a caller with grants has it located: its own, or under a shared app user it may see
 * (404 otherwise), and then 403 when the grant does not allow `need`.
 */
export async function objectAccess<L extends Location = Location>(
  ctx: AppContext,
  caller: Caller,
  kind: Kind,
  id: number,
  need: Need,
  locator?: Locator<L>,
): Promise<Decision<L>> {
  const grants = await caller.grants();
  if (grants.length === 0) return { access: ownerAccess(caller.accountId, caller.via), location: null };
  const location = locator ? await locator(ctx.db.kysely, id) : ((await locate(ctx.db, kind, id)) as L | undefined);
  if (!location) throw notFound();
  if (location.account_id === caller.accountId)
    return { access: ownerAccess(caller.accountId, caller.via, location.app_user_id), location };
  const grant = grants.find((g) => grantSees(g, location));
  if (!grant) throw notFound();
  if (kind === 'media_resource' && !(await limitedSeesMedia(ctx.db.kysely, grant.profiles, { id, in_private: location.in_private })))
    throw notFound();
  return { access: await readNoted(caller, grant, accessorAccess(grant, need, caller.via), need), location };
}

/** An owner-only change within a request the caller may otherwise make (a profile's `is_private`). */
export function requireOwner(access: Access): void {
  if (access.grant) throw forbidden(OWNER_ONLY);
}
