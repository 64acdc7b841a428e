// Accessors (docs/sharing.md, "Granting access"): the owner invites an address to an app user's
// data; the person invited accepts (the accessor is then bound to their account), declines, or
// later leaves; the owner changes what it may do, or revokes it.
//
// Who the caller is to an accessor: its owner; the person invited (the account that accepted
// it, or, while it is pending, any account with its address verified); or nobody, who gets 404.
// The routes under an app user (its accessor list and creates) ask the access kernel
// (app-data/kernel/access.ts) for the owner: an accessor of that app user gets 403, anyone else is
// taken for its owner and the queries, filtered on the owner's account, answer 404.
import type { Kysely } from 'kysely';
import { appUserAccess, requireAppUser } from '../app-data/kernel/access.ts';
import type { Precondition } from '../app-data/kernel/conditional-write.ts';
import { claimKey } from '../app-data/kernel/idempotent-create.ts';
import type { WriteTerms } from '../app-data/kernel/write-terms.ts';
import { enforceQuota } from '../app-data/kernel/quotas.ts';
import { grantLive } from '../auth/grants.ts';
import type { Caller } from '../auth/token-auth.ts';
import type { AppContext } from '../context.ts';
import type { UniqueIndex } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { conflict, fieldError, forbidden, message, notFound } from '../errors.ts';
import {
  bindAccessor,
  countAccessors,
  deleteAccessor,
  findAccessor,
  hasAccepted,
  insertAccessor,
  isInvited,
  isOwnAddress,
  listAccessors,
  listAccessorsSharedWith,
  listPendingAccessors,
  lockAccessor,
  lockOwnedAppUser,
  setAccessorProfiles,
  updatePermissions,
} from './accessor-queries.ts';
import { foreignIds } from '../app-data/kernel/foreign-ids.ts';
import { toAccessor, type Accessor, type AccessorChanges, type AccessorInput, type AccessorRow } from './accessor-schemas.ts';
import { checkInvitationsPerAccount, queueAcceptedNotice, queueInvitation } from './invitation-mail.ts';
import { recordActivity, type ActivityChanges } from '../activity/activity-events.ts';
import { changedAny, countOf, endOf } from '../activity/activity-changes.ts';
import { sameChosen } from '../db/chosen-ids.ts';
import { tellRestored } from './share-expiry.ts';

export const OWN_ADDRESS = 'sharing.ownAddress';
export const ALREADY_INVITED = 'sharing.alreadyInvited';
export const EMAIL_FIXED = 'sharing.emailFixed';
export const OWNER_CHANGES_ONLY = 'sharing.ownerChangesOnly';
export const OWN_DATA = 'sharing.ownData';
export const ALREADY_SHARED = 'sharing.alreadyShared';
export const EXPIRY_IN_PAST = 'sharing.expiryInPast';
const EXPIRY_TOO_FAR = 'sharing.expiryTooFar';
const LATEST_EXPIRY = Date.UTC(10_000, 0, 1);

/** `expires_at` as written (a time, or null: until revoked): a past time is 400. */
function expiryAt(value: string | null, now: number): number | null {
  if (value === null) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw fieldError('expires_at', 'validation.dateTime');
  if (at <= now) throw fieldError('expires_at', EXPIRY_IN_PAST);
  if (at >= LATEST_EXPIRY) throw fieldError('expires_at', EXPIRY_TOO_FAR);
  return at;
}

/**
 * `profiles` as written, checked against the app user's profiles (400 under `profiles` for any
 * other id), without repeats, ascending; null: every profile.
 */
async function checkedProfiles(
  trx: Kysely<Database>,
  ownerAccountId: number,
  appUserId: number,
  profiles: readonly number[] | null,
): Promise<number[] | null> {
  if (profiles === null) return null;
  const ids = [...new Set(profiles)].sort((a, b) => a - b);
  const foreign = await foreignIds(trx, 'profiles', ownerAccountId, appUserId, ids);
  if (foreign.length > 0) throw fieldError('profiles', message('sharing.notThisAppUsersProfiles', { ids: foreign.join(', ') }));
  return ids;
}

const ACCESSOR_INDEX: UniqueIndex = { name: 'accessors_app_user_email', columns: 'accessors.app_user_id, accessors.email_lower' };
/** One accessor per person and app user (migration 0015): the lock below keeps to it, the index guarantees it. */
const PERSON_INDEX: UniqueIndex = { name: 'accessors_user_with_access', columns: 'accessors.user_with_access_id, accessors.app_user_id' };

