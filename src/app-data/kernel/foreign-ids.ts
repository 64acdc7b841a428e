// Lists of ids a request names on an app user's behalf (an emergency link's items and contacts,
// an accessor's profiles): which of them are not that app user's.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isStorableId } from '../../http/ids.ts';

/** What such a list may name: objects an app user holds directly. */
export type HeldTable = 'emergency_items' | 'emergency_contacts' | 'profiles';

/** The ids among `ids` that are not rows of `table` held by the app user, in the order given. */
export async function foreignIds(
  db: Kysely<Database>,
  table: HeldTable,
  accountId: number,
  appUserId: number,
  ids: readonly number[],
): Promise<number[]> {
  // An id no row can have is foreign without asking (PostgreSQL would refuse it as out of range).
  const possible = ids.filter(isStorableId);
  if (possible.length === 0) return [...ids];
  const found = await db
    .selectFrom(table)
    .select('id')
    .where('id', 'in', possible)
    .where('account_id', '=', accountId)
    .where('app_user_id', '=', appUserId)
    .execute();
  const held = new Set(found.map((row) => row.id));
  return ids.filter((id) => !held.has(id));
}
