// Password reset requests and password changes (docs/accounts.md).
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { fieldError, invalid, nonFieldError, notFound, unauthenticated, type FieldErrors } from '../../errors.ts';
import { queueEmail } from '../../mail/email-delivery.ts';
import { recipientLanguage } from '../../mail/recipient-language.ts';
import { passwordChangedMessage } from '../../mail/messages.ts';
import { passwordProblems } from '../../auth/password-rules.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import type { LoginThrottle } from '../../auth/login-throttle.ts';
import type { Caller } from '../../auth/token-auth.ts';
import { revokeAccountTokens } from '../../auth/token-queries.ts';
import { lockAccount } from '../core/account-lock.ts';
import { findAccount, updatePasswordHash } from '../core/account-queries.ts';
import { findAddressByEmail } from '../emails/email-address-queries.ts';
import { resetCooldown, sendResetKey } from '../emails/email-keys.ts';
import { findResetKey, useAllResetKeys, useResetKey } from '../emails/key-queries.ts';
import { endEmailCodes, spendEmailCode } from '../emails/email-code-queries.ts';
import { checkEmailCode, WRONG_EMAIL_CODE } from '../emails/email-codes.ts';
import { deleteAccountChallenges } from '../mfa/mfa-queries.ts';
import { MISSING_CODE, requireSecondFactor, totpEnabled } from '../mfa/mfa-check.ts';
import { recordSecurityEvent, type Via } from '../../activity/activity-events.ts';

export const INVALID_RESET_KEY = 'passwords.invalidResetKey';
export const EXPIRED_RESET_KEY = 'passwords.expiredResetKey';

/**
 * E-mails a reset key when `email` is a verified address of an account, unless one was sent
 * to it within the per-address cooldown. The caller answers the same whatever happens here.
 * `log`: the request's logger, so that the line carries its request id.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, log: FastifyBaseLogger): Promise<void> {
  const address = await findAddressByEmail(ctx.db.kysely, email);
  if (address?.verified !== 1) return;
  const sent = await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, address.account_id);
    if ((await resetCooldown(ctx, trx, address.email)) > 0) return false;
    await sendResetKey(ctx, trx, address);
    return true;
  });
  if (sent) ctx.outbox.wake();
  else log.info({ addressId: address.id }, 'password reset e-mail not sent: per-address cooldown');
}

export interface PasswordChange {
  newPassword: string;
  key?: string;
  /** With `emailCode`: the address the reset e-mail went to. */
  email?: string;
  /** In place of `key`: the code of the reset e-mail (docs/accounts.md#codes-by-e-mail). */
  emailCode?: string;
  oldPassword?: string;
  /** With `key` or `emailCode`, when MFA is on: a TOTP or recovery code. */
  code?: string;
  /** The client's address, which the e-mailed code's tries count against. */
  ip: string;
  via: Via;
}

/** How the caller proves the reset: the key of the e-mail's link, or its code. */
type ResetProof = { keyId: number } | { codeId: number };

/**
 * With `oldPassword` (an authenticated caller): other tokens are revoked, the caller's is
 * kept; logins waiting for their second step end either way. With `key` or `email` and
 * `emailCode` (the forgotten-password flow): every token is revoked, and an account with
 * MFA on also needs its MFA code, so whoever reads the mailbox cannot take
 * the account over with the e-mail alone.
 * A wrong e-mailed code counts as a login failure (`codeTries`).
 */
export async function changePassword(
  ctx: AppContext,
  passwordChecks: PasswordCheckThrottle,
  codeTries: LoginThrottle,
  caller: Caller | null,
  change: PasswordChange,
): Promise<void> {
  const { key, email, emailCode, oldPassword, newPassword, code } = change;
  const given = [key, emailCode, oldPassword].filter((value) => value !== undefined).length;
  if (given === 0) {
    throw nonFieldError('passwords.proofNeeded');
  }
  if (given > 1) throw nonFieldError('passwords.oneProofOnly');

  let accountId: number;
  let reset: ResetProof | undefined;
  if (key !== undefined) {
    const found = await findResetKey(ctx.db.kysely, key);
    // A logged-in caller may use a key, but only one of their own account.
    if (!found || found.used_at !== null || (caller && caller.accountId !== found.account_id)) throw fieldError('key', INVALID_RESET_KEY);
    if (found.expires_at <= ctx.clock.now()) throw fieldError('key', EXPIRED_RESET_KEY);
    accountId = found.account_id;
    reset = { keyId: found.id };
  } else if (emailCode !== undefined) {
    if (email === undefined) throw fieldError('email', 'passwords.emailNeeded');
    const owner = await findAddressByEmail(ctx.db.kysely, email);
    const attempt = await codeTries.begin(owner ? `account:${owner.account_id}` : `address:${email.toLowerCase()}`, change.ip);
    const found = await checkEmailCode(ctx, 'reset', email, emailCode);
    // A right code is no failure, whatever comes after it (a weak new password, say).
    await attempt.succeeded();
    // As with a key: a logged-in caller may use only a code of their own account.
    if (caller && caller.accountId !== found.account_id) throw fieldError('email_code', WRONG_EMAIL_CODE);
    accountId = found.account_id;
    reset = { codeId: found.id };
  } else {
    if (!caller) throw unauthenticated('auth.notAuthenticated');
    accountId = caller.accountId;
  }
  const account = await findAccount(ctx.db.kysely, accountId);
  if (!account) throw notFound();

  const errors: FieldErrors = {};
  if (oldPassword !== undefined) {
    const attempt = await passwordChecks.begin(accountId);
    if (await verifyPassword(account.password_hash, oldPassword)) await attempt.succeeded();
    else errors.old_password = ['passwords.wrongOldPassword'];
  }
  const needsSecondFactor = reset !== undefined && (await totpEnabled(ctx.db.kysely, accountId));
  if (needsSecondFactor && !code) errors.code = [MISSING_CODE];
  const problems = await passwordProblems(newPassword, {
    email: account.email,
    firstName: account.first_name,
    lastName: account.last_name,
  });
  if (problems.length > 0) errors.new_password = problems;
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const unchanged = oldPassword !== undefined ? newPassword === oldPassword : await verifyPassword(account.password_hash, newPassword);
  if (unchanged) throw fieldError('new_password', 'passwords.unchanged');

  // Wrong codes count against the account's password checks, as wrong passwords do.
  const factorAttempt = needsSecondFactor ? await passwordChecks.begin(accountId) : undefined;
  const passwordHash = await hashPassword(newPassword);
  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    const now = ctx.clock.now();
    if (reset && 'keyId' in reset && !(await useResetKey(trx, reset.keyId, now))) throw fieldError('key', INVALID_RESET_KEY);
    if (reset && 'codeId' in reset && !(await spendEmailCode(trx, reset.codeId, now))) throw fieldError('email_code', WRONG_EMAIL_CODE);
    if (reset) await requireSecondFactor(ctx, trx, account, code, change.via);
    await updatePasswordHash(trx, accountId, passwordHash);
    await useAllResetKeys(trx, accountId, now);
    await endEmailCodes(trx, 'reset', { accountId });
    await revokeAccountTokens(trx, accountId, reset === undefined ? caller!.tokenId : undefined);
    await deleteAccountChallenges(trx, accountId);
    await queueEmail(ctx, trx, passwordChangedMessage(await recipientLanguage(ctx.config, trx, accountId), account.email), accountId);
    await recordSecurityEvent(trx, accountId, now, reset === undefined ? 'password_changed' : 'password_reset', change.via);
  });
  await factorAttempt?.succeeded();
  ctx.outbox.wake();
}
