// Profiles (contract §5). At most one profile of an app user is the default: making one
// default clears the flag on the others in the same transaction (the app user's row lock,
// taken by the owned-write kernel, queues concurrent "make default" requests, so they never
// collide on the one-default index).
import type { AppContext } from '../context.ts';
import type { Readable } from 'node:stream';
import { notFound } from '../errors.ts';
import { findAppUser } from './app-user-queries.ts';
import { loadProfileDetail } from './profile-detail.ts';
import { ownedAppUser, writeOwned } from './owned-write.ts';
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
import { enforceQuota } from './quotas.ts';

export async function listUserProfiles(ctx: AppContext, accountId: number, appUserId: number): Promise<Profile[]> {
  if (!(await findAppUser(ctx.db.kysely, accountId, appUserId))) throw notFound();
  const rows = await listProfiles(ctx.db.kysely, accountId, appUserId);
  return rows.map((row) => toProfile(ctx, row));
}

export async function createProfile(
  ctx: AppContext,
  accountId: number,
  appUserId: number,
  input: { name: string; is_default?: boolean },
): Promise<Profile> {
  const row = await writeOwned(ctx, ownedAppUser(accountId, appUserId), async (trx) => {
    enforceQuota(await countProfiles(trx, accountId, appUserId), 1, ctx.config.quotas.profilesPerUser, 'profiles per app user');
    const isDefault = input.is_default === true;
    if (isDefault) await clearDefaultProfile(trx, accountId, appUserId);
    return insertProfile(trx, { accountId, appUserId, name: input.name, isDefault });
  });
  return toProfile(ctx, row);
}

export async function changeProfile(
  ctx: AppContext,
  accountId: number,
  profileId: number,
  changes: ProfileChanges,
): Promise<ProfileDetail | Readable> {
  await writeOwned(
    ctx,
    (trx) => findProfile(trx, accountId, profileId),
    async (trx, profile) => {
      if (changes.is_default === true) await clearDefaultProfile(trx, accountId, profile.app_user_id);
      const values = {
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.is_default !== undefined && { is_default: changes.is_default ? (1 as const) : (0 as const) }),
      };
      if (Object.keys(values).length > 0) await updateProfile(trx, accountId, profileId, values);
    },
  );
  const detail = await loadProfileDetail(ctx, accountId, profileId);
  if (!detail) throw notFound();
  return detail;
}

export async function removeProfile(ctx: AppContext, accountId: number, id: number): Promise<void> {
  await writeOwned(
    ctx,
    (trx) => findProfile(trx, accountId, id),
    (trx) => deleteProfile(trx, accountId, id),
  );
}
