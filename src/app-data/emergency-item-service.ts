// Creating and changing emergency items: the attached media must be the same app user's.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { findAppUser } from './app-user-queries.ts';
import {
  countEmergencyItems, findEmergencyItem, insertEmergencyItem, updateEmergencyItem, type OwnedEmergencyItemRow,
} from './emergency-item-queries.ts';
import type { EmergencyItemChanges, EmergencyItemInput } from './emergency-item-schemas.ts';
import { invalidMediaReferences } from './media-references.ts';
import { enforceQuota } from './quotas.ts';
import { startChange, writeAppData } from './write-transaction.ts';

export async function createEmergencyItem(
  ctx: AppContext,
  accountId: number,
  appUserId: number,
  input: EmergencyItemInput,
): Promise<OwnedEmergencyItemRow> {
  return writeAppData(ctx, async (trx) => {
    if (!await findAppUser(trx, accountId, appUserId)) throw notFound();
    await startChange(trx, appUserId);
    enforceQuota(await countEmergencyItems(trx, accountId, appUserId), 1, ctx.config.quotas.emergencyItemsPerUser, 'emergency items per app user');
    await checkMedia(trx, accountId, appUserId, input.media_resource);
    const id = await insertEmergencyItem(trx, {
      accountId,
      appUserId,
      name: input.name,
      description: input.description ?? '',
      mediaResourceId: input.media_resource ?? null,
    });
    return reload(trx, accountId, id);
  });
}

export async function changeEmergencyItem(
  ctx: AppContext,
  accountId: number,
  id: number,
  changes: EmergencyItemChanges,
): Promise<OwnedEmergencyItemRow> {
  return writeAppData(ctx, async (trx) => {
    const item = await findEmergencyItem(trx, accountId, id);
    if (!item) throw notFound();
    await startChange(trx, item.app_user_id);
    await checkMedia(trx, accountId, item.app_user_id, changes.media_resource);
    const values = {
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.description !== undefined && { description: changes.description }),
      ...(changes.media_resource !== undefined && { media_resource_id: changes.media_resource }),
    };
    if (Object.keys(values).length > 0) await updateEmergencyItem(trx, accountId, id, values);
    return reload(trx, accountId, id);
  });
}

async function checkMedia(trx: Kysely<Database>, accountId: number, appUserId: number, mediaId: number | null | undefined): Promise<void> {
  const errors = await invalidMediaReferences(trx, accountId, appUserId, { media_resource: mediaId });
  if (errors) throw badRequest(errors);
}

async function reload(trx: Kysely<Database>, accountId: number, id: number): Promise<OwnedEmergencyItemRow> {
  const item = await findEmergencyItem(trx, accountId, id);
  if (!item) throw notFound();
  return item;
}
