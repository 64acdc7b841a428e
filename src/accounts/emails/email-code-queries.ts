// E-mailed codes (table email_codes, migration 0030; docs/accounts.md#codes-by-e-mail): one row
// per address and kind, so a newer code replaces the older. Every try is counted before it is
// judged, in one conditional UPDATE, so parallel guesses cannot pass the limit together; a code
// is spent by setting used_at, conditionally, so that of two requests with one code one wins.
import type { Kysely } from 'kysely';
import type { Database, EmailCodeKind } from '../../db/schema.ts';

export interface EmailCodeRow {
  id: number;
  account_id: number;
  email_address_id: number;
  code_hash: string;
}

/** Replaces the address's code of `kind` (if any) by a new one, in the caller's transaction. */
export async function replaceEmailCode(
  trx: Kysely<Database>,
  code: { kind: EmailCodeKind; accountId: number; addressId: number; email: string; codeHash: string; now: number; expiresAt: number },
): Promise<void> {
  const emailLower = code.email.toLowerCase();
  await trx.deleteFrom('email_codes').where('email_lower', '=', emailLower).where('kind', '=', code.kind).execute();
  await trx
    .insertInto('email_codes')
    .values({
      kind: code.kind,
      account_id: code.accountId,
      email_address_id: code.addressId,
      email_lower: emailLower,
      code_hash: code.codeHash,
      created_at: code.now,
      expires_at: code.expiresAt,
      used_at: null,
    })
    .execute();
}

/**
 * Counts one try at the address's live code of `kind` (unspent, unexpired at `now`, under
 * `maxTries` tries) and returns it; undefined when there is none, or none left to try.
 */
export async function countEmailCodeTry(
  db: Kysely<Database>,
  kind: EmailCodeKind,
  email: string,
  maxTries: number,
  now: number,
): Promise<EmailCodeRow | undefined> {
  return db
    .updateTable('email_codes')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('email_lower', '=', email.toLowerCase())
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('failed_attempts', '<', maxTries)
    .returning(['id', 'account_id', 'email_address_id', 'code_hash'])
    .executeTakeFirst();
}

/** Spends the code; false when it was spent (or replaced) meanwhile. */
export async function spendEmailCode(trx: Kysely<Database>, codeId: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('email_codes')
    .set({ used_at: now })
    .where('id', '=', codeId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends the codes of `kind` of an address (once it is verified) or of an account (once its password changed). */
export async function endEmailCodes(
  trx: Kysely<Database>,
  kind: EmailCodeKind,
  scope: { addressId: number } | { accountId: number },
): Promise<void> {
  const [column, value] =
    'addressId' in scope ? (['email_address_id', scope.addressId] as const) : (['account_id', scope.accountId] as const);
  await trx.deleteFrom('email_codes').where(column, '=', value).where('kind', '=', kind).execute();
}

/** Codes past their expiry, spent or not, have nothing left to do. */
export async function deleteEmailCodesBefore(db: Kysely<Database>, before: number): Promise<number> {
  const result = await db.deleteFrom('email_codes').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** What a sign-in by code needs of an address: it, whether it is verified, and its account's password hash and state. */
export function findCodeAddress(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('email_addresses')
    .innerJoin('accounts', 'accounts.id', 'email_addresses.account_id')
    .select([
      'email_addresses.id',
      'email_addresses.account_id',
      'email_addresses.email',
      'email_addresses.verified',
      'accounts.password_hash',
      'accounts.disabled_at',
    ])
    .where('email_addresses.email_lower', '=', email.toLowerCase())
    .executeTakeFirst();
}
