// The one way personal data is written. Every change to something an app user holds (a
// profile, topic, item, list entry, emergency item or contact, media resource, or the app user
// itself) runs through `writeOwned` or `writeUnderTopic`:
//
//   1. one write transaction (on SQLite, a savepoint of a transaction shared with concurrent
//      writes, committed before this returns: src/db/group-commit.ts);
//   2. the caller's object, found with its owner's account id in the query; missing is 404,
//      the same as someone else's;
//   3. the app user's data version bumped before anything is written: cached renderings key on
//      it (rendering-cache.ts), so no write can leave one stale. Being an UPDATE of the app
//      user's row, it also locks that row until commit on PostgreSQL: one app user's writes
//      queue behind each other, and counts read after it (quotas, the one default profile) are
//      exact. SQLite runs one write transaction at a time anyway. The bump returns what the app
//      user holds as a whole (its `Usage`), for the account-wide bounds of a create;
//   4. the write itself.
//
// Creating the app user is the one write with nothing above it to bump: its new row starts the
// version (app-user-service.ts).
//
// The busiest write, a list item create, goes through `writeListItemUnderTopic`: where the
// database has the write functions (PostgreSQL), these same steps run in a database function
// that creates all those arriving together (list-item-creates.ts, migration 0012): one round
// trip and one commit for the lot, instead of seven round trips and a commit each.
import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { createListItemTogether, type CreatedListItem, type ListItemCreate } from './list-item-creates.ts';
import type { Usage } from './quotas.ts';
import { topicAppUser } from './topic-queries.ts';

/** What a write finds first: the caller's object, with the app user that holds it. */
export interface Held {
  app_user_id: number;
}

export type Finder<R extends Held> = (trx: Kysely<Database>) => Promise<R | undefined>;

/**
 * A parent deleted by a concurrent request after the finder saw it makes an insert under it
 * fail on its foreign key: that is the same 404 as a parent that was never there.
 */
async function inWriteTransaction<T>(ctx: AppContext, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.writeTransaction(work);
  } catch (error) {
    if (ctx.db.isForeignKeyViolation(error)) throw notFound();
    throw error;
  }
}

const USAGE = ['item_count', 'entry_count', 'media_bytes'] as const;

export const bumpDataVersion = preparedQuery((db, p: { appUserId: number }) =>
  db.updateTable('app_users').set({ data_version: sql`data_version + 1` }).where('id', '=', p.appUserId).returning(USAGE),
);

/** Finds the caller's object (404 when it is not there), bumps its app user's data version, then writes. */
export async function writeOwned<R extends Held, T>(
  ctx: AppContext,
  find: Finder<R>,
  write: (trx: Kysely<Database>, found: R, usage: Usage) => Promise<T>,
): Promise<T> {
  return inWriteTransaction(ctx, async (trx) => {
    const found = await find(trx);
    if (!found) throw notFound();
    const [usage] = await bumpDataVersion(trx, { appUserId: found.app_user_id });
    // Gone between the find and the bump: only a concurrent deletion does that.
    if (!usage) throw notFound();
    return write(trx, found, usage);
  });
}

export const bumpTopicOwnersVersion = preparedQuery((db, p: { accountId: number; topicId: number }) =>
  db
    .updateTable('app_users')
    .set({ data_version: sql`data_version + 1` })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('topics')
        .select((inner) => topicAppUser(inner).as('app_user_id'))
        .where('topics.id', '=', p.topicId)
        .where('topics.account_id', '=', p.accountId),
    )
    .returning(['id', ...USAGE]),
);

/**
 * `writeOwned` for writes under one of the caller's topics (item creates, the busiest write):
 * the lookup and the bump are one statement, which returns the app user's id.
 */
export async function writeUnderTopic<T>(
  ctx: AppContext,
  accountId: number,
  topicId: number,
  write: (trx: Kysely<Database>, held: Held, usage: Usage) => Promise<T>,
): Promise<T> {
  return inWriteTransaction(ctx, async (trx) => {
    const [bumped] = await bumpTopicOwnersVersion(trx, { accountId, topicId });
    if (!bumped) throw notFound();
    const { id, ...usage } = bumped;
    return write(trx, { app_user_id: id }, usage);
  });
}

/**
 * A list item create under one of the caller's topics: gathered with the others of this turn
 * into one database call where the database has the write functions, answered by `answer`;
 * elsewhere `write` runs through `writeUnderTopic`. Both paths check and answer alike.
 */
export async function writeListItemUnderTopic<T>(
  ctx: AppContext,
  create: ListItemCreate,
  answer: (created: CreatedListItem) => T,
  write: (trx: Kysely<Database>, held: Held, usage: Usage) => Promise<T>,
): Promise<T> {
  if (!ctx.db.writeFunctions) return writeUnderTopic(ctx, create.accountId, create.topicId, write);
  return answer(await createListItemTogether(ctx, create));
}

/** The finder of writes to an app user, or under one (its profiles, emergency data, gallery). */
export function ownedAppUser(accountId: number, appUserId: number): Finder<Held> {
  return (trx) =>
    trx
      .selectFrom('app_users')
      .select('id as app_user_id')
      .where('id', '=', appUserId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
}
