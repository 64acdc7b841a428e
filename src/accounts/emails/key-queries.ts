// E-mail verification keys and password reset keys. Keys are stored only as their SHA-256
// hash; a key is used up by setting used_at, in a conditional update so that two requests
// racing with one key cannot both succeed.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashSecret } from '../../auth/token-hash.ts';

export interface KeyTimes {
  now: number;
  expiresAt: number;
}

export async function insertVerificationKey(trx: Kysely<Database>, addressId: number, key: string, times: KeyTimes): Promise<void> {
  await trx
    .insertInto('email_verification_keys')
    .values({
      email_address_id: addressId,
      key_hash: hashSecret(key),
      created_at: times.now,
      expires_at: times.expiresAt,
      used_at: null,
    })
    .execute();
}

/** The key with its address and the address owner's password hash. */
export function findVerificationKey(db: Kysely<Database>, key: string) {
  return db
    .selectFrom('email_verification_keys')
    .innerJoin('email_addresses', 'email_addresses.id', 'email_verification_keys.email_address_id')
    .innerJoin('accounts', 'accounts.id', 'email_addresses.account_id')
    .select([
      'email_verification_keys.id as key_id',
      'email_verification_keys.expires_at',
      'email_verification_keys.used_at',
      'email_addresses.id as address_id',
      'email_addresses.account_id',
      'email_addresses.verified_action',
      'email_addresses.is_primary',
      'accounts.password_hash',
    ])
    .where('email_verification_keys.key_hash', '=', hashSecret(key))
    .executeTakeFirst();
}

/** Uses up the key; false when it was used meanwhile. */
export async function useVerificationKey(trx: Kysely<Database>, keyId: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('email_verification_keys')
    .set({ used_at: now })
    .where('id', '=', keyId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Once an address is verified, its other keys have nothing left to do. */
export async function useAllVerificationKeys(trx: Kysely<Database>, addressId: number, now: number): Promise<void> {
  await trx
    .updateTable('email_verification_keys')
    .set({ used_at: now })
    .where('email_address_id', '=', addressId)
    .where('used_at', 'is', null)
    .execute();
}

export async function insertResetKey(
  trx: Kysely<Database>,
  accountId: number,
  addressId: number,
  key: string,
  times: KeyTimes,
): Promise<void> {
  await trx
    .insertInto('password_reset_keys')
    .values({
      account_id: accountId,
      email_address_id: addressId,
      key_hash: hashSecret(key),
      created_at: times.now,
      expires_at: times.expiresAt,
      used_at: null,
    })
    .execute();
}

export function findResetKey(db: Kysely<Database>, key: string) {
  return db
    .selectFrom('password_reset_keys')
    .select(['id', 'account_id', 'expires_at', 'used_at'])
    .where('key_hash', '=', hashSecret(key))
    .executeTakeFirst();
}

export async function useResetKey(trx: Kysely<Database>, keyId: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('password_reset_keys')
    .set({ used_at: now })
    .where('id', '=', keyId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A password change ends every outstanding reset of the account. */
export async function useAllResetKeys(trx: Kysely<Database>, accountId: number, now: number): Promise<void> {
  await trx
    .updateTable('password_reset_keys')
    .set({ used_at: now })
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .execute();
}
