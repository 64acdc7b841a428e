// What lets a person into their account (docs/sign-in-providers.md): a password, identities at other
// providers, passkeys. Removing the last of them is refused (409), whichever room removes it.
// The password column is never null; an account without a password (one made by another way
// in) holds an empty hash there, which no password matches.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function hasPassword(account: { password_hash: string }): boolean {
  return account.password_hash !== '';
}

export interface WaysIn {
  password: boolean;
  identities: number;
  passkeys: number;
}

/** Read under the account lock by whoever removes one, so that two removals cannot both pass. */
export async function waysIn(db: Kysely<Database>, accountId: number): Promise<WaysIn | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => [
      'accounts.password_hash',
      eb.selectFrom('identities').select(eb.fn.countAll<number>().as('n')).where('identities.account_id', '=', accountId).as('identities'),
      eb.selectFrom('passkeys').select(eb.fn.countAll<number>().as('n')).where('passkeys.account_id', '=', accountId).as('passkeys'),
    ])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { password: hasPassword(row), identities: Number(row.identities), passkeys: Number(row.passkeys) };
}

/** True when removing one identity or passkey would leave no way in. */
export function isLastWayIn(ways: WaysIn, removing: 'identity' | 'passkey'): boolean {
  const left = ways.identities + ways.passkeys - 1;
  return !ways.password && left <= 0 && (removing === 'identity' ? ways.identities : ways.passkeys) > 0;
}
