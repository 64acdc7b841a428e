// Removing what a large app user holds a batch at a time, before its account's deletion
// (accounts/deletion/account-deletion.ts): a cascade of 100,000 list entries in one statement held the
// event loop for 350 ms on SQLite (its driver is synchronous) and the writer for all of it.
// Each batch is a write of its own through the kernel (the data version moves, the counts of
// migration 0013 follow through their triggers), with other requests running between batches.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ownedAppUser, writeOwned } from './kernel/owned-write.ts';
import { NO_TERMS } from './kernel/write-terms.ts';

const ENTRIES_PER_BATCH = 5_000;
const ITEMS_PER_BATCH = 500;

/** Holding more than this, an app user's list entries and items go in batches first. */
export const BULK_THRESHOLD = 5_000;

export async function appUserHolding(db: Kysely<Database>, accountId: number) {
  return db.selectFrom('app_users').select(['id', 'item_count', 'entry_count']).where('account_id', '=', accountId).executeTakeFirst();
}

/** The app user's list entries, then its items, a batch at a time. */
export async function removeInBatches(ctx: AppContext, accountId: number, appUserId: number): Promise<void> {
  const owned = ownedAppUser({ accountId, appUserId: null }, appUserId);
  while ((await writeOwned(ctx, NO_TERMS, owned, (trx) => deleteEntryBatch(trx, accountId, appUserId))) === ENTRIES_PER_BATCH);
  while ((await writeOwned(ctx, NO_TERMS, owned, (trx) => deleteItemBatch(trx, accountId, appUserId))) === ITEMS_PER_BATCH);
}

async function deleteEntryBatch(trx: Kysely<Database>, accountId: number, appUserId: number): Promise<number> {
  const result = await trx
    .deleteFrom('list_entries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('list_entries as e')
        .innerJoin('list_contents', 'list_contents.id', 'e.list_content_id')
        .innerJoin('items', 'items.id', 'list_contents.item_id')
        .innerJoin('topics', 'topics.id', 'items.topic_id')
        .innerJoin('profiles', 'profiles.id', 'topics.profile_id')
        .select('e.id')
        .where('profiles.app_user_id', '=', appUserId)
        .where('e.account_id', '=', accountId)
        .limit(ENTRIES_PER_BATCH),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

async function deleteItemBatch(trx: Kysely<Database>, accountId: number, appUserId: number): Promise<number> {
  const result = await trx
    .deleteFrom('items')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('items as i')
        .innerJoin('topics', 'topics.id', 'i.topic_id')
        .innerJoin('profiles', 'profiles.id', 'topics.profile_id')
        .select('i.id')
        .where('profiles.app_user_id', '=', appUserId)
        .where('i.account_id', '=', accountId)
        .limit(ITEMS_PER_BATCH),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
