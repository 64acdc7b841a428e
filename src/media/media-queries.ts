// The lookup of the file behind a signed URL. It takes no account id: there the signature is
// the credential (signed-urls.ts). The gallery's own queries are in src/app-data/gallery-queries.ts.
import type { Kysely } from 'kysely';
import { currentGrant, grantSees } from '../auth/grants.ts';
import { limitedSeesMedia } from '../auth/private-media.ts';
import type { Database } from '../db/schema.ts';
import type { MediaRow } from './media-view.ts';

export interface StoredMedia extends MediaRow {
  app_user_id: number;
  /** 1: used only in private profiles. */
  in_private: number;
}

export function findMediaByStorageKey(db: Kysely<Database>, storageKey: string): Promise<StoredMedia | undefined> {
  return db
    .selectFrom('media_resources')
    .select(['id', 'name', 'storage_key', 'content_type', 'size', 'app_user_id', 'in_private'])
    .where('storage_key', '=', storageKey)
    .executeTakeFirst();
}

/**
 * Whether the accepted accessor `accessorId` still sees `media`: its app user is still shared
 * with it, and, for a resource used only in private profiles, with private profile access and,
 * when limited to some profiles, shown under one of them (auth/private-media.ts).
 */
export async function accessorSees(db: Kysely<Database>, accessorId: number, media: StoredMedia, now: number): Promise<boolean> {
  const grant = await currentGrant(db, accessorId, now);
  return grant !== undefined && grantSees(grant, { ...media, profile_id: null }) && (await limitedSeesMedia(db, grant.profiles, media));
}
