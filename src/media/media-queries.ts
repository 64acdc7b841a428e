// The lookup of the file behind a signed URL. It takes no account id: there the signature is
// the credential (signed-urls.ts). The gallery's own queries are in src/app-data/gallery-queries.ts.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaRow } from './media-view.ts';

export function findMediaByStorageKey(db: Kysely<Database>, storageKey: string): Promise<(MediaRow & { app_user_id: number }) | undefined> {
  return db
    .selectFrom('media_resources')
    .select(['id', 'name', 'storage_key', 'content_type', 'size', 'app_user_id'])
    .where('storage_key', '=', storageKey)
    .executeTakeFirst();
}

/** Whether the accepted accessor `accessorId` still has the app user `appUserId` shared with it. */
export async function accessorSees(db: Kysely<Database>, accessorId: number, appUserId: number): Promise<boolean> {
  const row = await db
    .selectFrom('accessors')
    .select('id')
    .where('id', '=', accessorId)
    .where('app_user_id', '=', appUserId)
    .where('user_with_access_id', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}
