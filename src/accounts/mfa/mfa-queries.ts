// Queries of MFA (migration 0010): the account's TOTP secret, its recovery codes
// and the login challenges waiting for an MFA code. Spending a code or a challenge is one
// conditional UPDATE or DELETE whose row count says whether this request won it, so two
// requests can never both spend the same one.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface TotpRow {
  secret: string;
  enabled: 0 | 1;
}

export function findTotp(db: Kysely<Database>, accountId: number): Promise<TotpRow | undefined> {
  return db.selectFrom('totp_secrets').select(['secret', 'enabled']).where('account_id', '=', accountId).executeTakeFirst();
}

/** Stores a pending (not yet enabled) secret, replacing a pending one. Never touches an enabled secret. */
export async function savePendingTotp(db: Kysely<Database>, accountId: number, secret: string, now: number): Promise<void> {
  await db.deleteFrom('totp_secrets').where('account_id', '=', accountId).where('enabled', '=', 0).execute();
  await db.insertInto('totp_secrets').values({ account_id: accountId, secret, enabled: 0, created_at: now }).execute();
}

/** Turns the pending secret on, its confirming code's step spent; false when nothing was pending. */
export async function enableTotp(db: Kysely<Database>, accountId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('totp_secrets')
    .set({ enabled: 1, last_used_step: step })
    .where('account_id', '=', accountId)
    .where('enabled', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Turns MFA off: the secret and the recovery codes go; false when there was no secret. */
export async function deleteTotp(db: Kysely<Database>, accountId: number): Promise<boolean> {
  const result = await db.deleteFrom('totp_secrets').where('account_id', '=', accountId).executeTakeFirst();
  await db.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
  return Number(result.numDeletedRows) > 0;
}

/** Spends a TOTP step: false when that step or a newer one was already accepted (a replay). */
export async function spendTotpStep(db: Kysely<Database>, accountId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('totp_secrets')
    .set({ last_used_step: step })
    .where('account_id', '=', accountId)
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Replaces the account's recovery codes with these (hashes). */
export async function replaceRecoveryCodes(db: Kysely<Database>, accountId: number, codeHashes: string[]): Promise<void> {
  await db.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
  await db
    .insertInto('recovery_codes')
    .values(codeHashes.map((code_hash) => ({ account_id: accountId, code_hash })))
    .execute();
}

/** Spends an unused recovery code stored under one of `codeHashes`; false when the account has no such unused code. */
export async function spendRecoveryCode(db: Kysely<Database>, accountId: number, codeHashes: string[], now: number): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('account_id', '=', accountId)
    .where('code_hash', 'in', codeHashes)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countRecoveryCodesLeft(db: Kysely<Database>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('left'))
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}

/**
 * Opens a login challenge, if the account's password is still the one just checked: a
 * password changed (or the account deleted) while it was being checked opens none. False then.
 */
export async function insertChallenge(
  db: Kysely<Database>,
  challenge: { accountId: number; passwordHash: string; tokenHash: string; expiresAt: number; firstStep?: 'email_code' },
): Promise<boolean> {
  const result = await db
    .insertInto('mfa_challenges')
    .columns(['account_id', 'token_hash', 'expires_at', 'first_step'])
    .expression((eb) =>
      eb
        .selectFrom('accounts')
        .select([
          'id',
          sql<string>`cast(${challenge.tokenHash} as text)`.as('token_hash'),
          sql<number>`cast(${challenge.expiresAt} as bigint)`.as('expires_at'),
          sql<'email_code' | null>`cast(${challenge.firstStep ?? null} as varchar(20))`.as('first_step'),
        ])
        .where('id', '=', challenge.accountId)
        .where('password_hash', '=', challenge.passwordHash),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The sign-in waiting for its second step came through an identity (docs/sign-in-providers.md). */
export async function recordChallengeIdentity(db: Kysely<Database>, tokenHash: string, identityId: number): Promise<void> {
  await db.updateTable('mfa_challenges').set({ identity_id: identityId }).where('token_hash', '=', tokenHash).execute();
}

export function findChallenge(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('mfa_challenges')
    .select(['id', 'account_id', 'failed_attempts', 'expires_at', 'identity_id', 'first_step'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Counts a code against the challenge before it is judged, in one conditional UPDATE, so
 * parallel codes cannot pass its cap together; false when the challenge is gone, expired or
 * has had `maxAttempts` codes already.
 */
export async function countChallengeAttempt(db: Kysely<Database>, challengeId: number, maxAttempts: number, now: number): Promise<boolean> {
  const row = await db
    .updateTable('mfa_challenges')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', challengeId)
    .where('failed_attempts', '<', maxAttempts)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends every login of the account waiting for its second step. */
export async function deleteAccountChallenges(db: Kysely<Database>, accountId: number): Promise<void> {
  await db.deleteFrom('mfa_challenges').where('account_id', '=', accountId).execute();
}

/** Uses the challenge up; false when another request already did. */
export async function spendChallenge(db: Kysely<Database>, challengeId: number): Promise<boolean> {
  const result = await db.deleteFrom('mfa_challenges').where('id', '=', challengeId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteChallengesBefore(db: Kysely<Database>, time: number): Promise<number> {
  const result = await db.deleteFrom('mfa_challenges').where('expires_at', '<', time).executeTakeFirst();
  return Number(result.numDeletedRows);
}
