// The transaction every change to an app user's data runs in.
import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { isForeignKeyViolation } from './constraint-errors.ts';
import { topicAppUser } from './topic-queries.ts';

/**
 * Runs `work` in one transaction (on SQLite, in a savepoint of a transaction shared with
 * concurrent writes, committed before this returns). `work` finds the object it changes
 * (owner's account id in the query), then calls `startChange` before writing.
 *
 * A parent deleted by a concurrent request after `work` found it makes the insert under it
 * fail on its foreign key: that is the same 404 as a parent that was never there.
 */
export async function writeAppData<T>(ctx: AppContext, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  try {
    // SQLite: gathered with concurrent writes into one durable commit (src/db/group-commit.ts).
    return ctx.db.groupCommit ? await ctx.db.groupCommit.run(work) : await ctx.db.kysely.transaction().execute(work);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw notFound();
    throw error;
  }
}

export const bumpDataVersion = preparedQuery((db, p: { appUserId: number }) => db.updateTable('app_users')
  .set({ data_version: sql`data_version + 1` })
  .where('id', '=', p.appUserId));

/**
 * Bumps the app user's data version: something the app user holds (a profile, topic, item,
 * entry, media resource, emergency item or contact) is changing, and cached renderings key on
 * this number. Being an UPDATE of the app user's row, it also locks that row until commit on PostgreSQL, so one app user's writes
 * queue up behind each other: quota counts and "one default profile" read after it are exact.
 * (SQLite runs one write transaction at a time anyway.) Call it before any other write.
 */
export async function startChange(trx: Kysely<Database>, appUserId: number): Promise<void> {
  await bumpDataVersion(trx, { appUserId });
}

export const bumpTopicOwnersVersion = preparedQuery((db, p: { accountId: number; topicId: number }) => db.updateTable('app_users')
  .set({ data_version: sql`data_version + 1` })
  .where('id', '=', (eb) => eb.selectFrom('topics')
    .select((inner) => topicAppUser(inner).as('app_user_id'))
    .where('topics.id', '=', p.topicId).where('topics.account_id', '=', p.accountId))
  .returning('id'));

/**
 * `startChange` for a write under a topic, in one statement: finds the app user who holds the
 * caller's topic and bumps its data version. Returns the app user's id; undefined when the
 * topic is not the caller's.
 */
export async function startTopicChange(trx: Kysely<Database>, accountId: number, topicId: number): Promise<number | undefined> {
  return (await bumpTopicOwnersVersion(trx, { accountId, topicId }))[0]?.id;
}
