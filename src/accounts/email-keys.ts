// Sending verification and reset keys by e-mail, and the per-address limit on how often
// (contract §8: RATE_LIMIT_EMAIL_PER_ADDRESS, default one a minute). The limit counts the
// keys of that kind made for the address inside the window, so no separate counter is kept;
// callers hold the account lock, so two requests cannot both pass it.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { newSecret } from '../auth/token-hash.ts';
import { queueEmail } from '../mail/email-delivery.ts';
import { passwordResetMessage, verificationMessage } from '../mail/messages.ts';
import { recordKeySent } from './email-address-queries.ts';
import { insertResetKey, insertVerificationKey, recentResetKeyTimes, recentVerificationKeyTimes } from './key-queries.ts';

export interface KeyAddress {
  id: number;
  email: string;
}

/** Milliseconds until another key e-mail may go out, given the recent ones (oldest first); 0 = now. */
function cooldownLeft(ctx: AppContext, recentTimes: number[], now: number): number {
  const { enabled, emailPerAddress } = ctx.config.rateLimits;
  if (!enabled || recentTimes.length < emailPerAddress.max) return 0;
  // Allowed again once all but max-1 of the recent ones have left the window.
  return recentTimes[recentTimes.length - emailPerAddress.max]! + emailPerAddress.windowMs - now;
}

export async function verificationCooldown(ctx: AppContext, db: Kysely<Database>, addressId: number): Promise<number> {
  const now = ctx.clock.now();
  const since = now - ctx.config.rateLimits.emailPerAddress.windowMs;
  return cooldownLeft(ctx, await recentVerificationKeyTimes(db, addressId, since), now);
}

export async function resetCooldown(ctx: AppContext, db: Kysely<Database>, addressId: number): Promise<number> {
  const now = ctx.clock.now();
  const since = now - ctx.config.rateLimits.emailPerAddress.windowMs;
  return cooldownLeft(ctx, await recentResetKeyTimes(db, addressId, since), now);
}

/** Makes a verification key and queues the e-mail carrying it, in the caller's transaction. */
export async function sendVerificationKey(ctx: AppContext, trx: Kysely<Database>, address: KeyAddress): Promise<void> {
  const now = ctx.clock.now();
  const key = newSecret();
  await insertVerificationKey(trx, address.id, key, { now, expiresAt: now + ctx.config.emailVerificationTtlMs });
  await recordKeySent(trx, address.id, now);
  await queueEmail(ctx, trx, verificationMessage(ctx.config, address.email, key));
}

/** Makes a password reset key and queues the e-mail carrying it, in the caller's transaction. */
export async function sendResetKey(ctx: AppContext, trx: Kysely<Database>, accountId: number, address: KeyAddress): Promise<void> {
  const now = ctx.clock.now();
  const key = newSecret();
  await insertResetKey(trx, accountId, address.id, key, { now, expiresAt: now + ctx.config.passwordResetTtlMs });
  await recordKeySent(trx, address.id, now);
  await queueEmail(ctx, trx, passwordResetMessage(ctx.config, address.email, key));
}
