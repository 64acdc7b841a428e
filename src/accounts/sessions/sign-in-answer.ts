// What a sign-in that proved who the person is earns (docs/accounts.md, docs/sign-in-providers.md): a session token,
// or, with TOTP on, the two-step answer — a short-lived, single-use mfa_token for
// /auth/login/mfa/. The password login, the one-time login code and an app's ID token all end
// here, so they answer alike.
import { hashSecret, newSecret } from '../../auth/token-hash.ts';
import type { AppContext } from '../../context.ts';
import type { SignInMethod } from '../../db/schema.ts';
import { nonFieldError, type Message } from '../../errors.ts';
import { totpEnabled } from '../mfa/mfa-check.ts';
import { insertChallenge, recordChallengeIdentity } from '../mfa/mfa-queries.ts';
import { type Origin, sessionOrigin } from './session-origin.ts';
import { accountDisabled, issueSignInToken } from './sign-in-token.ts';

export type LoginResult = { token: string } | { mfa_required: true; mfa_token: string };

/** How long an mfa_token lives, and how many wrong codes it survives. */
export const MFA_TOKEN_TTL_MS = 5 * 60_000;
export const MFA_TOKEN_MAX_FAILURES = 5;

export const SIGN_IN_RACED = 'login.invalidCredentials';

export type { Origin } from './session-origin.ts';

/** True when the account signs in in two steps. */
export function needsSecondStep(ctx: AppContext, accountId: number): Promise<boolean> {
  return totpEnabled(ctx.db.kysely, accountId);
}

/** A new session for the account, opened by `method`; 400 when it is disabled (sign-in-token.ts). */
export function openSession(
  ctx: AppContext,
  accountId: number,
  method: SignInMethod,
  origin: Origin,
  identityId?: number,
): Promise<string> {
  return ctx.db.transaction((trx) => issueSignInToken(ctx, trx, accountId, method, sessionOrigin(origin), identityId));
}

/**
 * The second step's mfa_token, bound to the password hash the sign-in saw: a password changed
 * meanwhile voids it (`racedMessage` is then the answer). `firstStep`: the sign-in began with an
 * e-mailed code, so the session it opens is `email_code+totp`.
 */
export async function openSecondStep(
  ctx: AppContext,
  account: { account_id: number; password_hash: string },
  racedMessage: Message = SIGN_IN_RACED,
  identityId?: number,
  firstStep?: 'email_code',
): Promise<string> {
  const mfaToken = newSecret();
  const tokenHash = hashSecret(mfaToken);
  const opened = await insertChallenge(ctx.db.kysely, {
    accountId: account.account_id,
    passwordHash: account.password_hash,
    tokenHash,
    expiresAt: ctx.clock.now() + MFA_TOKEN_TTL_MS,
    firstStep,
  });
  if (!opened) throw nonFieldError(racedMessage);
  if (identityId !== undefined) await recordChallengeIdentity(ctx.db.kysely, tokenHash, identityId);
  return mfaToken;
}

/**
 * A token for a session opened by `method` (one factor), or with TOTP on the two-step answer;
 * `identityId`: the identity it came by, remembered for the second step.
 */
export async function signInAnswer(
  ctx: AppContext,
  account: { account_id: number; password_hash: string },
  method: SignInMethod,
  origin: Origin,
  identityId?: number,
): Promise<LoginResult> {
  // Said before a second step that could not end in a token (docs/operators.md).
  const state = await ctx.db.kysely.selectFrom('accounts').select('disabled_at').where('id', '=', account.account_id).executeTakeFirst();
  if (state && state.disabled_at !== null) throw accountDisabled();
  if (await needsSecondStep(ctx, account.account_id)) {
    const firstStep = method === 'email_code' ? method : undefined;
    return { mfa_required: true, mfa_token: await openSecondStep(ctx, account, SIGN_IN_RACED, identityId, firstStep) };
  }
  return { token: await openSession(ctx, account.account_id, method, origin, identityId) };
}
