// Profiles (docs/app-data.md, docs/sharing.md). At most one profile of an app user is the default: making one
// default clears the flag on the others in the same transaction (the app user's row lock,
// taken by the owned-write kernel, queues concurrent "make default" requests, so they never
// collide on the one-default index). `is_private` is the owner's to change: an accessor who can
// write may do anything else to a profile they see.
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { requireAppUser, requireOwner, type Access } from './kernel/access.ts';
import { loadProfileDetail } from './views/profile-detail.ts';
import { ownedAppUser, writeOwned } from './kernel/owned-write.ts';
import type { WriteTerms } from './kernel/write-terms.ts';
import {
  clearDefaultProfile,
  countProfiles,
  deleteProfile,
  findProfile,
  insertProfile,
  listProfiles,
  updateProfile,
} from './profile-queries.ts';
import { toProfile, type Profile, type ProfileChanges, type ProfileDetail } from './profile-schemas.ts';
import { enforceQuota } from './kernel/quotas.ts';

const flag = (value: boolean): 0 | 1 => (value ? 1 : 0);

export async function listUserProfiles(ctx: AppContext, access: Access, appUserId: number): Promise<Profile[]> {
  const { accountId } = access;
  requireAppUser(access, appUserId);
  const rows = await listProfiles(ctx.db.kysely, accountId, appUserId, access.seesPrivate, access.profiles);
  return rows.map((row) => toProfile(ctx, row));
}

export async function createProfile(
  ctx: AppContext,
  access: Access,
  appUserId: number,
  input: { name: string; is_default?: boolean; is_private?: boolean },
  terms: WriteTerms,
): Promise<Profile> {
  const { accountId } = access;
  const isPrivate = input.is_private === true;
  if (isPrivate) requireOwner(access);
  const row = await writeOwned(ctx, terms, ownedAppUser(access, appUserId), async (trx) => {
    enforceQuota(await countProfiles(trx, accountId, appUserId), 1, ctx.config.quotas.profilesPerUser, 'quotas.profilesPerUser');
    const isDefault = input.is_default === true;
    if (isDefault) await clearDefaultProfile(trx, accountId, appUserId);
    return insertProfile(trx, { accountId, appUserId, name: input.name, isDefault, isPrivate });
  });
  return toProfile(ctx, row);
}

export async function changeProfile(
  ctx: AppContext,
  access: Access,
  profileId: number,
  changes: ProfileChanges,
  terms: WriteTerms,
): Promise<ProfileDetail | Readable> {
  const { accountId } = access;
  await writeOwned(
    ctx,
    terms,
    (trx) => findProfile(trx, accountId, profileId),
    async (trx, profile) => {
      if (changes.is_private !== undefined && flag(changes.is_private) !== profile.is_private) requireOwner(access);
      if (changes.is_default === true) await clearDefaultProfile(trx, accountId, profile.app_user_id);
      const values = {
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.is_default !== undefined && { is_default: flag(changes.is_default) }),
        ...(changes.is_private !== undefined && { is_private: flag(changes.is_private) }),
      };
      if (Object.keys(values).length > 0) await updateProfile(trx, accountId, profileId, values);
    },
  );
  const detail = await loadProfileDetail(ctx, access, profileId);
  if (!detail) throw notFound();
  return detail;
}

export async function removeProfile(ctx: AppContext, access: Access, id: number, terms: WriteTerms): Promise<void> {
  const { accountId } = access;
  await writeOwned(
    ctx,
    terms,
    (trx) => findProfile(trx, accountId, id),
    (trx) => deleteProfile(trx, accountId, id),
  );
}
