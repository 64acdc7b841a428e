// Queries on app users. Every one takes the owner's account id, but the list of those shared
// with the caller, whose ids come from the caller's grants.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppUserRow } from './app-user-schemas.ts';

const COLUMNS = ['id', 'name', 'quote'] as const;

export function listAppUsers(db: Kysely<Database>, accountId: number): Promise<AppUserRow[]> {
  return db.selectFrom('app_users').select(COLUMNS).where('account_id', '=', accountId).orderBy('id').execute();
}

/** App users by id, whoever owns them: only for ids the caller's grants name (app-user-service.ts). */
export function findAppUsersByIds(db: Kysely<Database>, ids: number[]): Promise<AppUserRow[]> {
  return db.selectFrom('app_users').select(COLUMNS).where('id', 'in', ids).orderBy('id').execute();
}

export function findAppUser(db: Kysely<Database>, accountId: number, id: number): Promise<AppUserRow | undefined> {
  return db.selectFrom('app_users').select(COLUMNS).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

export async function accountHasAppUser(db: Kysely<Database>, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('app_users').select('id').where('account_id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

export async function accountFirstName(db: Kysely<Database>, accountId: number): Promise<string> {
  const row = await db.selectFrom('accounts').select('first_name').where('id', '=', accountId).executeTakeFirst();
  return row?.first_name ?? '';
}

export function insertAppUser(
  trx: Kysely<Database>,
  values: { accountId: number; name: string; quote: string | null; now: number },
): Promise<AppUserRow> {
  return trx
    .insertInto('app_users')
    .values({ account_id: values.accountId, name: values.name, quote: values.quote, created_at: values.now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updateAppUser(
  trx: Kysely<Database>,
  accountId: number,
  id: number,
  changes: { name?: string; quote?: string | null },
): Promise<AppUserRow | undefined> {
  return trx
    .updateTable('app_users')
    .set(changes)
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** Storage keys of the app user's media files, read before the rows go with the app user. */
export async function mediaStorageKeys(db: Kysely<Database>, accountId: number, appUserId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('media_resources')
    .select('storage_key')
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((row) => row.storage_key);
}

/** Deletes the app user; the foreign keys cascade to everything it holds. */
export async function deleteAppUser(trx: Kysely<Database>, accountId: number, id: number): Promise<boolean> {
  const result = await trx.deleteFrom('app_users').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
