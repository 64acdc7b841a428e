// Sending verification and reset keys (each with its code) and sign-in codes by e-mail, and the
// limits on how often (docs/api-conventions.md#limits): per address (RATE_LIMIT_EMAIL_PER_ADDRESS, default one a minute, whichever account holds the
// address, so deleting and adding it again does not reset it) and, for verification e-mails,
// per account (RATE_LIMIT_VERIFICATION_EMAILS_PER_ACCOUNT), so one account cannot mail many
// strangers. Both count the rows of email_sends; callers hold the account lock, so two
// requests of one account cannot both pass.
import type { Kysely } from 'kysely';
import type { RateLimit } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Database, EmailSendKind } from '../../db/schema.ts';
import { newSecret } from '../../auth/token-hash.ts';
import { rateLimitedFor } from '../../errors.ts';
import { queueEmail } from '../../mail/email-delivery.ts';
import { recipientLanguage } from '../../mail/recipient-language.ts';
import { passwordResetMessage, signInCodeMessage, verificationMessage } from '../../mail/messages.ts';
import { recordKeySent } from './email-address-queries.ts';
import { recordEmailSend, sendTimes } from './email-send-queries.ts';
import { issueEmailCode } from './email-codes.ts';
import { insertResetKey, insertVerificationKey } from './key-queries.ts';

export interface KeyAddress {
  id: number;
  account_id: number;
  email: string;
}

/** Milliseconds until `limit` allows one more, given the times inside its window (oldest first); 0 = now. */
function waitFor(limit: RateLimit, recentTimes: number[], now: number): number {
  if (recentTimes.length < limit.max) return 0;
  // Allowed again once all but max-1 of the recent ones have left the window.
  return recentTimes[recentTimes.length - limit.max]! + limit.windowMs - now;
}

async function addressWait(ctx: AppContext, db: Kysely<Database>, email: string, kind: EmailSendKind): Promise<number> {
  const { enabled, emailPerAddress } = ctx.config.rateLimits;
  if (!enabled) return 0;
  const now = ctx.clock.now();
  return waitFor(emailPerAddress, await sendTimes(db, { email }, kind, now - emailPerAddress.windowMs), now);
}

/** Milliseconds until another reset e-mail may go to the address; 0 = now. */
export function resetCooldown(ctx: AppContext, db: Kysely<Database>, email: string): Promise<number> {
  return addressWait(ctx, db, email, 'reset');
}

/** Throws 429 when a verification e-mail to `email`, caused by the account, is over either limit. */
export async function checkVerificationLimits(ctx: AppContext, db: Kysely<Database>, accountId: number, email: string): Promise<void> {
  const { enabled, verificationEmailsPerAccount: perAccount } = ctx.config.rateLimits;
  if (!enabled) return;
  const toAddress = await addressWait(ctx, db, email, 'verification');
  if (toAddress > 0) throw rateLimitedFor(toAddress, 'verification.sentMomentsAgo');
  const now = ctx.clock.now();
  const forAccount = waitFor(perAccount, await sendTimes(db, { accountId }, 'verification', now - perAccount.windowMs), now);
  if (forAccount > 0) throw rateLimitedFor(forAccount, 'verification.tooManySent');
}

/** Milliseconds until another sign-in code may go to the address; 0 = now. */
export function signInCodeCooldown(ctx: AppContext, db: Kysely<Database>, email: string): Promise<number> {
  return addressWait(ctx, db, email, 'sign-in');
}

/** Makes a verification key and its code, and queues the e-mail carrying both, in the caller's transaction. */
export async function sendVerificationKey(ctx: AppContext, trx: Kysely<Database>, address: KeyAddress): Promise<void> {
  const now = ctx.clock.now();
  const key = newSecret();
  await insertVerificationKey(trx, address.id, key, { now, expiresAt: now + ctx.config.emailVerificationTtlMs });
  await recordKeySent(trx, address.id, now);
  const code = await issueEmailCode(ctx, trx, 'verification', address);
  await recordEmailSend(trx, { email: address.email, accountId: address.account_id, kind: 'verification', now });
  await queueEmail(
    ctx,
    trx,
    verificationMessage(ctx.config, await recipientLanguage(ctx.config, trx, address.account_id), address.email, key, code),
    address.account_id,
  );
}

/** Makes a password reset key and its code, and queues the e-mail carrying both, in the caller's transaction. */
export async function sendResetKey(ctx: AppContext, trx: Kysely<Database>, address: KeyAddress): Promise<void> {
  const now = ctx.clock.now();
  const key = newSecret();
  await insertResetKey(trx, address.account_id, address.id, key, { now, expiresAt: now + ctx.config.passwordResetTtlMs });
  await recordKeySent(trx, address.id, now);
  const code = await issueEmailCode(ctx, trx, 'reset', address);
  await recordEmailSend(trx, { email: address.email, accountId: address.account_id, kind: 'reset', now });
  await queueEmail(
    ctx,
    trx,
    passwordResetMessage(ctx.config, await recipientLanguage(ctx.config, trx, address.account_id), address.email, key, code),
    address.account_id,
  );
}

/** Makes a sign-in code and queues the e-mail carrying it, in the caller's transaction. */
export async function sendSignInCode(ctx: AppContext, trx: Kysely<Database>, address: KeyAddress): Promise<void> {
  const now = ctx.clock.now();
  const code = await issueEmailCode(ctx, trx, 'sign-in', address);
  await recordKeySent(trx, address.id, now);
  await recordEmailSend(trx, { email: address.email, accountId: address.account_id, kind: 'sign-in', now });
  await queueEmail(
    ctx,
    trx,
    signInCodeMessage(await recipientLanguage(ctx.config, trx, address.account_id), address.email, code),
    address.account_id,
  );
}
