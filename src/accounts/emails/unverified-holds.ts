// Unverified addresses do not hold an address for ever (docs/accounts.md, UNVERIFIED_ACCOUNT_TTL):
// otherwise registering someone else's address, or adding it to one's own account, and never
// verifying it would keep its owner out for good. Past the TTL, an account none of whose
// addresses was ever verified is removed with everything it holds (it cannot have logged in,
// so it holds nothing else), and so is an unverified secondary address of any account. The
// sweep does it for all of them; registering or adding the address does it for that one at once.
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Accounts created before `before` that hold addresses, none of them ever verified. */
function neverVerifiedAccountsBefore(db: Kysely<Database>, before: number) {
  const addresses = (eb: ExpressionBuilder<Database, 'accounts'>) =>
    eb.selectFrom('email_addresses').select('email_addresses.id').whereRef('email_addresses.account_id', '=', 'accounts.id');
  return db
    .deleteFrom('accounts')
    .where('created_at', '<', before)
    .where((eb) => eb.exists(addresses(eb)))
    .where((eb) => eb.not(eb.exists(addresses(eb).where('email_addresses.verified', '=', 1))));
}

function unverifiedSecondaryAddressesBefore(db: Kysely<Database>, before: number) {
  return db.deleteFrom('email_addresses').where('created_at', '<', before).where('verified', '=', 0).where('is_primary', '=', 0);
}

/** Frees `email` when an expired unverified hold is all that keeps it. */
export async function releaseExpiredHold(db: Kysely<Database>, email: string, before: number): Promise<void> {
  const emailLower = email.toLowerCase();
  await neverVerifiedAccountsBefore(db, before)
    .where('id', '=', (eb) => eb.selectFrom('email_addresses').select('account_id').where('email_lower', '=', emailLower))
    .execute();
  await unverifiedSecondaryAddressesBefore(db, before).where('email_lower', '=', emailLower).execute();
}

/** Removes every expired unverified hold; returns how many accounts and addresses went. */
export async function deleteExpiredHolds(db: Kysely<Database>, before: number): Promise<{ accounts: number; addresses: number }> {
  const accounts = await neverVerifiedAccountsBefore(db, before).executeTakeFirst();
  const addresses = await unverifiedSecondaryAddressesBefore(db, before).executeTakeFirst();
  return { accounts: Number(accounts.numDeletedRows), addresses: Number(addresses.numDeletedRows) };
}
