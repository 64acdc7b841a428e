// A list item create as one call of the database function create_list_item (migration 0012;
// PostgreSQL, where `ctx.db.writeFunctions`): one round trip instead of a transaction of seven.
// It makes the same checks in the same order as the transaction path (item-service.ts), and
// answers the same: 404 for a topic that is not the caller's, 400 over the items quota.
import { CompiledQuery } from 'kysely';
import type { AppContext } from '../context.ts';
import { codeOf } from '../db/driver-errors.ts';
import { notFound } from '../errors.ts';
import type { ListEntryRow } from './list-entry-schemas.ts';
import { enforceQuota } from './quotas.ts';

const CALL = 'select o_item_id, o_list_content_id, o_entry_ids from create_list_item($1, $2, $3, $4, $5)';
/** The function's SQLSTATE for a topic already at its items quota. */
const OVER_QUOTA = 'PSQ01';

interface Created {
  o_item_id: number;
  o_list_content_id: number;
  o_entry_ids: number[];
}

export interface CreatedListItem {
  itemId: number;
  listContentId: number;
  entries: ListEntryRow[];
}

export async function callCreateListItem(
  ctx: AppContext,
  accountId: number,
  topicId: number,
  name: string,
  texts: string[],
): Promise<CreatedListItem> {
  const quota = ctx.config.quotas.itemsPerTopic;
  let rows: Created[];
  try {
    rows = await ctx.db.executePrepared<Created>('create_list_item', CompiledQuery.raw(CALL, [accountId, topicId, name, texts, quota]));
  } catch (error) {
    // The message the transaction path gives (quotas.ts), from the same check.
    if (codeOf(error) === OVER_QUOTA) enforceQuota(quota, 1, quota, 'items in a topic');
    if (ctx.db.isForeignKeyViolation(error)) throw notFound();
    throw error;
  }
  const created = rows[0];
  if (!created) throw notFound();
  return {
    itemId: created.o_item_id,
    listContentId: created.o_list_content_id,
    entries: created.o_entry_ids.map((id, i) => ({ id, text: texts[i]! })),
  };
}
