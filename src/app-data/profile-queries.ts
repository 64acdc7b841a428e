// Queries on profiles. Every one takes the caller's account id.
import type { Kysely } from 'kysely';
import type { Database, Flag } from '../db/schema.ts';
import type { ProfileRow } from './profile-schemas.ts';

const COLUMNS = ['id', 'name', 'is_default', 'is_private'] as const;

export interface OwnedProfileRow extends ProfileRow {
  app_user_id: number;
}

/** The app user's profiles by id; without `withPrivate`, the private ones are left out (docs/sharing.md). */
/** `withPrivate`: with the private profiles; `only`: only these profiles (null: all). */
export function listProfiles(
  db: Kysely<Database>,
  accountId: number,
  appUserId: number,
  withPrivate = true,
  only: readonly number[] | null = null,
): Promise<ProfileRow[]> {
  let query = db.selectFrom('profiles').select(COLUMNS).where('app_user_id', '=', appUserId).where('account_id', '=', accountId);
  if (!withPrivate) query = query.where('is_private', '=', 0);
  if (only !== null) {
    if (only.length === 0) return Promise.resolve([]);
    query = query.where('id', 'in', only);
  }
  return query.orderBy('id').execute();
}

export function findProfile(db: Kysely<Database>, accountId: number, id: number): Promise<OwnedProfileRow | undefined> {
  return db
    .selectFrom('profiles')
    .select([...COLUMNS, 'app_user_id'])
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function countProfiles(db: Kysely<Database>, accountId: number, appUserId: number): Promise<number> {
  const row = await db
    .selectFrom('profiles')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Clears the default flag on every profile of the app user (the one-default index allows one at a time). */
export async function clearDefaultProfile(trx: Kysely<Database>, accountId: number, appUserId: number): Promise<void> {
  await trx
    .updateTable('profiles')
    .set({ is_default: 0 })
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .where('is_default', '=', 1)
    .execute();
}

export function insertProfile(
  trx: Kysely<Database>,
  values: { accountId: number; appUserId: number; name: string; isDefault: boolean; isPrivate?: boolean },
): Promise<ProfileRow> {
  return trx
    .insertInto('profiles')
    .values({
      account_id: values.accountId,
      app_user_id: values.appUserId,
      name: values.name,
      is_default: values.isDefault ? 1 : 0,
      is_private: values.isPrivate === true ? 1 : 0,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function updateProfile(
  trx: Kysely<Database>,
  accountId: number,
  id: number,
  changes: { name?: string; is_default?: Flag; is_private?: Flag },
): Promise<void> {
  await trx.updateTable('profiles').set(changes).where('id', '=', id).where('account_id', '=', accountId).execute();
}

export async function deleteProfile(trx: Kysely<Database>, accountId: number, id: number): Promise<boolean> {
  const result = await trx.deleteFrom('profiles').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
