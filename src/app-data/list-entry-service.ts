// List entries (docs/app-data.md): the entries of a list item, one by one. An image item has no
// list: its entries are 404, like a missing item's.
import type { AppContext } from '../context.ts';
import type { Access } from './kernel/access.ts';
import { notFound } from '../errors.ts';
import { countEntries, deleteEntry, findEntry, findListOfItem, insertEntry, listEntries, updateEntry } from './list-entry-queries.ts';
import { toListEntry, type ListEntry } from './list-entry-schemas.ts';
import { writeOwned } from './kernel/owned-write.ts';
import type { WriteTerms } from './kernel/write-terms.ts';
import { enforceAccountBounds, enforceQuota } from './kernel/quotas.ts';

export async function listItemEntries(ctx: AppContext, access: Access, itemId: number): Promise<ListEntry[]> {
  const { accountId } = access;
  const list = await findListOfItem(ctx.db.kysely, accountId, itemId);
  if (!list) throw notFound();
  const rows = await listEntries(ctx.db.kysely, accountId, list.list_content_id);
  return rows.map((row) => toListEntry(ctx, row));
}

export async function getEntry(ctx: AppContext, access: Access, id: number): Promise<ListEntry> {
  const { accountId } = access;
  const row = await findEntry(ctx.db.kysely, accountId, id);
  if (!row) throw notFound();
  return toListEntry(ctx, row);
}

/** Adds an entry at the end of the list. */
export async function createEntry(
  ctx: AppContext,
  access: Access,
  itemId: number,
  input: { text: string },
  terms: WriteTerms,
): Promise<ListEntry> {
  const { accountId } = access;
  const row = await writeOwned(
    ctx,
    terms,
    (trx) => findListOfItem(trx, accountId, itemId),
    async (trx, list, usage) => {
      enforceQuota(await countEntries(trx, accountId, list.list_content_id), 1, ctx.config.quotas.entriesPerItem, 'quotas.entriesPerItem');
      enforceAccountBounds(ctx.config.quotas, usage);
      return insertEntry(trx, accountId, list.list_content_id, input.text);
    },
    { entries: 1 },
  );
  return toListEntry(ctx, row);
}

export async function changeEntry(
  ctx: AppContext,
  access: Access,
  id: number,
  changes: { text?: string },
  terms: WriteTerms,
): Promise<ListEntry> {
  const { accountId } = access;
  const row = await writeOwned(
    ctx,
    terms,
    (trx) => findEntry(trx, accountId, id),
    async (trx, entry) => (changes.text === undefined ? entry : updateEntry(trx, accountId, id, changes.text)),
  );
  if (!row) throw notFound();
  return toListEntry(ctx, row);
}

export async function removeEntry(ctx: AppContext, access: Access, id: number, terms: WriteTerms): Promise<void> {
  const { accountId } = access;
  await writeOwned(
    ctx,
    terms,
    (trx) => findEntry(trx, accountId, id),
    (trx) => deleteEntry(trx, accountId, id),
  );
}
