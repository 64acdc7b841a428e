// The lookup of the file behind a signed URL. It takes no account id: there the signature is
// the credential (signed-urls.ts). The gallery's own queries are in src/app-data/gallery-queries.ts.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaRow } from './media-view.ts';

export function findMediaByStorageKey(db: Kysely<Database>, storageKey: string): Promise<MediaRow | undefined> {
  return db
    .selectFrom('media_resources')
    .select(['id', 'name', 'storage_key', 'content_type', 'size'])
    .where('storage_key', '=', storageKey)
    .executeTakeFirst();
}
