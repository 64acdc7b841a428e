// Who may do what to an app user's data (docs/sharing.md): the one decision, made here and used by
// every read and write of personal data. A caller is, to one app user, its owner, a writer or a
// reader (an accepted accessor, with or without private profiles), or nobody.
//
// - What the caller cannot see is 404, as before sharing: a stranger learns nothing.
// - What the caller can see but may not change is 403 with a sentence saying why: a reader's
//   write, or an accessor's owner-only action (the app user itself, its accessors, export and
//   deletion, a profile's `is_private`).
// - Every query still filters on an account id, the owner's: once access is decided, an
//   accessor's request runs the owner's queries (`Access.accountId`).
//
// Owners pay nothing: a request about an object by id runs as the caller's own first, and only
// when that finds nothing and the caller has grants (read with the token, auth/grants.ts) is
// the object located (access-queries.ts) and the grant for its app user looked at. A request
// under an app user by id (its profiles, emergency data, gallery) finds the grant in memory.
import type { AppContext } from '../context.ts';
import type { Grant } from '../auth/grants.ts';
import type { Caller } from '../auth/token-auth.ts';
import { DomainError, forbidden, notFound } from '../errors.ts';
import { locate, type Kind } from './access-queries.ts';

export type { Kind } from './access-queries.ts';

/** What a request needs: to read, to change the data, or to be the owner. */
export type Need = 'read' | 'write' | 'owner';

export interface Access {
  /** The owner's account: what every personal-data query filters on. */
  accountId: number;
  /** The caller's accessor when the data is someone else's; null for the owner. */
  grant: Grant | null;
  /** Whether private profiles, and what is under them, exist for the caller. */
  seesPrivate: boolean;
  /** The context to answer in: for an accessor, media file URLs are signed for their access. */
  ctx: AppContext;
}

/** The 403 of a write, as the OpenAPI document describes it. */
export const NOT_ALLOWED = 'An accessor without write access, or an owner-only action by an accessor (docs/sharing.md)';

export const READ_ONLY = 'You have read-only access to this data; its owner can give you write access.';
export const OWNER_ONLY = 'Only the owner of this data can do this.';

function asOwner(ctx: AppContext, accountId: number): Access {
  return { accountId, grant: null, seesPrivate: true, ctx };
}

function asAccessor(ctx: AppContext, grant: Grant, need: Need): Access {
  if (need === 'owner') throw forbidden(OWNER_ONLY);
  if (need === 'write' && !grant.canWrite) throw forbidden(READ_ONLY);
  return { accountId: grant.ownerAccountId, grant, seesPrivate: grant.privateAccess, ctx: { ...ctx, accessorId: grant.accessorId } };
}

/**
 * The caller's access to the app user `appUserId`, for a request under it. Without a grant for
 * it, the caller is taken for its owner: the owner's queries then find it, or answer 404.
 */
export async function appUserAccess(ctx: AppContext, caller: Caller, appUserId: number, need: Need): Promise<Access> {
  const grant = (await caller.grants()).find((g) => g.appUserId === appUserId);
  return grant ? asAccessor(ctx, grant, need) : asOwner(ctx, caller.accountId);
}

const isNotFound = (error: unknown): boolean => error instanceof DomainError && error.kind === 'not-found';

/**
 * Runs `run` with the caller's access to the object `kind` `id` (or to what is under it): as its
 * owner first; when that answers 404 and the caller has grants, as the accessor of the object's
 * app user, if the object is visible to them and they may do what `need` says. `run` must
 * answer 404 without having changed anything (the write kernel's transaction does).
 */
export async function objectAccess<T>(
  ctx: AppContext,
  caller: Caller,
  kind: Kind,
  id: number,
  need: Need,
  run: (access: Access) => Promise<T>,
): Promise<T> {
  try {
    return await run(asOwner(ctx, caller.accountId));
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const grants = await caller.grants();
  if (grants.length === 0) throw notFound();
  const location = await locate(ctx.db.kysely, kind, id);
  const grant = location && grants.find((g) => g.appUserId === location.app_user_id);
  if (!grant || (location.in_private === 1 && !grant.privateAccess)) throw notFound();
  return run(asAccessor(ctx, grant, need));
}

/** An owner-only change within a request the caller may otherwise make (a profile's `is_private`). */
export function requireOwner(access: Access): void {
  if (access.grant) throw forbidden(OWNER_ONLY);
}