/**
 * A write transaction in which an account deleted meanwhile (the caller's, on an accept) makes
 * the write fail on its foreign key: that is the 404 of something no longer there.
 */
async function inWriteTransaction<T>(ctx: AppContext, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.writeTransaction(work);
  } catch (error) {
    if (ctx.db.isForeignKeyViolation(error)) throw notFound();
    if (ctx.db.isUniqueViolation(error, ACCESSOR_INDEX)) throw fieldError('email', ALREADY_INVITED);
    throw error;
  }
}

/**
 * An accessor's life in its app user's activity log (docs/activity.md), in the transaction of
 * the change: by the owner (invited, changed, revoked) or by the person invited (accepted,
 * declined, left); the object is the accessor, named by the address it was sent to.
 */
function accessorEvent(
  ctx: AppContext,
  trx: Kysely<Database>,
  accessor: { id: number; app_user_id: number; owner_account_id: number; email: string },
  action: 'invited' | 'accepted' | 'declined' | 'left' | 'changed' | 'revoked',
  by: Pick<Caller, 'accountId' | 'via'>,
  changes?: ActivityChanges,
): Promise<void> {
  const byAccountId = by.accountId;
  return recordActivity(trx, {
    accountId: accessor.owner_account_id,
    appUserId: accessor.app_user_id,
    at: ctx.clock.now(),
    actor: { kind: byAccountId === accessor.owner_account_id ? 'owner' : 'accessor', id: byAccountId },
    action,
    object: { type: 'accessor', id: accessor.id, name: accessor.email, ...(changes && { changes }) },
    via: by.via,
  });
}

/** What the owner's change of an accessor changed, for its event. */
function accessorChanges(before: AccessorRow, after: AccessorRow): ActivityChanges | undefined {
  return changedAny({
    ...(after.can_write !== before.can_write && { can_write: after.can_write === 1 }),
    ...(after.has_private_profile_access !== before.has_private_profile_access && {
      has_private_profile_access: after.has_private_profile_access === 1,
    }),
    ...(after.expires_at !== before.expires_at && { expires_at: endOf(after.expires_at) }),
    ...(!sameChosen(before.profiles, after.profiles) && { profiles: countOf(after.profiles) }),
  });
}

export async function listUserAccessors(ctx: AppContext, caller: Caller, appUserId: number): Promise<Accessor[]> {
  const access = await appUserAccess(caller, appUserId, 'owner');
  requireAppUser(access, appUserId);
  const rows = await listAccessors(ctx.db.kysely, access.accountId, appUserId);
  return rows.map((row) => toAccessor(ctx, row));
}

export async function createAccessor(
  ctx: AppContext,
  caller: Caller,
  appUserId: number,
  input: AccessorInput,
  terms: WriteTerms,
): Promise<Accessor> {
  const access = await appUserAccess(caller, appUserId, 'owner');
  const ownerAccountId = access.accountId;
  const canWrite = input.can_write ?? false;
  const privateAccess = input.has_private_profile_access ?? false;
  const now = ctx.clock.now();
  const expiresAt = expiryAt(input.expires_at ?? null, now);
  const created = await inWriteTransaction(ctx, async (trx) => {
    const appUser = await lockOwnedAppUser(ctx.db, trx, ownerAccountId, appUserId);
    if (!appUser) throw notFound();
    if (await isOwnAddress(trx, ownerAccountId, input.email)) throw fieldError('email', OWN_ADDRESS);
    if (await isInvited(trx, appUserId, input.email)) throw fieldError('email', ALREADY_INVITED);
    enforceQuota(await countAccessors(trx, appUserId), 1, ctx.config.quotas.accessorsPerUser, 'quotas.accessorsPerUser');
    await checkInvitationsPerAccount(ctx, trx, ownerAccountId);
    await claimKey(ctx, trx, terms.idempotencyKey);
    const profiles = await checkedProfiles(trx, ownerAccountId, appUserId, input.profiles ?? null);
    const id = await insertAccessor(trx, { appUserId, ownerAccountId, email: input.email, canWrite, privateAccess, expiresAt, now });
    if (profiles !== null) await setAccessorProfiles(trx, ownerAccountId, id, profiles);
    await accessorEvent(ctx, trx, { id, app_user_id: appUserId, owner_account_id: ownerAccountId, email: input.email }, 'invited', caller);
    await queueInvitation(ctx, trx, {
      ownerAccountId,
      email: input.email,
      appUserName: appUser.name,
      canWrite,
      expiresAt,
      someProfiles: profiles !== null,
    });
    return { id, appUserName: appUser.name, profiles };
  });
  ctx.outbox.wake();
  return toAccessor(ctx, {
    id: created.id,
    app_user_id: appUserId,
    owner_account_id: ownerAccountId,
    email: input.email,
    user_with_access_id: null,
    can_write: canWrite ? 1 : 0,
    has_private_profile_access: privateAccess ? 1 : 0,
    expires_at: expiresAt,
    profiles: created.profiles,
    created_at: now,
    app_user_name: created.appUserName,
    with_first_name: null,
    with_last_name: null,
  });
}

