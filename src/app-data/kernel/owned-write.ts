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
//      exact. SQLite runs one write transaction at a time anyway. The bump also counts what a
//      create adds in the app user's totals (migration 0013) and returns them, for the
//      account-wide bounds: one statement for the lot, where a trigger per inserted row cost a
//      list item create a quarter more CPU on SQLite;
//   4. a create's Idempotency-Key claimed (idempotent-create.ts), so the key commits with it;
//   5. the write itself.
//
// Creating the app user is the one write with nothing above it to bump: its new row starts the
// version (app-user-service.ts).
//
// The busiest write, a list item create, goes through `writeListItemUnderTopic`: where the
// database has the write functions (PostgreSQL), these same steps run in a database function
// that creates all those arriving together (list-item-creates.ts, migration 0012): one round
// trip and one commit for the lot, instead of seven round trips and a commit each.
import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Access } from './access.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { claimKey } from './idempotent-create.ts';
import type { Usage } from './quotas.ts';
import type { AccessorWrite, WriteTerms } from './write-terms.ts';
import { accessorWriteInsert, type ParentOf } from '../../activity/activity-events.ts';
import { topicAppUser } from './access-queries.ts';

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

/**
 * A conditional write's check was made at a data version another write has since moved
 * (conditional-write.ts checks again). Thrown inside the transaction: nothing is written.
 */
export class VersionMoved extends Error {}

/** After the bump, which holds the app user's row until commit: the check still holds only if no write came in between. */
function requireUnmoved(terms: WriteTerms, bumpedTo: number): void {
  if (terms.checkedAtVersion !== undefined && bumpedTo !== terms.checkedAtVersion + 1) throw new VersionMoved();
}

/** What a create adds to its app user's totals; the bump counts it, and returns the totals with it. */
export interface Adding {
  items?: number;
  entries?: number;
  mediaBytes?: number;
}

type Counted = { items: number; entries: number; bytes: number };

const counted = (adding: Adding): Counted => ({ items: adding.items ?? 0, entries: adding.entries ?? 0, bytes: adding.mediaBytes ?? 0 });

/** The totals' columns, each plus what is added (values, or a prepared query's markers). */
function addedTo(added: Counted) {
  return {
    item_count: sql<number>`item_count + ${added.items}`,
    entry_count: sql<number>`entry_count + ${added.entries}`,
    media_bytes: sql<number>`media_bytes + ${added.bytes}`,
  };
}

export const bumpDataVersion = preparedQuery((db, p: { appUserId: number } & Counted) =>
  db
    .updateTable('app_users')
    .set({ data_version: sql`data_version + 1`, ...addedTo(p) })
    .where('id', '=', p.appUserId)
    .returning(['data_version', ...USAGE]),
);

/**
 * Finds the caller's object (404 when it is not there), bumps its app user's data version, then
 * writes, held to `terms` (write-terms.ts: the version If-Match was checked at, the
 * Idempotency-Key to claim). `adding`: what the write creates, counted in the app user's totals by the bump itself;
 * `usage` is the totals with it, which `write` checks against the account-wide bounds (a
 * refusal rolls the count back with the rest).
 */
export async function writeOwned<R extends Held, T>(
  ctx: AppContext,
  terms: WriteTerms,
  find: Finder<R>,
  write: (trx: Kysely<Database>, found: R, usage: Usage) => Promise<T>,
  adding: Adding = {},
): Promise<T> {
  return inWriteTransaction(ctx, async (trx) => {
    const found = await find(trx);
    if (!found) throw notFound();
    const [bumped] = await bumpDataVersion(trx, { appUserId: found.app_user_id, ...counted(adding) });
    // Gone between the find and the bump: only a concurrent deletion does that.
    if (!bumped) throw notFound();
    const { data_version, ...usage } = bumped;
    requireUnmoved(terms, data_version);
    await claimKey(ctx, trx, terms.idempotencyKey);
    return recordedWrite(ctx, trx, terms.activity, found.app_user_id, () => write(trx, found, usage));
  });
}

/** What holds a topic, an item, a list entry: read by the event's insert, as it is then. */
const PARENT_OF = {
  topic: {
    id: (id) => sql<number | null>`(select profile_id from topics where id = ${id})`,
    name: (id) => sql<string | null>`(select p.name from topics t join profiles p on p.id = t.profile_id where t.id = ${id})`,
  },
  item: {
    id: (id) => sql<number | null>`(select topic_id from items where id = ${id})`,
    name: (id) => sql<string | null>`(select t.name from items i join topics t on t.id = i.topic_id where i.id = ${id})`,
  },
  list_entry: {
    id: (id) =>
      sql<number | null>`(select lc.item_id from list_entries le join list_contents lc on lc.id = le.list_content_id where le.id = ${id})`,
    name: (id) => sql<string | null>`(select i.name from list_entries le join list_contents lc on lc.id = le.list_content_id
      join items i on i.id = lc.item_id where le.id = ${id})`,
  },
} satisfies Record<string, ParentOf>;

