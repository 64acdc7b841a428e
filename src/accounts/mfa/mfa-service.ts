// Managing MFA (docs/accounts.md): the state, enrolment (a pending secret, turned on by
// its first right code, which also makes the recovery codes), turning it off, and a new set of
// recovery codes. Password checks count against the account's limit (password-check-throttle.ts),
// whichever route makes them. Turning it on or off e-mails the primary address (once: only the
// request that changed it) and ends every login waiting for its second step.
import type { Kysely } from 'kysely';
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import { newRecoveryCodes, recoveryCodeHash } from '../../auth/recovery-codes.ts';
import { matchTotp, newTotpSecret, otpauthUrl } from '../../auth/totp.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, nonFieldError, notFound } from '../../errors.ts';
import { queueEmail } from '../../mail/email-delivery.ts';
import { recipientLanguage } from '../../mail/recipient-language.ts';
import { totpDisabledMessage, totpEnabledMessage } from '../../mail/messages.ts';
import { lockAccount } from '../core/account-lock.ts';
import { findAccount, type AccountRow } from '../core/account-queries.ts';
import {
  countRecoveryCodesLeft,
  deleteAccountChallenges,
  deleteTotp,
  enableTotp,
  findTotp,
  replaceRecoveryCodes,
  savePendingTotp,
} from './mfa-queries.ts';
import { openTotpSecret, requireSecondFactor, sealTotpSecret } from './mfa-check.ts';
import { recordSecurityEvent, type Via } from '../../activity/activity-events.ts';
import { queueAccountEvent } from '../../webhooks/webhook-events.ts';

export const ALREADY_ON = 'mfa.alreadyOn';
export const NOTHING_PENDING = 'mfa.nothingPending';
export const NOT_ON = 'mfa.notOn';
export const WRONG_CONFIRMATION_CODE = 'mfa.wrongConfirmationCode';

export interface MfaStatus {
  totp_enabled: boolean;
  recovery_codes_left: number;
}

export async function mfaStatus(ctx: AppContext, accountId: number): Promise<MfaStatus> {
  const totp = await findTotp(ctx.db.kysely, accountId);
  const enabled = totp?.enabled === 1;
  return { totp_enabled: enabled, recovery_codes_left: enabled ? await countRecoveryCodesLeft(ctx.db.kysely, accountId) : 0 };
}

async function accountOf(ctx: AppContext, accountId: number): Promise<AccountRow> {
  const account = await findAccount(ctx.db.kysely, accountId);
  if (!account) throw notFound();
  return account;
}

/** Stores a new pending secret (replacing a pending one) and returns it for the authenticator app; 409 when already on. */
export async function startTotpEnrolment(
  ctx: AppContext,
  passwordChecks: PasswordCheckThrottle,
  accountId: number,
  password: string,
): Promise<{ secret: string; otpauth_url: string }> {
  const account = await accountOf(ctx, accountId);
  if ((await findTotp(ctx.db.kysely, accountId))?.enabled === 1) throw conflict(ALREADY_ON);
  await (await passwordChecks.checkPassword(account, password)).succeeded();

  const secret = newTotpSecret();
  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    if ((await findTotp(trx, accountId))?.enabled === 1) throw conflict(ALREADY_ON);
    await savePendingTotp(trx, accountId, sealTotpSecret(ctx, accountId, secret), ctx.clock.now());
  });
  return { secret, otpauth_url: otpauthUrl(secret, ctx.config.mfaIssuer, account.email) };
}

/** Turns the pending secret on with its first right code; returns the new recovery codes. */
export async function confirmTotp(ctx: AppContext, accountId: number, code: string, via: Via): Promise<string[]> {
  const account = await accountOf(ctx, accountId);
  const pending = await findTotp(ctx.db.kysely, accountId);
  if (pending?.enabled !== 0) throw nonFieldError(NOTHING_PENDING);
  const step = matchTotp(openTotpSecret(ctx, accountId, pending.secret), code.replace(/\s/g, ''), ctx.clock.now());
  if (step === null) throw fieldError('code', WRONG_CONFIRMATION_CODE);

  const codes = newRecoveryCodes();
  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    // A secret replaced meanwhile by a new enrolment is not the one the code was checked against.
    const current = await findTotp(trx, accountId);
    if (current?.secret !== pending.secret || !(await enableTotp(trx, accountId, step))) throw nonFieldError(NOTHING_PENDING);
    await storeRecoveryCodes(ctx, trx, accountId, codes);
    await deleteAccountChallenges(trx, accountId);
    await queueEmail(ctx, trx, totpEnabledMessage(await recipientLanguage(ctx.config, trx, accountId), account.email), accountId);
    await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'second_factor_on', via);
    await queueAccountEvent(ctx, trx, 'account.second_factor_changed', accountId);
  });
  ctx.outbox.wake();
  return codes;
}

/** Turns MFA off, with the password and an MFA code. */
export async function disableTotp(
  ctx: AppContext,
  passwordChecks: PasswordCheckThrottle,
  accountId: number,
  proof: { password: string; code: string },
  via: Via,
): Promise<void> {
  const account = await accountOf(ctx, accountId);
  if ((await findTotp(ctx.db.kysely, accountId))?.enabled !== 1) throw nonFieldError(NOT_ON);
  const attempt = await passwordChecks.checkPassword(account, proof.password);
  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    // A parallel request (a double click) may have turned it off meanwhile: that one tells the owner.
    await requireOnAndSecondFactor(ctx, trx, account, proof.code, via);
    if (!(await deleteTotp(trx, accountId))) throw nonFieldError(NOT_ON);
    await deleteAccountChallenges(trx, accountId);
    await queueEmail(ctx, trx, totpDisabledMessage(await recipientLanguage(ctx.config, trx, accountId), account.email), accountId);
    await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'second_factor_off', via);
    await queueAccountEvent(ctx, trx, 'account.second_factor_changed', accountId);
  });
  await attempt.succeeded();
  ctx.outbox.wake();
}

/** A new set of recovery codes, with the password and an MFA code; the old set stops working. */
export async function regenerateRecoveryCodes(
  ctx: AppContext,
  passwordChecks: PasswordCheckThrottle,
  accountId: number,
  proof: { password: string; code: string },
  via: Via,
): Promise<string[]> {
  const account = await accountOf(ctx, accountId);
  if ((await findTotp(ctx.db.kysely, accountId))?.enabled !== 1) throw nonFieldError(NOT_ON);
  const attempt = await passwordChecks.checkPassword(account, proof.password);
  const codes = newRecoveryCodes();
  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    await requireOnAndSecondFactor(ctx, trx, account, proof.code, via);
    await storeRecoveryCodes(ctx, trx, accountId, codes);
    await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'recovery_codes_renewed', via);
  });
  await attempt.succeeded();
  // A recovery code given as the MFA code queued its notice.
  ctx.outbox.wake();
  return codes;
}

/** Inside the account's lock: 400 when MFA is not on (any more), else its MFA code is required. */
async function requireOnAndSecondFactor(
  ctx: AppContext,
  trx: Kysely<Database>,
  account: AccountRow,
  code: string,
  via: Via,
): Promise<void> {
  if ((await findTotp(trx, account.id))?.enabled !== 1) throw nonFieldError(NOT_ON);
  await requireSecondFactor(ctx, trx, account, code, via);
}

function storeRecoveryCodes(ctx: AppContext, trx: Kysely<Database>, accountId: number, codes: string[]): Promise<void> {
  return replaceRecoveryCodes(
    trx,
    accountId,
    codes.map((code) => recoveryCodeHash(ctx.secrets.recoveryCodes, code)!),
  );
}