export async function getAccessor(ctx: AppContext, caller: Caller, id: number): Promise<Accessor> {
  const row = await findAccessor(ctx.db.kysely, caller.accountId, id);
  if (!row) throw notFound();
  return (await asSeenBy(ctx, ctx.db.kysely, caller.accountId, [row]))[0]!;
}

/**
 * Accessors as `accountId` sees them. To the person invited without private profile access, a
 * share limited to some profiles lists only the profiles it can see: the private ones in the
 * owner's list do not exist for them. The owner sees the list as it is.
 */
async function asSeenBy(ctx: AppContext, db: Kysely<Database>, accountId: number, rows: readonly AccessorRow[]): Promise<Accessor[]> {
  const narrowed = new Set(
    rows.filter(
      (row) =>
        row.owner_account_id !== accountId && row.has_private_profile_access === 0 && row.profiles !== null && row.profiles.length > 0,
    ),
  );
  const ids = [...new Set([...narrowed].flatMap((row) => row.profiles ?? []))];
  const hidden = new Set(
    ids.length === 0
      ? []
      : (await db.selectFrom('profiles').select('id').where('id', 'in', ids).where('is_private', '=', 1).execute()).map((p) => p.id),
  );
  return rows.map((row) => toAccessor(ctx, narrowed.has(row) ? { ...row, profiles: row.profiles!.filter((id) => !hidden.has(id)) } : row));
}

/** `precondition`: If-Match, checked on the accessor as it is once locked. */
async function checkHeld(
  ctx: AppContext,
  trx: Kysely<Database>,
  accountId: number,
  id: number,
  precondition?: Precondition,
): Promise<void> {
  if (!precondition) return;
  const row = await findAccessor(trx, accountId, id);
  if (row) precondition((await asSeenBy(ctx, trx, accountId, [row]))[0]!);
}

/**
 * The owner changes the permissions or the end date; `email` may be sent back as it is (any
 * case), not changed.
 */
export async function changeAccessor(
  ctx: AppContext,
  caller: Caller,
  id: number,
  changes: AccessorChanges,
  precondition?: Precondition,
): Promise<Accessor> {
  const accountId = caller.accountId;
  const restored = await inWriteTransaction(ctx, async (trx) => {
    const held = await lockAccessor(ctx.db, trx, accountId, id);
    if (!held) throw notFound();
    if (held.owner_account_id !== accountId) throw forbidden(OWNER_CHANGES_ONLY);
    const now = ctx.clock.now();
    // A later end date re-grants an expired accessor: no new invitation, and its next expiry is told again.
    const expiresAt = changes.expires_at === undefined ? undefined : expiryAt(changes.expires_at, now);
    const expiry = expiresAt === undefined ? {} : { expires_at: expiresAt, expiry_told_at: null };
    if (changes.email !== undefined && changes.email.toLowerCase() !== held.email.toLowerCase()) throw fieldError('email', EMAIL_FIXED);
    await checkHeld(ctx, trx, accountId, id, precondition);
    const set = {
      ...(changes.can_write === undefined ? {} : { can_write: changes.can_write ? (1 as const) : (0 as const) }),
      ...(changes.has_private_profile_access === undefined
        ? {}
        : { has_private_profile_access: changes.has_private_profile_access ? (1 as const) : (0 as const) }),
      ...expiry,
    };
    const profiles = changes.profiles === undefined ? undefined : await checkedProfiles(trx, accountId, held.app_user_id, changes.profiles);
    if (Object.keys(set).length === 0 && profiles === undefined) return false;
    const before = await findAccessor(trx, accountId, id);
    if (Object.keys(set).length > 0) await updatePermissions(trx, accountId, id, set);
    if (profiles !== undefined) await setAccessorProfiles(trx, accountId, id, profiles);
    const after = await findAccessor(trx, accountId, id);
    await accessorEvent(ctx, trx, held, 'changed', caller, before && after && accessorChanges(before, after));
    // The person who had lost access is told it is back (an invitation never accepted lost nothing).
    const person = held.user_with_access_id;
    const restores = expiresAt !== undefined && person !== null && !grantLive(held.expires_at, now);
    if (restores)
      await tellRestored(ctx, trx, {
        ...held,
        user_with_access_id: person,
        can_write: (set.can_write ?? held.can_write) === 1,
        expires_at: expiresAt,
      });
    return restores;
  });
  if (restored) ctx.outbox.wake();
  return getAccessor(ctx, caller, id);
}

