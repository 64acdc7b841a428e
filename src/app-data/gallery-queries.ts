// Queries on the gallery's media_resources rows. Every one takes the caller's account id.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaRow } from '../media/media-view.ts';
import { visibleMedia, type MediaView } from '../auth/private-media.ts';

const COLUMNS = ['id', 'name', 'storage_key', 'content_type', 'size'] as const;

export interface MediaRecord extends MediaRow {
  app_user_id: number;
}

/** The app user's media that `view` sees (auth/private-media.ts). */
export function listMedia(db: Kysely<Database>, accountId: number, appUserId: number, view: MediaView): Promise<MediaRow[]> {
  let query = db.selectFrom('media_resources').select(COLUMNS).where('app_user_id', '=', appUserId).where('account_id', '=', accountId);
  const visible = visibleMedia(view);
  if (visible) query = query.where(visible('media_resources'));
  return query.orderBy('id').execute();
}

/** Media by id, with whether each is used only in private profiles (the changes of docs/offline-and-live.md). */
export function listMediaByIds(db: Kysely<Database>, accountId: number, ids: readonly number[]) {
  return db
    .selectFrom('media_resources')
    .select([...COLUMNS, 'in_private'])
    .where('id', 'in', ids)
    .where('account_id', '=', accountId)
    .execute();
}

export function findMedia(db: Kysely<Database>, accountId: number, id: number): Promise<MediaRecord | undefined> {
  return db
    .selectFrom('media_resources')
    .select([...COLUMNS, 'app_user_id'])
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function countMedia(db: Kysely<Database>, accountId: number, appUserId: number): Promise<number> {
  const row = await db
    .selectFrom('media_resources')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function insertMedia(
  trx: Kysely<Database>,
  values: { accountId: number; appUserId: number; name: string; storageKey: string; contentType: string; size: number; now: number },
): Promise<MediaRow> {
  return trx
    .insertInto('media_resources')
    .values({
      account_id: values.accountId,
      app_user_id: values.appUserId,
      name: values.name,
      storage_key: values.storageKey,
      content_type: values.contentType,
      size: values.size,
      created_at: values.now,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export function renameMedia(trx: Kysely<Database>, accountId: number, id: number, name: string): Promise<MediaRow | undefined> {
  return trx
    .updateTable('media_resources')
    .set({ name })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/**
 * Deletes the row; the foreign keys of image_contents and emergency_items set their
 * references to null. Returns what is needed to remove the stored file afterwards.
 */
export function deleteMedia(trx: Kysely<Database>, accountId: number, id: number): Promise<{ storage_key: string } | undefined> {
  return trx
    .deleteFrom('media_resources')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning('storage_key')
    .executeTakeFirst();
}
