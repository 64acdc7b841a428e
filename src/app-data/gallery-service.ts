// The gallery's logic: list, upload, rename, delete. Database writes go through the
// owned-write kernel (src/app-data/kernel/owned-write.ts); stored files follow the database: an upload's file
// is committed inside the transaction (and removed if the transaction fails), a deleted
// resource's file is removed after the commit by an outbox message written with the delete.
import { fingerprintUpload } from './kernel/idempotent-create.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { requireAppUser, type Access } from './kernel/access.ts';
import { invalid, notFound, type FieldErrors } from '../errors.ts';
import { removeMediaFiles } from '../media/media-cleanup.ts';
import { queueMediaRemoval } from '../media/media-removal.ts';
import type { UploadForm } from '../media/media-upload.ts';
import { toMediaResource, type MediaResource } from '../media/media-view.ts';
import { countMedia, deleteMedia, findMedia, insertMedia, listMedia, renameMedia } from './gallery-queries.ts';
import type { MediaChanges } from './gallery-schemas.ts';
import { checkUploadFields } from './gallery-upload-fields.ts';
import { ownedAppUser, writeOwned } from './kernel/owned-write.ts';
import type { WriteTerms } from './kernel/write-terms.ts';
import { enforceAccountBounds, enforceQuota } from './kernel/quotas.ts';

/** What the caller sees of the gallery: without private access, not the resources used only in private profiles; limited to some profiles, not those only the others show. */
export async function listGallery(ctx: AppContext, access: Access, appUserId: number): Promise<MediaResource[]> {
  const { accountId } = access;
  requireAppUser(access, appUserId);
  const rows = await listMedia(ctx.db.kysely, accountId, appUserId, access);
  return rows.map((row) => toMediaResource(ctx, access, row));
}

/**
 * `readForm` reads the upload (media-upload.ts); it is called only once the app user is known
 * to be the caller's. `log`: the request's logger.
 */
export async function uploadMedia(
  ctx: AppContext,
  access: Access,
  appUserId: number,
  readForm: () => Promise<UploadForm>,
  log: FastifyBaseLogger,
  terms: WriteTerms,
): Promise<MediaResource> {
  const { accountId } = access;
  // Checked before the body is read: a stranger's upload is not stored even for a moment.
  requireAppUser(access, appUserId);
  const { fields, file, fileError } = await readForm();
  const checked = checkUploadFields(fields);
  if ('errors' in checked || !file) {
    await file?.incoming.discard();
    const errors: FieldErrors = 'errors' in checked ? checked.errors : {};
    if (fileError !== undefined) errors.file = [fileError];
    throw invalid(errors);
  }
  const { name } = checked.valid;
  fingerprintUpload(terms, [`upload /app/users/${appUserId}/gallery/`, name, file.contentType, String(file.incoming.size), file.sha256]);

  let committed = false;
  try {
    const row = await writeOwned(
      ctx,
      terms,
      ownedAppUser(access, appUserId),
      async (trx, _, usage) => {
        enforceQuota(await countMedia(trx, accountId, appUserId), 1, ctx.config.quotas.mediaPerUser, 'quotas.mediaPerUser');
        enforceAccountBounds(ctx.config.quotas, usage);
        const inserted = await insertMedia(trx, {
          accountId,
          appUserId,
          name,
          storageKey: file.storageKey,
          contentType: file.contentType,
          size: file.incoming.size,
          now: ctx.clock.now(),
        });
        // Last step before the commit: a row never points at a file that is not there.
        await file.incoming.commit();
        committed = true;
        return inserted;
      },
      { mediaBytes: file.incoming.size },
    );
    return toMediaResource(ctx, access, row);
  } catch (error) {
    if (committed) await removeMediaFiles(ctx, [file.storageKey], log);
    else await file.incoming.discard();
    throw error;
  }
}

export async function getMedia(ctx: AppContext, access: Access, id: number): Promise<MediaResource> {
  const { accountId } = access;
  const row = await findMedia(ctx.db.kysely, accountId, id);
  if (!row) throw notFound();
  return toMediaResource(ctx, access, row);
}

export async function updateMedia(
  ctx: AppContext,
  access: Access,
  id: number,
  changes: MediaChanges,
  terms: WriteTerms,
): Promise<MediaResource> {
  const { accountId } = access;
  const { name } = changes;
  if (name === undefined) return getMedia(ctx, access, id);
  const row = await writeOwned(
    ctx,
    terms,
    (trx) => findMedia(trx, accountId, id),
    (trx) => renameMedia(trx, accountId, id, name),
  );
  if (!row) throw notFound();
  return toMediaResource(ctx, access, row);
}

export async function removeMedia(ctx: AppContext, access: Access, id: number, terms: WriteTerms): Promise<void> {
  const { accountId } = access;
  const deleted = await writeOwned(
    ctx,
    terms,
    (trx) => findMedia(trx, accountId, id),
    async (trx) => {
      const row = await deleteMedia(trx, accountId, id);
      // Durable: the removal commits with the delete, and survives a crash right after it.
      if (row) await queueMediaRemoval(ctx, trx, [row.storage_key]);
      return row;
    },
  );
  if (!deleted) throw notFound();
  ctx.outbox.wake();
}