/** By the owner it revokes; by the person invited it declines, or leaves. */
export async function removeAccessor(ctx: AppContext, caller: Caller, id: number, precondition?: Precondition): Promise<void> {
  await inWriteTransaction(ctx, async (trx) => {
    const held = await lockAccessor(ctx.db, trx, caller.accountId, id);
    if (!held) throw notFound();
    await checkHeld(ctx, trx, caller.accountId, id, precondition);
    const action = held.owner_account_id === caller.accountId ? 'revoked' : held.user_with_access_id === null ? 'declined' : 'left';
    await accessorEvent(ctx, trx, held, action, caller);
    await deleteAccessor(trx, id);
  });
}

/** The accessors the caller accepted: each names the app user shared with them, and DELETE on it leaves. */
export async function listSharedWithMe(ctx: AppContext, caller: Caller): Promise<Accessor[]> {
  const rows = await listAccessorsSharedWith(ctx.db.kysely, caller.accountId);
  return asSeenBy(ctx, ctx.db.kysely, caller.accountId, rows);
}

export async function listPending(ctx: AppContext, caller: Caller): Promise<Accessor[]> {
  const rows = await listPendingAccessors(ctx.db.kysely, caller.accountId, ctx.clock.now());
  return asSeenBy(ctx, ctx.db.kysely, caller.accountId, rows);
}

/**
 * Binds a pending accessor addressed to a verified address of the caller to the caller's
 * account, and tells the owner. Accepting it again answers the same. The owner cannot accept an
 * invitation to their own data (403), even one to an address they have since added: an account
 * never holds an accessor on its own app user. One accessor per person and app user: an
 * account that accepted another invitation to the same app user (sent to another of its
 * addresses) gets 409.
 */
export async function acceptAccessor(ctx: AppContext, caller: Caller, id: number): Promise<Accessor> {
  const accountId = caller.accountId;
  const seen = await findAccessor(ctx.db.kysely, accountId, id);
  if (!seen) throw notFound();
  if (seen.owner_account_id === accountId) throw forbidden(OWN_DATA);
  if (seen.user_with_access_id === accountId) return (await asSeenBy(ctx, ctx.db.kysely, accountId, [seen]))[0]!;
  // An invitation past its end date is gone for the person invited, as a revoked one is.
  if (seen.user_with_access_id === null && !grantLive(seen.expires_at, ctx.clock.now())) throw notFound();

  const accepted = await bindOnce(ctx, () =>
    inWriteTransaction(ctx, async (trx) => {
      // The app user first, as its owner's deletion locks it: then this accessor.
      const appUser = await lockOwnedAppUser(ctx.db, trx, seen.owner_account_id, seen.app_user_id);
      if (!appUser) throw notFound();
      const held = await lockAccessor(ctx.db, trx, accountId, id);
      if (!held) throw notFound();
      // A concurrent accept of the same request got there first.
      if (held.user_with_access_id === accountId) return false;
      if (await hasAccepted(trx, accountId, held.app_user_id)) throw conflict(ALREADY_SHARED);
      if (!(await bindAccessor(trx, id, accountId, ctx.clock.now()))) throw notFound();
      await accessorEvent(ctx, trx, held, 'accepted', caller);
      await queueAcceptedNotice(ctx, trx, {
        ownerAccountId: held.owner_account_id,
        email: held.email,
        appUserName: appUser.name,
        canWrite: held.can_write === 1,
      });
      return true;
    }),
  );
  if (accepted) ctx.outbox.wake();
  return getAccessor(ctx, caller, id);
}

async function bindOnce<T>(ctx: AppContext, bind: () => Promise<T>): Promise<T> {
  try {
    return await bind();
  } catch (error) {
    if (ctx.db.isUniqueViolation(error, PERSON_INDEX)) throw conflict(ALREADY_SHARED);
    throw error;
  }
}
