// Login (contract §3): an unknown address and a wrong password answer alike, in status, body
// and time (the password is checked against a dummy hash when no account has the address).
// Only a verified address logs in; any verified address of the account does.
//
// With two-step sign-in on (contract §9), a right password earns a short-lived, single-use
// mfa_token instead of a token; the token comes from /auth/login/mfa/ with a second factor.
// Wrong codes count as login failures (login-throttle.ts) and kill the mfa_token after a few.
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { MAX_PASSWORD_LENGTH, verifyPassword } from '../auth/passwords.ts';
import { hashSecret, newSecret } from '../auth/token-hash.ts';
import { issueToken } from '../auth/token-queries.ts';
import type { AppContext } from '../context.ts';
import { DomainError, fieldError, nonFieldError } from '../errors.ts';
import { findAccount } from './account-queries.ts';
import { findLoginAddress } from './email-address-queries.ts';
import { countChallengeFailure, findChallenge, insertChallenge, spendChallenge } from './mfa-queries.ts';
import { requireSecondFactor, totpEnabled } from './second-factor.ts';
import { sessionOrigin } from './session-origin.ts';

export const INVALID_CREDENTIALS = 'Invalid credentials: unable to log in with the provided e-mail address and password.';
export const UNVERIFIED_ADDRESS = 'This e-mail address is not verified yet. Verify it first with the link we sent to it, then log in.';
export const DEAD_MFA_TOKEN = 'This sign-in has expired or was already completed. Log in again with your password.';
export const EXHAUSTED_MFA_TOKEN = 'Too many wrong codes for this sign-in. Log in again with your password.';

/** How long an mfa_token lives, and how many wrong codes it survives. */
export const MFA_TOKEN_TTL_MS = 5 * 60_000;
export const MFA_TOKEN_MAX_FAILURES = 5;

export interface Origin {
  ip: string;
  /** The User-Agent header, remembered with the session. */
  userAgent: string | undefined;
}

export interface LoginInput extends Origin {
  email: string;
  password: string;
}

export type LoginResult = { token: string } | { mfa_required: true; mfa_token: string };

export async function logIn(ctx: AppContext, throttle: LoginThrottle, input: LoginInput): Promise<LoginResult> {
  const address = await findLoginAddress(ctx.db.kysely, input.email);
  const throttleKey = address ? `account:${address.account_id}` : `address:${input.email.toLowerCase()}`;
  const attempt = await throttle.begin(throttleKey, input.ip);

  // Too long to be anyone's password: refused without hashing it.
  const passwordMatches = input.password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(address?.password_hash, input.password));
  if (!address || !passwordMatches) throw nonFieldError(INVALID_CREDENTIALS);
  // Taking the failure back runs beside the rest, so counting costs a right password one
  // query's time (the count before hashing), not two.
  const [, result] = await Promise.all([attempt.succeeded(), afterRightPassword(ctx, address, input)]);
  return result;
}

async function afterRightPassword(
  ctx: AppContext,
  address: { account_id: number; verified: number },
  input: LoginInput,
): Promise<LoginResult> {
  if (address.verified !== 1) throw nonFieldError(UNVERIFIED_ADDRESS);
  const now = ctx.clock.now();
  if (await totpEnabled(ctx.db.kysely, address.account_id)) {
    const mfaToken = newSecret();
    await insertChallenge(ctx.db.kysely, address.account_id, hashSecret(mfaToken), now + MFA_TOKEN_TTL_MS);
    return { mfa_required: true, mfa_token: mfaToken };
  }
  return { token: await issueToken(ctx.db.kysely, address.account_id, now, sessionOrigin(input.userAgent, input.ip)) };
}

/** The second step: the mfa_token and a TOTP or recovery code; returns the session's token. */
export async function completeMfaLogin(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: Origin & { mfaToken: string; code: string },
): Promise<string> {
  const challenge = await findChallenge(ctx.db.kysely, hashSecret(input.mfaToken));
  if (!challenge || challenge.expires_at <= ctx.clock.now()) throw fieldError('mfa_token', DEAD_MFA_TOKEN);
  if (challenge.failed_attempts >= MFA_TOKEN_MAX_FAILURES) throw fieldError('mfa_token', EXHAUSTED_MFA_TOKEN);
  const attempt = await throttle.begin(`account:${challenge.account_id}`, input.ip);
  const account = await findAccount(ctx.db.kysely, challenge.account_id);
  if (!account) throw fieldError('mfa_token', DEAD_MFA_TOKEN);

  let token: string;
  try {
    // The challenge and the code are spent together, so neither is used up without the other.
    token = await ctx.db.transaction(async (trx) => {
      if (!(await spendChallenge(trx, challenge.id))) throw fieldError('mfa_token', DEAD_MFA_TOKEN);
      await requireSecondFactor(ctx, trx, account, input.code);
      return issueToken(trx, account.id, ctx.clock.now(), sessionOrigin(input.userAgent, input.ip));
    });
  } catch (error) {
    if (error instanceof DomainError && 'code' in error.body) await countChallengeFailure(ctx.db.kysely, challenge.id);
    throw error;
  }
  await attempt.succeeded();
  ctx.outbox.wake();
  return token;
}
