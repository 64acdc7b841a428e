// Queries on list entries. Every one takes the caller's account id.
import type { Kysely } from 'kysely';
import { preparedQuery, type PreparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import type { ListEntryRow } from './list-entry-schemas.ts';

/** Rows per INSERT when writing a whole list: stays under SQLite's and PostgreSQL's parameter limits. */
const INSERT_CHUNK = 500;

export interface OwnedListRow {
  list_content_id: number;
  app_user_id: number;
}

// A list entry's writes (and the reads before them) are one person's typing, saved often: each
// query is compiled once (db/prepared-query.ts). Building and compiling them with Kysely at every
// call would be a third of a change's instructions (a PATCH of one entry's text on SQLite, counted
// by bench/instructions.ts: about 870k per PATCH that way, 540k compiled once).

type ByAccount = { accountId: number };

const selectListOfItem = preparedQuery((db, p: ByAccount & { itemId: number }) =>
  db
    .selectFrom('list_contents')
    .innerJoin('items', 'items.id', 'list_contents.item_id')
    .innerJoin('topics', 'topics.id', 'items.topic_id')
    .innerJoin('profiles', 'profiles.id', 'topics.profile_id')
    .select(['list_contents.id as list_content_id', 'profiles.app_user_id'])
    .where('list_contents.item_id', '=', p.itemId)
    .where('list_contents.account_id', '=', p.accountId),
);

/** The list content of a list item; undefined for an image item or an item that is not the caller's. */
export async function findListOfItem(db: Kysely<Database>, accountId: number, itemId: number): Promise<OwnedListRow | undefined> {
  return (await selectListOfItem(db, { accountId, itemId }))[0];
}

const selectEntries = preparedQuery((db, p: ByAccount & { listContentId: number }) =>
  db
    .selectFrom('list_entries')
    .select(['id', 'text'])
    .where('list_content_id', '=', p.listContentId)
    .where('account_id', '=', p.accountId)
    .orderBy('id'),
);

export function listEntries(db: Kysely<Database>, accountId: number, listContentId: number): Promise<ListEntryRow[]> {
  return selectEntries(db, { accountId, listContentId });
}

export interface OwnedEntryRow extends ListEntryRow {
  app_user_id: number;
}

export const selectEntry = preparedQuery((db, p: ByAccount & { id: number }) =>
  db
    .selectFrom('list_entries')
    .innerJoin('list_contents', 'list_contents.id', 'list_entries.list_content_id')
    .innerJoin('items', 'items.id', 'list_contents.item_id')
    .innerJoin('topics', 'topics.id', 'items.topic_id')
    .innerJoin('profiles', 'profiles.id', 'topics.profile_id')
    .select(['list_entries.id', 'list_entries.text', 'profiles.app_user_id'])
    .where('list_entries.id', '=', p.id)
    .where('list_entries.account_id', '=', p.accountId),
);

export async function findEntry(db: Kysely<Database>, accountId: number, id: number): Promise<OwnedEntryRow | undefined> {
  return (await selectEntry(db, { accountId, id }))[0];
}

const selectEntryCount = preparedQuery((db, p: ByAccount & { listContentId: number }) =>
  db
    .selectFrom('list_entries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('list_content_id', '=', p.listContentId)
    .where('account_id', '=', p.accountId),
);

export async function countEntries(db: Kysely<Database>, accountId: number, listContentId: number): Promise<number> {
  const [row] = await selectEntryCount(db, { accountId, listContentId });
  return Number(row!.count);
}

export async function insertEntry(trx: Kysely<Database>, accountId: number, listContentId: number, text: string): Promise<ListEntryRow> {
  const [row] = await entryInsert(1)(trx, { accountId, listContentId, text0: text });
  return row!;
}

/** Replaces the whole list: the old entries go, the new ones get new ids in the order given. */
export async function replaceEntries(trx: Kysely<Database>, accountId: number, listContentId: number, texts: string[]): Promise<void> {
  await trx.deleteFrom('list_entries').where('list_content_id', '=', listContentId).where('account_id', '=', accountId).execute();
  await insertEntries(trx, accountId, listContentId, texts);
}

/** An entry insert's values: the list, and the texts as text0, text1, … */
type EntryValues = { accountId: number; listContentId: number } & Record<`text${number}`, string>;

/** The INSERT of `count` entries, compiled at its first use (item creates write lists on every call). */
const entryInserts = new Map<number, PreparedQuery<EntryValues, ListEntryRow>>();

export function entryInsert(count: number): PreparedQuery<EntryValues, ListEntryRow> {
  let insert = entryInserts.get(count);
  if (!insert) {
    insert = preparedQuery((db, p: EntryValues) =>
      db
        .insertInto('list_entries')
        .values(
          // `p` holds markers, one for every key asked.
          Array.from({ length: count }, (_, i) => ({ account_id: p.accountId, list_content_id: p.listContentId, text: p[`text${i}`]! })),
        )
        .returning(['id', 'text']),
    );
    entryInserts.set(count, insert);
  }
  return insert;
}

/** Inserts the entries in order; returns them in that order with their new ids. */
export async function insertEntries(
  trx: Kysely<Database>,
  accountId: number,
  listContentId: number,
  texts: string[],
): Promise<ListEntryRow[]> {
  const inserted: ListEntryRow[] = [];
  for (let start = 0; start < texts.length; start += INSERT_CHUNK) {
    const chunk = texts.slice(start, start + INSERT_CHUNK);
    const values: EntryValues = { accountId, listContentId };
    chunk.forEach((text, i) => {
      values[`text${i}`] = text;
    });
    inserted.push(...(await entryInsert(chunk.length)(trx, values)));
  }
  // Ids are handed out in VALUES order; RETURNING's own order is not promised.
  return inserted.sort((a, b) => a.id - b.id);
}

export const updateEntryText = preparedQuery((db, p: ByAccount & { id: number; text: string }) =>
  db
    .updateTable('list_entries')
    .set({ text: p.text })
    .where('id', '=', p.id)
    .where('account_id', '=', p.accountId)
    .returning(['id', 'text']),
);

export async function updateEntry(trx: Kysely<Database>, accountId: number, id: number, text: string): Promise<ListEntryRow | undefined> {
  return (await updateEntryText(trx, { accountId, id, text }))[0];
}

const deleteEntryRow = preparedQuery((db, p: ByAccount & { id: number }) =>
  db.deleteFrom('list_entries').where('id', '=', p.id).where('account_id', '=', p.accountId).returning('id'),
);

export async function deleteEntry(trx: Kysely<Database>, accountId: number, id: number): Promise<boolean> {
  return (await deleteEntryRow(trx, { accountId, id })).length > 0;
}
