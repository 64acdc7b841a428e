// Media ids written into items' image content and emergency items must name media resources
// of the same app user that the writer sees; anything else is refused as if it did not exist.
// A writer without private profile access does not see the resources used only in private
// profiles, and one limited to some profiles not those only the others show
// (auth/private-media.ts): showing one in an item they can read would hand it to them.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { visibleMedia, type MediaView } from '../auth/private-media.ts';
import { type FieldErrors, message } from '../errors.ts';

const MAX_ID = 2_147_483_647;

/** field name → the id written there (null and undefined refer to nothing). */
export type MediaReferences = Record<string, number | null | undefined>;

/**
 * Errors keyed by field for each id that is not a media resource of `appUserId` that the writer
 * sees (`view`); undefined when all are.
 */
export async function invalidMediaReferences(
  db: Kysely<Database>,
  accountId: number,
  appUserId: number,
  references: MediaReferences,
  view: MediaView,
): Promise<FieldErrors | undefined> {
  const given = Object.entries(references).filter((entry): entry is [string, number] => typeof entry[1] === 'number');
  const candidates = given.map(([, id]) => id).filter((id) => id >= 1 && id <= MAX_ID);
  const found = new Set<number>();
  if (candidates.length > 0) {
    let query = db
      .selectFrom('media_resources')
      .select('id')
      .where('id', 'in', candidates)
      .where('app_user_id', '=', appUserId)
      .where('account_id', '=', accountId);
    const visible = visibleMedia(view);
    if (visible) query = query.where(visible('media_resources'));
    const rows = await query.execute();
    for (const row of rows) found.add(row.id);
  }
  const errors: FieldErrors = {};
  for (const [field, id] of given) {
    if (!found.has(id)) errors[field] = [message('validation.noSuchObject', { id })];
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}
