// Emergency items (docs/app-data.md): the attached media must be the same app user's.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import { requireAppUser, type Access } from './kernel/access.ts';
import type { Database } from '../db/schema.ts';
import { invalid, notFound } from '../errors.ts';
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
import type { MediaView } from '../auth/private-media.ts';
import { ownedAppUser, writeOwned } from './kernel/owned-write.ts';
import type { WriteTerms } from './kernel/write-terms.ts';
import { enforceQuota } from './kernel/quotas.ts';

export async function listUserEmergencyItems(ctx: AppContext, access: Access, appUserId: number): Promise<EmergencyItem[]> {
  const { accountId } = access;
  requireAppUser(access, appUserId);
  const rows = await listEmergencyItems(ctx.db.kysely, accountId, appUserId);
  return rows.map((row) => toEmergencyItem(ctx, access, row));
}

export async function getEmergencyItem(ctx: AppContext, access: Access, id: number): Promise<EmergencyItem> {
  const { accountId } = access;
  return toEmergencyItem(ctx, access, await reload(ctx.db.kysely, accountId, id));
}

export async function createEmergencyItem(
  ctx: AppContext,
  access: Access,
  appUserId: number,
  input: EmergencyItemInput,
  terms: WriteTerms,
): Promise<EmergencyItem> {
  const { accountId } = access;
  const row = await writeOwned(ctx, terms, ownedAppUser(access, appUserId), async (trx) => {
    enforceQuota(
      await countEmergencyItems(trx, accountId, appUserId),
      1,
      ctx.config.quotas.emergencyItemsPerUser,
      'quotas.emergencyItemsPerUser',
    );
    await checkMedia(trx, accountId, appUserId, input.media_resource, access);
    const id = await insertEmergencyItem(trx, {
      accountId,
      appUserId,
      name: input.name,
      description: input.description ?? '',
      mediaResourceId: input.media_resource ?? null,
    });
    return reload(trx, accountId, id);
  });
  return toEmergencyItem(ctx, access, row);
}

export async function changeEmergencyItem(
  ctx: AppContext,
  access: Access,
  id: number,
  changes: EmergencyItemChanges,
  terms: WriteTerms,
): Promise<EmergencyItem> {
  const { accountId } = access;
  const row = await writeOwned(
    ctx,
    terms,
    (trx) => findEmergencyItem(trx, accountId, id),
    async (trx, item) => {
      await checkMedia(trx, accountId, item.app_user_id, changes.media_resource, access);
      const values = {
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.description !== undefined && { description: changes.description }),
        ...(changes.media_resource !== undefined && { media_resource_id: changes.media_resource }),
      };
      if (Object.keys(values).length > 0) await updateEmergencyItem(trx, accountId, id, values);
      return reload(trx, accountId, id);
    },
  );
  return toEmergencyItem(ctx, access, row);
}

/** The item goes; its media resource stays in the gallery. */
export async function removeEmergencyItem(ctx: AppContext, access: Access, id: number, terms: WriteTerms): Promise<void> {
  const { accountId } = access;
  await writeOwned(
    ctx,
    terms,
    (trx) => findEmergencyItem(trx, accountId, id),
    (trx) => deleteEmergencyItem(trx, accountId, id),
  );
}

/** `writer`: which media the writer sees (media-references.ts). */
async function checkMedia(
  trx: Kysely<Database>,
  accountId: number,
  appUserId: number,
  mediaId: number | null | undefined,
  writer: MediaView,
): Promise<void> {
  const errors = await invalidMediaReferences(trx, accountId, appUserId, { media_resource: mediaId }, writer);
  if (errors) throw invalid(errors);
}

async function reload(trx: Kysely<Database>, accountId: number, id: number): Promise<OwnedEmergencyItemRow> {
  const item = await findEmergencyItem(trx, accountId, id);
  if (!item) throw notFound();
  return item;
}
