// POST /account/verify-email/ (docs/accounts.md): the key from the e-mail, or the address and
// the code from the same e-mail (docs/accounts.md#codes-by-e-mail), plus the password of the
// address's owner, so that a mistyped address cannot be verified by a stranger. A wrong
// password leaves the key or code usable; a key or code works once.
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { fieldError, nonFieldError, notFound } from '../../errors.ts';
import { queueMemberSync } from '../../mailchimp/queue-member-sync.ts';
import type { LoginThrottle } from '../../auth/login-throttle.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { lockAccount } from '../core/account-lock.ts';
import { findAccount } from '../core/account-queries.ts';
import { findAddress, findLoginAddress, markAddressVerified, replacePrimary } from './email-address-queries.ts';
import { endEmailCodes, spendEmailCode } from './email-code-queries.ts';
import { checkEmailCode, WRONG_EMAIL_CODE } from './email-codes.ts';
import { REPLACE_PRIMARY_ACTION } from './email-schemas.ts';
import { queueAccountEvent, queueFirstVerification } from '../../webhooks/webhook-events.ts';
import { findVerificationKey, useAllVerificationKeys, useVerificationKey } from './key-queries.ts';
import { recordSecurityEvent, type Via } from '../../activity/activity-events.ts';

export const INVALID_VERIFICATION_KEY = 'verification.invalidKey';
export const EXPIRED_VERIFICATION_KEY = 'verification.expiredKey';
const WRONG_PASSWORD = 'verification.wrongPassword';

/** What the route was sent: `key`, or `email` with `email_code`, and the password. */
export interface VerificationRequest {
  key?: string;
  email?: string;
  emailCode?: string;
  password: string;
  ip: string;
  via: Via;
}

export function verifyEmailBy(ctx: AppContext, throttle: LoginThrottle, request: VerificationRequest): Promise<void> {
  const { key, email, emailCode, password, ip, via } = request;
  if (key !== undefined && emailCode !== undefined) throw nonFieldError('verification.keyOrCode');
  if (emailCode !== undefined) {
    if (email === undefined) throw fieldError('email', 'verification.emailNeeded');
    return verifyEmailWithCode(ctx, throttle, { email, code: emailCode, password, ip, via });
  }
  // Without a code, the key is what is missing (as before codes, for the clients of then).
  if (key === undefined) throw fieldError('key', 'validation.required');
  return verifyEmail(ctx, key, password, via);
}

export async function verifyEmail(ctx: AppContext, key: string, password: string, via: Via): Promise<void> {
  const found = await findVerificationKey(ctx.db.kysely, key);
  if (!found || found.used_at !== null) throw fieldError('key', INVALID_VERIFICATION_KEY);
  if (found.expires_at <= ctx.clock.now()) throw fieldError('key', EXPIRED_VERIFICATION_KEY);
  if (!(await verifyPassword(found.password_hash, password))) throw nonFieldError(WRONG_PASSWORD);

  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, found.account_id);
    // Another request used the key (or its address was deleted) since it was read.
    if (!(await useVerificationKey(trx, found.key_id, ctx.clock.now()))) throw fieldError('key', INVALID_VERIFICATION_KEY);
    await markVerified(ctx, trx, found.account_id, found.address_id, via);
  });
  ctx.outbox.wake();
}

/**
 * The same with the address and its e-mailed code. A wrong code counts as a login failure (per
 * address and IP, login-throttle.ts) besides using up one of the code's five tries.
 */
export async function verifyEmailWithCode(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: { email: string; code: string; password: string; ip: string; via: Via },
): Promise<void> {
  const owner = await findLoginAddress(ctx.db.kysely, input.email);
  const attempt = await throttle.begin(owner ? `account:${owner.account_id}` : `address:${input.email.toLowerCase()}`, input.ip);
  const found = await checkEmailCode(ctx, 'verification', input.email, input.code);
  // A right code is no failure, whatever comes after it.
  await attempt.succeeded();
  const account = await findAccount(ctx.db.kysely, found.account_id);
  if (!account) throw fieldError('email_code', WRONG_EMAIL_CODE);
  if (!(await verifyPassword(account.password_hash, input.password))) throw nonFieldError(WRONG_PASSWORD);

  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, found.account_id);
    // Spent by another request, or replaced, or its address deleted, since it was read.
    if (!(await spendEmailCode(trx, found.id, ctx.clock.now()))) throw fieldError('email_code', WRONG_EMAIL_CODE);
    await markVerified(ctx, trx, found.account_id, found.email_address_id, input.via);
  });
  ctx.outbox.wake();
}

/** Marks the address verified, ends its other keys and codes, and runs its verification action; under the account lock. */
async function markVerified(ctx: AppContext, trx: Kysely<Database>, accountId: number, addressId: number, via: Via): Promise<void> {
  const now = ctx.clock.now();
  const address = await findAddress(trx, accountId, addressId);
  if (!address) throw notFound();
  await queueFirstVerification(ctx, trx, accountId);
  await markAddressVerified(trx, address.id);
  await useAllVerificationKeys(trx, address.id, now);
  await endEmailCodes(trx, 'verification', { addressId: address.id });
  await recordSecurityEvent(trx, accountId, now, 'address_verified', via, {
    object: { type: 'email_address', id: address.id, name: address.email },
  });
  if (address.verified_action === REPLACE_PRIMARY_ACTION && address.is_primary !== 1) {
    const account = await findAccount(trx, accountId);
    if (!account) throw notFound();
    await replacePrimary(trx, accountId, address.id);
    await queueAccountEvent(ctx, trx, 'account.email_changed', accountId);
    await queueMemberSync(ctx, trx, accountId, {
      previousEmail: account.email,
      email: address.email,
      firstName: account.first_name,
      lastName: account.last_name,
    });
  }
}
