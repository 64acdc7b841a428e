// The MFA code of an account with MFA on (docs/accounts.md): a TOTP code of a step
// not used before, or an unused recovery code. Spent inside the caller's transaction, so a code
// is used up only when what it authorises commits. Using a recovery code e-mails the primary
// address, in the same transaction.
import type { Kysely } from 'kysely';
import { recoveryCodeLookups } from '../../auth/recovery-codes.ts';
import { matchTotp } from '../../auth/totp.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { fieldError } from '../../errors.ts';
import { queueEmail } from '../../mail/email-delivery.ts';
import { recipientLanguage } from '../../mail/recipient-language.ts';
import { recoveryCodeUsedMessage } from '../../mail/messages.ts';
import { countRecoveryCodesLeft, findTotp, spendRecoveryCode, spendTotpStep } from './mfa-queries.ts';
import { recordSecurityEvent, type Via } from '../../activity/activity-events.ts';

export const MISSING_CODE = 'mfa.missingCode';
export const WRONG_CODE = 'mfa.wrongCode';

export interface FactorAccount {
  id: number;
  /** The primary address, told when a recovery code is used. */
  email: string;
}

/** The TOTP secret in the clear; it is stored sealed to its account. */
export function openTotpSecret(ctx: AppContext, accountId: number, sealed: string): string {
  return ctx.secrets.mfa.open(sealed, `totp:${accountId}`);
}

export function sealTotpSecret(ctx: AppContext, accountId: number, secret: string): string {
  return ctx.secrets.mfa.seal(secret, `totp:${accountId}`);
}

export async function totpEnabled(db: Kysely<Database>, accountId: number): Promise<boolean> {
  return (await findTotp(db, accountId))?.enabled === 1;
}

/** Spends `code` as the account's MFA code; false when it is neither a fresh TOTP code nor an unused recovery code. */
export async function spendSecondFactor(
  ctx: AppContext,
  trx: Kysely<Database>,
  account: FactorAccount,
  code: string,
  via: Via,
): Promise<boolean> {
  const totp = await findTotp(trx, account.id);
  if (totp?.enabled !== 1) return false;
  const now = ctx.clock.now();
  const step = matchTotp(openTotpSecret(ctx, account.id, totp.secret), code.replace(/\s/g, ''), now);
  if (step !== null) return spendTotpStep(trx, account.id, step);

  const lookups = recoveryCodeLookups(ctx.secrets.recoveryCodes, code);
  if (lookups.length === 0 || !(await spendRecoveryCode(trx, account.id, lookups, now))) return false;
  await queueEmail(
    ctx,
    trx,
    recoveryCodeUsedMessage(
      await recipientLanguage(ctx.config, trx, account.id),
      account.email,
      await countRecoveryCodesLeft(trx, account.id),
    ),
    account.id,
  );
  await recordSecurityEvent(trx, account.id, now, 'recovery_code_used', via);
  return true;
}

/**
 * When the account has MFA on, `code` must be an MFA code, spent here
 * (400 under `code` when missing or wrong). Nothing is asked of an account without it.
 */
export async function requireSecondFactor(
  ctx: AppContext,
  trx: Kysely<Database>,
  account: FactorAccount,
  code: string | undefined,
  via: Via,
): Promise<void> {
  if (!(await totpEnabled(trx, account.id))) return;
  if (code === undefined || code === '') throw fieldError('code', MISSING_CODE);
  if (!(await spendSecondFactor(ctx, trx, account, code, via))) throw fieldError('code', WRONG_CODE);
}
