// Signing in with an e-mailed code (docs/accounts.md#codes-by-e-mail): POST /auth/email-code/
// mails a code to a verified address of an account that is not disabled, and answers the same
// whatever the address; POST /auth/login/email-code/ exchanges the code for what a password
// login earns (sign-in-answer.ts: a token, or the two-step answer with TOTP on). Accounts
// without a password sign in this way too. A try counts as a login failure (login-throttle.ts,
// per address and IP) until it proves right, and, with TOTP on, until the second step completes,
// as a password login's does.
import type { FastifyBaseLogger } from 'fastify';
import type { LoginThrottle } from '../../auth/login-throttle.ts';
import type { AppContext } from '../../context.ts';
import { fieldError } from '../../errors.ts';
import { lockAccount } from '../core/account-lock.ts';
import { findCodeAddress, spendEmailCode } from '../emails/email-code-queries.ts';
import { checkEmailCode, WRONG_EMAIL_CODE } from '../emails/email-codes.ts';
import { sendSignInCode, signInCodeCooldown } from '../emails/email-keys.ts';
import { type LoginResult, type Origin, signInAnswer } from '../sessions/sign-in-answer.ts';

/**
 * Mails a sign-in code when `email` is a verified address of an account that is not disabled,
 * unless one went to it within the per-address cooldown. The caller answers the same whatever
 * happens here. `log`: the request's logger.
 */
export async function requestSignInCode(ctx: AppContext, email: string, log: FastifyBaseLogger): Promise<void> {
  const address = await findCodeAddress(ctx.db.kysely, email);
  if (address?.verified !== 1 || address.disabled_at !== null) return;
  const sent = await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, address.account_id);
    if ((await signInCodeCooldown(ctx, trx, address.email)) > 0) return false;
    await sendSignInCode(ctx, trx, address);
    return true;
  });
  if (sent) ctx.outbox.wake();
  else log.info({ addressId: address.id }, 'sign-in code not sent: per-address cooldown');
}

export async function signInWithEmailCode(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: Origin & { email: string; code: string },
): Promise<LoginResult> {
  const address = await findCodeAddress(ctx.db.kysely, input.email);
  const attempt = await throttle.begin(address ? `account:${address.account_id}` : `address:${input.email.toLowerCase()}`, input.ip);
  const found = await checkEmailCode(ctx, 'sign-in', input.email, input.code);
  // The code went to this address when it was verified; it must still be, and still be the account's.
  if (address?.verified !== 1 || address.account_id !== found.account_id) throw fieldError('email_code', WRONG_EMAIL_CODE);
  const spent = await ctx.db.transaction((trx) => spendEmailCode(trx, found.id, ctx.clock.now()));
  if (!spent) throw fieldError('email_code', WRONG_EMAIL_CODE);
  const answer = await signInAnswer(ctx, address, 'email_code', input);
  // With a second step to come, the attempt stays a failure until that step completes.
  if ('token' in answer) await attempt.succeeded();
  return answer;
}