/** An accessor's write in its owner's activity log, by type: the insert reads the name from where the type keeps it. */
const RECORD_ACCESSOR_WRITE: Record<AccessorWrite['type'], ReturnType<typeof accessorWriteInsert>> = {
  app_user: accessorWriteInsert('app_users', 'name'),
  profile: accessorWriteInsert('profiles', 'name'),
  topic: accessorWriteInsert('topics', 'name', PARENT_OF.topic),
  item: accessorWriteInsert('items', 'name', PARENT_OF.item),
  list_entry: accessorWriteInsert('list_entries', 'text', PARENT_OF.list_entry),
  emergency_item: accessorWriteInsert('emergency_items', 'name'),
  emergency_contact: accessorWriteInsert('emergency_contacts', 'name'),
  media_resource: accessorWriteInsert('media_resources', 'name'),
  emergency_link: accessorWriteInsert('emergency_links', 'label'),
};

function idOf(result: unknown): number | null {
  const id = (result as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'number' ? id : null;
}

async function recordAccessorWrite(ctx: AppContext, trx: Kysely<Database>, activity: AccessorWrite, appUserId: number, id: number | null) {
  await RECORD_ACCESSOR_WRITE[activity.type](trx, {
    accountId: activity.ownerAccountId,
    appUserId,
    at: ctx.clock.now(),
    readerId: activity.readerId,
    action: activity.action,
    type: activity.type,
    id,
    via: activity.via,
  });
}

/**
 * `write`, and an accessor's write recorded in its owner's activity log (none for the owner's
 * own): a delete before it (the name is still there), anything else after (the id of what it
 * created, the name it gave).
 */
async function recordedWrite<T>(
  ctx: AppContext,
  trx: Kysely<Database>,
  activity: AccessorWrite | undefined,
  appUserId: number,
  write: () => Promise<T>,
): Promise<T> {
  if (!activity) return write();
  if (activity.action === 'deleted') {
    await recordAccessorWrite(ctx, trx, activity, appUserId, activity.id ?? null);
    return write();
  }
  const result = await write();
  await recordAccessorWrite(ctx, trx, activity, appUserId, activity.id ?? idOf(result));
  return result;
}

/** Counts `adding` in the app user's totals within a write, for what is known only once it has begun; returns the totals. */
export async function countAdded(trx: Kysely<Database>, appUserId: number, adding: Adding): Promise<Usage> {
  return trx
    .updateTable('app_users')
    .set(addedTo(counted(adding)))
    .where('id', '=', appUserId)
    .returning(USAGE)
    .executeTakeFirstOrThrow();
}

export const bumpTopicOwnersVersion = preparedQuery((db, p: { accountId: number; topicId: number } & Counted) =>
  db
    .updateTable('app_users')
    .set({ data_version: sql`data_version + 1`, ...addedTo(p) })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('topics')
        .select((inner) => topicAppUser(inner).as('app_user_id'))
        .where('topics.id', '=', p.topicId)
        .where('topics.account_id', '=', p.accountId),
    )
    .returning(['id', 'data_version', ...USAGE]),
);

/**
 * `writeOwned` for writes under one of the caller's topics (item creates, the busiest write):
 * the lookup and the bump are one statement, which returns the app user's id.
 */
export async function writeUnderTopic<T>(
  ctx: AppContext,
  terms: WriteTerms,
  accountId: number,
  topicId: number,
  write: (trx: Kysely<Database>, held: Held, usage: Usage) => Promise<T>,
  adding: Adding = {},
): Promise<T> {
  return inWriteTransaction(ctx, async (trx) => {
    const [bumped] = await bumpTopicOwnersVersion(trx, { accountId, topicId, ...counted(adding) });
    if (!bumped) throw notFound();
    const { id, data_version, ...usage } = bumped;
    requireUnmoved(terms, data_version);
    await claimKey(ctx, trx, terms.idempotencyKey);
    return recordedWrite(ctx, trx, terms.activity, id, () => write(trx, { app_user_id: id }, usage));
  });
}

/**
 * The finder of writes to an app user, or under one (its profiles, emergency data, gallery):
 * none when the access was decided for that app user (the bump then finds it, or answers 404
 * when it has just gone); else a query with the owner's account.
 */
export function ownedAppUser(access: Pick<Access, 'accountId' | 'appUserId'>, appUserId: number): Finder<Held> {
  if (access.appUserId === appUserId) {
    const held: Held = { app_user_id: appUserId };
    return () => Promise.resolve(held);
  }
  const { accountId } = access;
  return (trx) =>
    trx
      .selectFrom('app_users')
      .select('id as app_user_id')
      .where('id', '=', appUserId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
}
