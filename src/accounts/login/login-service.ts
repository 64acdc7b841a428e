// Login (docs/accounts.md): an unknown address and a wrong password answer alike, in status, body
// and time (the password is checked against a dummy hash when no account has the address).
// Only a verified address logs in; any verified address of the account does.
//
// With MFA on (docs/accounts.md), a right password earns a short-lived, single-use
// mfa_token instead of a token; the token comes from /auth/login/mfa/ with an MFA code.
// Wrong codes count as login failures (login-throttle.ts) and kill the mfa_token after a few;
// too many in a row for one account, whatever the mfa_token, lock the second step for a while.
import type { LoginThrottle } from '../../auth/login-throttle.ts';
import { MAX_PASSWORD_LENGTH, verifyPassword } from '../../auth/passwords.ts';
import { hashSecret } from '../../auth/token-hash.ts';
import type { AppContext } from '../../context.ts';
import { fieldError, nonFieldError } from '../../errors.ts';
import { queueEmail } from '../../mail/email-delivery.ts';
import { recipientLanguage } from '../../mail/recipient-language.ts';
import { secondStepLockedMessage } from '../../mail/messages.ts';
import { findAccount } from '../core/account-queries.ts';
import { findLoginAddress } from '../emails/email-address-queries.ts';
import { recordIdentitySession } from '../identities/identity-queries.ts';
import { countChallengeAttempt, findChallenge, spendChallenge } from '../mfa/mfa-queries.ts';
import { spendSecondFactor, totpEnabled, WRONG_CODE } from '../mfa/mfa-check.ts';
import { sessionOrigin } from '../sessions/session-origin.ts';
import { accountDisabled, issueSignInToken } from '../sessions/sign-in-token.ts';
import { type LoginResult, MFA_TOKEN_MAX_FAILURES, type Origin, openSecondStep } from '../sessions/sign-in-answer.ts';
import { recordSecurityEvent } from '../../activity/activity-events.ts';

export const INVALID_CREDENTIALS = 'login.invalidCredentials';
export const UNVERIFIED_ADDRESS = 'login.unverifiedAddress';
export const DEAD_MFA_TOKEN = 'login.deadMfaToken';
export const EXHAUSTED_MFA_TOKEN = 'login.exhaustedMfaToken';

export interface LoginInput extends Origin {
  email: string;
  password: string;
}

export async function logIn(ctx: AppContext, throttle: LoginThrottle, input: LoginInput): Promise<LoginResult> {
  const address = await findLoginAddress(ctx.db.kysely, input.email);
  const throttleKey = address ? `account:${address.account_id}` : `address:${input.email.toLowerCase()}`;
  const attempt = await throttle.begin(throttleKey, input.ip);

  // Too long to be anyone's password: refused without hashing it.
  const passwordMatches = input.password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(address?.password_hash, input.password));
  if (!address || !passwordMatches) throw nonFieldError(INVALID_CREDENTIALS);
  if (address.verified !== 1) {
    await attempt.succeeded();
    throw nonFieldError(UNVERIFIED_ADDRESS);
  }
  // Said only to who knows the password, and before a second step that could not end in a token.
  if (address.disabled_at !== null) {
    await attempt.succeeded();
    throw accountDisabled();
  }
  // With an MFA code to come, the attempt stays counted as a failure until it is given.
  if (await totpEnabled(ctx.db.kysely, address.account_id))
    return { mfa_required: true, mfa_token: await openSecondStep(ctx, address, INVALID_CREDENTIALS) };
  // Taking the failure back runs beside issuing the token: it costs a right password no wait.
  const [, token] = await Promise.all([
    attempt.succeeded(),
    ctx.db.transaction((trx) => issueSignInToken(ctx, trx, address.account_id, 'password', sessionOrigin(input))),
  ]);
  return { token };
}

/**
 * The second step: the mfa_token and a TOTP or recovery code; returns the session's token.
 * The attempt that makes the account's wrong codes in a row reach their limit, if it fails,
 * e-mails the owner: once per lock-out, since only one attempt can be that one.
 */
export async function completeMfaLogin(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: Origin & { mfaToken: string; code: string },
): Promise<string> {
  const challenge = await findChallenge(ctx.db.kysely, hashSecret(input.mfaToken));
  if (!challenge || challenge.expires_at <= ctx.clock.now()) throw fieldError('mfa_token', DEAD_MFA_TOKEN);
  if (challenge.failed_attempts >= MFA_TOKEN_MAX_FAILURES) throw fieldError('mfa_token', EXHAUSTED_MFA_TOKEN);
  const attempt = await throttle.beginSecondStep(`account:${challenge.account_id}`, input.ip);
  let token: string;
  try {
    token = await judgeSecondStep(ctx, challenge, input);
  } catch (error) {
    if (attempt.locksOnFailure) await tellOwnerOfLockout(ctx, challenge.account_id);
    throw error;
  }
  await attempt.succeeded();
  ctx.outbox.wake();
  return token;
}

async function judgeSecondStep(
  ctx: AppContext,
  challenge: { id: number; account_id: number; identity_id: number | null; first_step: 'email_code' | null },
  input: Origin & { mfaToken: string; code: string },
): Promise<string> {
  if (!(await countChallengeAttempt(ctx.db.kysely, challenge.id, MFA_TOKEN_MAX_FAILURES, ctx.clock.now()))) {
    const exhausted = (await findChallenge(ctx.db.kysely, hashSecret(input.mfaToken)))?.failed_attempts === MFA_TOKEN_MAX_FAILURES;
    throw fieldError('mfa_token', exhausted ? EXHAUSTED_MFA_TOKEN : DEAD_MFA_TOKEN);
  }
  const account = await findAccount(ctx.db.kysely, challenge.account_id);
  if (!account) throw fieldError('mfa_token', DEAD_MFA_TOKEN);
  // The challenge and the code are spent together, so neither is used up without the other. A
  // challenge completes only with a real MFA code: never once MFA is off.
  return ctx.db.transaction(async (trx) => {
    if (!(await spendChallenge(trx, challenge.id))) throw fieldError('mfa_token', DEAD_MFA_TOKEN);
    if (!(await spendSecondFactor(ctx, trx, account, input.code, input.via))) throw fieldError('code', WRONG_CODE);
    const method =
      challenge.first_step === 'email_code' ? 'email_code+totp' : challenge.identity_id === null ? 'password+totp' : 'provider+totp';
    const token = await issueSignInToken(ctx, trx, account.id, method, sessionOrigin(input), challenge.identity_id ?? undefined);
    // A sign-in through another provider: the session is the identity's (docs/sign-in-providers.md).
    if (challenge.identity_id !== null) await recordIdentitySession(trx, challenge.identity_id, hashSecret(token));
    return token;
  });
}

async function tellOwnerOfLockout(ctx: AppContext, accountId: number): Promise<void> {
  const account = await findAccount(ctx.db.kysely, accountId);
  if (!account) return;
  const lockMs = ctx.config.rateLimits.secondStepFailuresPerAccount.windowMs;
  await ctx.db.transaction(async (trx) => {
    await queueEmail(
      ctx,
      trx,
      secondStepLockedMessage(await recipientLanguage(ctx.config, trx, accountId), account.email, lockMs),
      accountId,
    );
    // The service locked it, not the person: no actor.
    await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'locked_out', null, { actor: null });
  });
  ctx.outbox.wake();
}
