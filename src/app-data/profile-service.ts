// Creating and changing profiles. At most one profile of an app user is the default: making
// one default clears the flag on the others in the same transaction (the app user's row lock,
// taken by startChange, queues concurrent "make default" requests, so they never collide on
// the one-default index).
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { findAppUser } from './app-user-queries.ts';
import { loadProfileDetail } from './profile-detail.ts';
import { clearDefaultProfile, countProfiles, findProfile, insertProfile, updateProfile } from './profile-queries.ts';
import type { ProfileChanges, ProfileDetail, ProfileRow } from './profile-schemas.ts';
import { enforceQuota } from './quotas.ts';
import { startChange, writeAppData } from './write-transaction.ts';

export async function createProfile(
  ctx: AppContext,
  accountId: number,
  appUserId: number,
  input: { name: string; is_default?: boolean },
): Promise<ProfileRow> {
  return writeAppData(ctx, async (trx) => {
    if (!await findAppUser(trx, accountId, appUserId)) throw notFound();
    await startChange(trx, appUserId);
    enforceQuota(await countProfiles(trx, accountId, appUserId), 1, ctx.config.quotas.profilesPerUser, 'profiles per app user');
    const isDefault = input.is_default === true;
    if (isDefault) await clearDefaultProfile(trx, accountId, appUserId);
    return insertProfile(trx, { accountId, appUserId, name: input.name, isDefault });
  });
}

export async function changeProfile(ctx: AppContext, accountId: number, profileId: number, changes: ProfileChanges): Promise<ProfileDetail> {
  await writeAppData(ctx, async (trx) => {
    const profile = await findProfile(trx, accountId, profileId);
    if (!profile) throw notFound();
    await startChange(trx, profile.app_user_id);
    if (changes.is_default === true) await clearDefaultProfile(trx, accountId, profile.app_user_id);
    const values = {
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.is_default !== undefined && { is_default: changes.is_default ? 1 as const : 0 as const }),
    };
    if (Object.keys(values).length > 0) await updateProfile(trx, accountId, profileId, values);
  });
  const detail = await loadProfileDetail(ctx, accountId, profileId);
  if (!detail) throw notFound();
  return detail;
}
