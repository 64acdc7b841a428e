// Wrong PINs of an emergency link (docs/emergency-links.md): after RATE_LIMIT_EMERGENCY_PIN of them
// (default 5 in 15 minutes) the link answers 429 for the window's length, counted from the
// wrong PIN that locked it. A 4-digit PIN is found offline from its hash in moments, so this,
// not the hash, is what protects it.
//
// The wrong PINs are counted in the service's counter store (auth/counter-store.ts): in memory
// for one SQLite instance, in the database where several PostgreSQL instances share it, so
// wrong PINs sent to different instances add up. An attempt counts when it starts, before the
// PIN is hashed, so that parallel attempts cannot slip past the limit together; a right PIN
// takes its count back. Only the attempt that reaches the limit can lock the link: the lock
// itself is the link's `pin_locked_until`, read with the link on every request, and the owner
// is told once. RATE_LIMITS=off turns it off, as every other limit.
import { countAttempt } from '../auth/counter-store.ts';
import type { AppContext } from '../context.ts';
import { rateLimitedFor } from '../errors.ts';

export const LOCKED = 'Too many wrong PINs for this link';

export interface PinAttempt {
  /** The PIN was right: the attempt is not a failure. */
  succeeded(): Promise<void>;
  /** This attempt reached the limit: if its PIN is wrong, the link locks until then. */
  locksUntil: number | undefined;
}

const attemptsKey = (linkId: number) => `emergency-pin:${linkId}`;

/** 429 while the link is locked (`lockedUntil`: the link's `pin_locked_until`). */
export function refuseWhileLocked(ctx: AppContext, lockedUntil: number | null): void {
  const now = ctx.clock.now();
  if (ctx.config.rateLimits.enabled && lockedUntil !== null && lockedUntil > now) throw rateLimitedFor(lockedUntil - now, LOCKED);
}

/** Counts a PIN attempt on the link; 429 when the link has had its wrong PINs already. */
export async function beginPinAttempt(ctx: AppContext, linkId: number): Promise<PinAttempt> {
  const { enabled, emergencyPinFailures: limit } = ctx.config.rateLimits;
  if (!enabled) return { succeeded: async () => {}, locksUntil: undefined };
  const key = attemptsKey(linkId);
  const now = ctx.clock.now();
  const counted = await countAttempt(ctx.counters, [{ key, limit }], now);
  if (counted.waitMs > 0) throw rateLimitedFor(counted.waitMs, LOCKED);
  return {
    succeeded: () => ctx.counters.release([key], [], ctx.clock.now()),
    locksUntil: counted.counts.get(key) === limit.max ? now + limit.windowMs : undefined,
  };
}

/** The link locked, or given a new PIN (or none): the wrong PINs counted so far no longer matter. */
export async function forgetWrongPins(ctx: AppContext, linkId: number): Promise<void> {
  if (ctx.config.rateLimits.enabled) await ctx.counters.release([], [attemptsKey(linkId)], ctx.clock.now());
}
