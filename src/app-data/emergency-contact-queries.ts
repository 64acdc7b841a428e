// Queries on emergency contacts. Every one takes the caller's account id.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { EmergencyContactRow } from './emergency-contact-schemas.ts';

const COLUMNS = ['id', 'name', 'relation', 'phone_number', 'alt_phone_number', 'email'] as const;

export interface OwnedEmergencyContactRow extends EmergencyContactRow {
  app_user_id: number;
}

export type EmergencyContactValues = Partial<Omit<EmergencyContactRow, 'id'>>;

export function listEmergencyContacts(db: Kysely<Database>, accountId: number, appUserId: number): Promise<EmergencyContactRow[]> {
  return db
    .selectFrom('emergency_contacts')
    .select(COLUMNS)
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

/** Emergency contacts by id (the changes of docs/offline-and-live.md). */
export function listEmergencyContactsByIds(
  db: Kysely<Database>,
  accountId: number,
  ids: readonly number[],
): Promise<EmergencyContactRow[]> {
  return db.selectFrom('emergency_contacts').select(COLUMNS).where('id', 'in', ids).where('account_id', '=', accountId).execute();
}

export function findEmergencyContact(db: Kysely<Database>, accountId: number, id: number): Promise<OwnedEmergencyContactRow | undefined> {
  return db
    .selectFrom('emergency_contacts')
    .select([...COLUMNS, 'app_user_id'])
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function countEmergencyContacts(db: Kysely<Database>, accountId: number, appUserId: number): Promise<number> {
  const row = await db
    .selectFrom('emergency_contacts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function insertEmergencyContact(
  trx: Kysely<Database>,
  accountId: number,
  appUserId: number,
  values: Omit<EmergencyContactRow, 'id'>,
): Promise<EmergencyContactRow> {
  return trx
    .insertInto('emergency_contacts')
    .values({ account_id: accountId, app_user_id: appUserId, ...values })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updateEmergencyContact(
  trx: Kysely<Database>,
  accountId: number,
  id: number,
  changes: EmergencyContactValues,
): Promise<EmergencyContactRow | undefined> {
  return trx
    .updateTable('emergency_contacts')
    .set(changes)
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning(COLUMNS)
    .executeTakeFirst();
}

export async function deleteEmergencyContact(trx: Kysely<Database>, accountId: number, id: number): Promise<boolean> {
  const result = await trx.deleteFrom('emergency_contacts').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
