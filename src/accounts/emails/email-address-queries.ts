// Queries on e-mail addresses. Every query on a caller's address takes the owner's account
// id, so an address of another account is simply not found.
import type { Kysely } from 'kysely';
import type { Database, Flag } from '../../db/schema.ts';

export interface AddressRow {
  id: number;
  account_id: number;
  email: string;
  verified: Flag;
  verified_action: number;
  is_primary: Flag;
}

const ADDRESS_COLUMNS = ['id', 'account_id', 'email', 'verified', 'verified_action', 'is_primary'] as const;

export function listAddresses(db: Kysely<Database>, accountId: number): Promise<AddressRow[]> {
  return db.selectFrom('email_addresses').select(ADDRESS_COLUMNS).where('account_id', '=', accountId).orderBy('id').execute();
}

export function findAddress(db: Kysely<Database>, accountId: number, addressId: number): Promise<AddressRow | undefined> {
  return db
    .selectFrom('email_addresses')
    .select(ADDRESS_COLUMNS)
    .where('id', '=', addressId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** Any account's address, matched case-insensitively. */
export function findAddressByEmail(db: Kysely<Database>, email: string): Promise<AddressRow | undefined> {
  return db.selectFrom('email_addresses').select(ADDRESS_COLUMNS).where('email_lower', '=', email.toLowerCase()).executeTakeFirst();
}

/** What login needs: the address, whether it is verified, its account's password hash and whether it is disabled. */
export function findLoginAddress(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('email_addresses')
    .innerJoin('accounts', 'accounts.id', 'email_addresses.account_id')
    .select(['email_addresses.account_id', 'email_addresses.verified', 'accounts.password_hash', 'accounts.disabled_at'])
    .where('email_addresses.email_lower', '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function emailTaken(db: Kysely<Database>, email: string): Promise<boolean> {
  return (await findAddressByEmail(db, email)) !== undefined;
}

export async function countAddresses(db: Kysely<Database>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('email_addresses')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertAddress(
  trx: Kysely<Database>,
  values: { accountId: number; email: string; primary: boolean; verifiedAction: number; now: number },
): Promise<AddressRow> {
  return trx
    .insertInto('email_addresses')
    .values({
      account_id: values.accountId,
      email: values.email,
      email_lower: values.email.toLowerCase(),
      verified: 0,
      is_primary: values.primary ? 1 : 0,
      verified_action: values.verifiedAction,
      created_at: values.now,
      last_key_sent_at: null,
    })
    .returning(ADDRESS_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Makes `addressId` the account's primary address; the old primary stays, unprimaried. */
export async function movePrimary(trx: Kysely<Database>, accountId: number, addressId: number): Promise<void> {
  // Cleared first: the partial unique index allows one primary per account at any moment.
  await trx.updateTable('email_addresses').set({ is_primary: 0 }).where('account_id', '=', accountId).where('is_primary', '=', 1).execute();
  await trx.updateTable('email_addresses').set({ is_primary: 1 }).where('account_id', '=', accountId).where('id', '=', addressId).execute();
}

export async function markAddressVerified(trx: Kysely<Database>, addressId: number): Promise<void> {
  await trx.updateTable('email_addresses').set({ verified: 1 }).where('id', '=', addressId).execute();
}

export async function recordKeySent(trx: Kysely<Database>, addressId: number, now: number): Promise<void> {
  await trx.updateTable('email_addresses').set({ last_key_sent_at: now }).where('id', '=', addressId).execute();
}

/** Deletes a non-primary address of the account; false when there was none to delete. */
export async function deleteSecondaryAddress(trx: Kysely<Database>, accountId: number, addressId: number): Promise<boolean> {
  const result = await trx
    .deleteFrom('email_addresses')
    .where('id', '=', addressId)
    .where('account_id', '=', accountId)
    .where('is_primary', '=', 0)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Verification action 2: `addressId` becomes primary and the old primary address is deleted. */
export async function replacePrimary(trx: Kysely<Database>, accountId: number, addressId: number): Promise<void> {
  await trx.deleteFrom('email_addresses').where('account_id', '=', accountId).where('is_primary', '=', 1).execute();
  await trx.updateTable('email_addresses').set({ is_primary: 1 }).where('account_id', '=', accountId).where('id', '=', addressId).execute();
}
