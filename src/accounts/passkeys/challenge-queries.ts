// WebAuthn challenges (docs/sign-in-providers.md), in the database so that any instance can finish a
// ceremony another began (docs/production.md). Each is spent by deleting it: it works once.
import type { Kysely } from 'kysely';
import type { Database, WebauthnChallengesTable } from '../../db/schema.ts';

export type CeremonyPurpose = WebauthnChallengesTable['purpose'];

export async function insertChallenge(
  db: Kysely<Database>,
  values: { challenge: string; purpose: CeremonyPurpose; accountId: number | null; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('webauthn_challenges')
    .values({ challenge: values.challenge, purpose: values.purpose, account_id: values.accountId, expires_at: values.expiresAt })
    .execute();
}

/**
 * Deletes the challenge if it is one of `purpose` for `accountId` (null: a sign-in's) and not
 * expired at `now`; true when it was. Of two requests with one challenge, one spends it.
 */
export async function spendChallenge(
  db: Kysely<Database>,
  challenge: string,
  purpose: CeremonyPurpose,
  accountId: number | null,
  now: number,
): Promise<boolean> {
  let query = db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', now);
  query = accountId === null ? query.where('account_id', 'is', null) : query.where('account_id', '=', accountId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteWebauthnChallengesBefore(db: Kysely<Database>, time: number): Promise<number> {
  const result = await db.deleteFrom('webauthn_challenges').where('expires_at', '<', time).executeTakeFirst();
  return Number(result.numDeletedRows);
}
