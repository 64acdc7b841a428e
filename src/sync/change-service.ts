// Changes since a cursor (docs/offline-and-live.md): what happened to an app user's data, in commit order,
// as the caller may see it. The log (migration 0019) names objects; their data is read now, so
// an object changed several times within a page is sent once, at its last change, as it is now.
//
// For an accessor without private access (docs/sharing.md), a private profile does not exist: a
// profile they had seen that goes private, or is deleted, reads as its deletion; one they had
// not seen is not mentioned; what is under a private profile is not sent. Whether they had seen
// it is what the profile's first change in the page says of the time before it (the log keeps
// it). A profile that stops being private logs everything under it again (the migration's
// trigger), so it arrives whole. A media resource used only in private profiles is private in
// the same way (migration 0028): its own rows say whether it was hidden before, and a change of
// its privacy is logged as an upsert of it.
//
// For an accessor limited to some profiles, the others do not exist either: nothing under them
// is sent, nor their deletions. With private access, a private media resource exists for it
// while an image item under one of its profiles shows it (auth/private-media.ts): an upsert of
// one it does not see is sent as its deletion (migration 0045 logs one whenever an image starts
// or stops showing it). When the list has lost profiles since the cursor, the page begins with
// the deletion of each one lost (that the accessor could see), and of each private media
// resource only those showed; a list that has gained profiles refuses the cursor (410), as
// every other change of view does.
import { listProfiles } from '../app-data/profile-queries.ts';
import { requireAppUser, type Access } from '../app-data/kernel/access.ts';
import type { AppContext } from '../context.ts';
import type { SyncedType } from '../db/synced-types.ts';
import { gone } from '../errors.ts';
import { keyOf, loadCurrent, type Current } from './change-data.ts';
import { changesAfter, newestChangeId, profilePrivacy, sweptThrough, type ChangeRow } from './change-queries.ts';
import { openCursor, sealCursor, viewOf } from './cursor.ts';
import { sameChosen } from '../db/chosen-ids.ts';
import { privateMediaLost, privateMediaShown } from '../auth/private-media.ts';

export const PAGE_SIZE = 500;

export interface Change {
  type: SyncedType;
  id: number;
  op: 'upsert' | 'delete';
  data?: Record<string, unknown>;
}

export interface ChangesPage {
  cursor: string;
  changes: Change[];
  has_more: boolean;
}

const STALE_CURSOR = 'sync.staleCursor';

/**
 * How each type is hidden from an accessor without private access: never; with the profile it
 * lies under; or by itself, its rows keeping whether it was hidden just before.
 */
const PRIVACY: Record<SyncedType, 'never' | 'under_profile' | 'by_itself'> = {
  app_user: 'never',
  profile: 'by_itself',
  topic: 'under_profile',
  item: 'under_profile',
  list_entry: 'under_profile',
  emergency_item: 'never',
  emergency_contact: 'never',
  media_resource: 'by_itself',
};
const underProfile = (type: SyncedType) => PRIVACY[type] === 'under_profile';

/** The newest change the caller may start from. */
export async function currentChangeId(ctx: AppContext, access: Access, appUserId: number): Promise<number> {
  const newest = await newestChangeId(ctx.db.kysely, access.accountId, appUserId);
  return newest ?? (await sweptThrough(ctx.db.kysely));
}

/** Where a client resumes: after `changeId`, having first deleted the profiles `lost` (a narrowed share). */
export interface Resume {
  changeId: number;
  lost: Change[];
}

/** The change id `since` names, checked against the caller's view and what is kept (410 otherwise). */
export async function checkedSince(ctx: AppContext, access: Access, appUserId: number, since: string): Promise<Resume> {
  const opened = openCursor(ctx.secrets.cursors, since, appUserId, viewOf(access));
  if (opened === undefined) throw gone(STALE_CURSOR);
  const { changeId } = opened;
  const [horizon, newest] = await Promise.all([sweptThrough(ctx.db.kysely), newestChangeId(ctx.db.kysely, access.accountId, appUserId)]);
  // What currentChangeId answers, from the horizon already read.
  const current = newest ?? horizon;
  if (changeId < horizon || changeId > current) throw gone(STALE_CURSOR);
  return { changeId, lost: await profilesLost(ctx, access, appUserId, opened.profiles) };
}

/** The deletions of the profiles the caller saw under `before` (a cursor's list) and no longer sees; 410 when it sees more now. */
async function profilesLost(ctx: AppContext, access: Access, appUserId: number, before: readonly number[] | null): Promise<Change[]> {
  const now = access.profiles;
  if (sameChosen(before, now)) return [];
  if (now === null || (before !== null && now.some((id) => !before.includes(id)))) throw gone(STALE_CURSOR);
  const seen = await listProfiles(ctx.db.kysely, access.accountId, appUserId, access.seesPrivate, before);
  const lost = seen.filter((profile) => !now.includes(profile.id)).map((profile) => profile.id);
  const media = access.seesPrivate ? await privateMediaLost(ctx.db.kysely, access.accountId, appUserId, lost, now) : [];
  return [
    ...lost.map((id): Change => ({ type: 'profile', id, op: 'delete' })),
    ...media.map((id): Change => ({ type: 'media_resource', id, op: 'delete' })),
  ];
}

