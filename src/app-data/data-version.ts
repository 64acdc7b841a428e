import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Marks that something an app user holds has changed (a profile, topic, item, entry, media
 * resource, emergency item or contact). Call it in the same transaction as the change:
 * cached renderings of the app user's data key on this number.
 */
export async function bumpDataVersion(trx: Kysely<Database>, appUserId: number): Promise<void> {
  await trx.updateTable('app_users').set({ data_version: sql`data_version + 1` }).where('id', '=', appUserId).execute();
}
