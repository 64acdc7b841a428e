// Emergency items (docs/app-data.md): the attached media must be the same app user's.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { invalid, notFound } from '../errors.ts';
import { findAppUser } from './app-user-queries.ts';
import {
  countEmergencyItems,
  deleteEmergencyItem,
  findEmergencyItem,
  insertEmergencyItem,
  listEmergencyItems,
  updateEmergencyItem,
  type OwnedEmergencyItemRow,
} from './emergency-item-queries.ts';
import { toEmergencyItem, type EmergencyItem, type EmergencyItemChanges, type EmergencyItemInput } from './emergency-item-schemas.ts';
import { invalidMediaReferences } from './media-references.ts';
import { ownedAppUser, writeOwned } from './owned-write.ts';
import { enforceQuota } from './quotas.ts';

export async function listUserEmergencyItems(ctx: AppContext, accountId: number, appUserId: number): Promise<EmergencyItem[]> {
  if (!(await findAppUser(ctx.db.kysely, accountId, appUserId))) throw notFound();
  const rows = await listEmergencyItems(ctx.db.kysely, accountId, appUserId);
  return rows.map((row) => toEmergencyItem(ctx, row));
}

export async function getEmergencyItem(ctx: AppContext, accountId: number, id: number): Promise<EmergencyItem> {
  return toEmergencyItem(ctx, await reload(ctx.db.kysely, accountId, id));
}

export async function createEmergencyItem(
  ctx: AppContext,
  accountId: number,
  appUserId: number,
  input: EmergencyItemInput,
  seesPrivate: boolean,
): Promise<EmergencyItem> {
  const row = await writeOwned(ctx, ownedAppUser(accountId, appUserId), async (trx) => {
    enforceQuota(
      await countEmergencyItems(trx, accountId, appUserId),
      1,
      ctx.config.quotas.emergencyItemsPerUser,
      'emergency items per app user',
    );
    await checkMedia(trx, accountId, appUserId, input.media_resource, seesPrivate);
    const id = await insertEmergencyItem(trx, {
      accountId,
      appUserId,
      name: input.name,
      description: input.description ?? '',
      mediaResourceId: input.media_resource ?? null,
    });
    return reload(trx, accountId, id);
  });
  return toEmergencyItem(ctx, row);
}

export async function changeEmergencyItem(
  ctx: AppContext,
  accountId: number,
  id: number,
  changes: EmergencyItemChanges,
  seesPrivate: boolean,
): Promise<EmergencyItem> {
  const row = await writeOwned(
    ctx,
    (trx) => findEmergencyItem(trx, accountId, id),
    async (trx, item) => {
      await checkMedia(trx, accountId, item.app_user_id, changes.media_resource, seesPrivate);
      const values = {
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.description !== undefined && { description: changes.description }),
        ...(changes.media_resource !== undefined && { media_resource_id: changes.media_resource }),
      };
      if (Object.keys(values).length > 0) await updateEmergencyItem(trx, accountId, id, values);
      return reload(trx, accountId, id);
    },
  );
  return toEmergencyItem(ctx, row);
}

/** The item goes; its media resource stays in the gallery. */
export async function removeEmergencyItem(ctx: AppContext, accountId: number, id: number): Promise<void> {
  await writeOwned(
    ctx,
    (trx) => findEmergencyItem(trx, accountId, id),
    (trx) => deleteEmergencyItem(trx, accountId, id),
  );
}

/** `seesPrivate`: whether the writer sees the media used only in private profiles. */
async function checkMedia(
  trx: Kysely<Database>,
  accountId: number,
  appUserId: number,
  mediaId: number | null | undefined,
  seesPrivate: boolean,
): Promise<void> {
  const errors = await invalidMediaReferences(trx, accountId, appUserId, { media_resource: mediaId }, seesPrivate);
  if (errors) throw invalid(errors);
}

async function reload(trx: Kysely<Database>, accountId: number, id: number): Promise<OwnedEmergencyItemRow> {
  const item = await findEmergencyItem(trx, accountId, id);
  if (!item) throw notFound();
  return item;
}