/** GET /app/users/{id}/changes/: without `since`, the current cursor and nothing else. */
export async function changesSince(ctx: AppContext, access: Access, appUserId: number, since: string | undefined): Promise<ChangesPage> {
  requireAppUser(access, appUserId);
  const view = viewOf(access);
  if (since === undefined) {
    const changeId = await currentChangeId(ctx, access, appUserId);
    return {
      cursor: sealCursor(ctx.secrets.cursors, { appUserId, view, changeId, profiles: access.profiles }),
      changes: [],
      has_more: false,
    };
  }
  const { changeId: after, lost } = await checkedSince(ctx, access, appUserId, since);
  const rows = await changesAfter(ctx.db.kysely, access.accountId, appUserId, after, PAGE_SIZE + 1);
  const page = rows.slice(0, PAGE_SIZE);
  const last = page.at(-1);
  return {
    cursor: sealCursor(ctx.secrets.cursors, { appUserId, view, changeId: last ? last.id : after, profiles: access.profiles }),
    changes: [...lost, ...(await changesOf(ctx, access, appUserId, page)).map((placed) => placed.change)],
    has_more: rows.length > PAGE_SIZE,
  };
}

/** A change and the log row it was read at (its cursor). */
export interface Placed {
  change: Change;
  at: number;
}

/** The page's rows as the caller sees them: each object once, at its last change. */
export async function changesOf(ctx: AppContext, access: Access, appUserId: number, rows: readonly ChangeRow[]): Promise<Placed[]> {
  const lastOf = new Map<string, number>();
  const firstOf = new Map<string, ChangeRow>();
  for (const [index, row] of rows.entries()) {
    const key = keyOf(row.type, row.object_id);
    lastOf.set(key, index);
    if (!firstOf.has(key)) firstOf.set(key, row);
  }
  // Whether a viewer without private access had the profile (or media resource) before this page's changes.
  const seenBefore = (row: ChangeRow) => firstOf.get(keyOf(row.type, row.object_id))?.in_private === 0;
  const latest = rows.filter((row, index) => lastOf.get(keyOf(row.type, row.object_id)) === index);

  const wanted = new Map<SyncedType, number[]>();
  for (const row of latest) {
    if (row.op !== 'upsert') continue;
    const ids = wanted.get(row.type) ?? [];
    ids.push(row.object_id);
    wanted.set(row.type, ids);
  }
  const hidesPrivate = !access.seesPrivate && latest.some((row) => row.type === 'profile' || underProfile(row.type));
  const [current, privacy] = await Promise.all([
    loadCurrent(ctx, access, ctx.db.kysely, appUserId, wanted),
    hidesPrivate ? profilePrivacy(ctx.db.kysely, access.accountId, appUserId) : Promise.resolve(undefined),
  ]);
  const mediaShown = await limitedPrivateMedia(ctx, access, wanted.get('media_resource') ?? [], current);

  const changes: Placed[] = [];
  const push = (change: Change, row: ChangeRow) => changes.push({ change, at: row.id });
  const listed = access.profiles;
  /** Whether the profile an object is or lies under exists for the caller (null: it lies under none). */
  const inList = (profileId: number | null) => listed === null || profileId === null || listed.includes(profileId);
  for (const row of latest) {
    const tombstone: Change = { type: row.type, id: row.object_id, op: 'delete' };
    if (!inList(row.type === 'profile' ? row.object_id : row.profile_id)) continue;
    if (row.op === 'delete') {
      if (!access.seesPrivate && PRIVACY[row.type] === 'by_itself' && !seenBefore(row)) continue;
      if (privacy && underProfile(row.type) && !deleteSeen(row, privacy)) continue;
      push(tombstone, row);
      continue;
    }
    const now = current.get(keyOf(row.type, row.object_id));
    // Gone since: its own tombstone follows, or its parent's did.
    if (!now) continue;
    if (!inList(row.type === 'profile' ? row.object_id : now.profileId)) continue;
    const underPrivate = privacy !== undefined && now.profileId !== null && privacy.get(now.profileId) === true;
    if (!access.seesPrivate && (now.inPrivate || underPrivate)) {
      if (PRIVACY[row.type] === 'by_itself' && seenBefore(row)) push(tombstone, row);
      continue;
    }
    if (mediaShown && row.type === 'media_resource' && now.inPrivate && !mediaShown.has(row.object_id)) {
      push(tombstone, row);
      continue;
    }
    push({ type: row.type, id: row.object_id, op: 'upsert', data: now.data }, row);
  }
  return changes;
}

/**
 * For an accessor limited to some profiles, with private access: of the private media resources
 * among `current`, those an image item under its profiles shows (auth/private-media.ts);
 * undefined for every other caller.
 */
async function limitedPrivateMedia(
  ctx: AppContext,
  access: Access,
  mediaIds: readonly number[],
  current: ReadonlyMap<string, Current>,
): Promise<Set<number> | undefined> {
  if (!access.seesPrivate || access.profiles === null) return undefined;
  const ids = mediaIds.filter((id) => current.get(keyOf('media_resource', id))?.inPrivate);
  return privateMediaShown(ctx.db.kysely, ids, access.profiles);
}

/** Whether an accessor without private access is told of a deletion under a profile. */
function deleteSeen(row: ChangeRow, privacy: ReadonlyMap<number, boolean>): boolean {
  const privateNow = row.profile_id === null ? undefined : privacy.get(row.profile_id);
  // The profile is gone too: its own tombstone is sent; this one only if it was not private then.
  if (privateNow === undefined) return row.in_private === 0;
  return !privateNow;
}
