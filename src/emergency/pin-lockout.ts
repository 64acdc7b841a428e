// Wrong PINs of an emergency link (docs/emergency-links.md): after RATE_LIMIT_EMERGENCY_PIN of them
// (default 5 in 15 minutes) the link answers 429, counted from the wrong PIN that locked it,
// for the window's length the first time, then twice as long each lock-out in a row (15
// minutes, 30 minutes, …, at most a day or the window if longer); the third lock-out in a row
// stops the link taking PINs at all (429 with no Retry-After) until its owner sets its PIN again
// (PATCH `pin`, the same one or another, or none). A right PIN starts the lock-outs in a row
// from none. A 4-digit PIN is found offline from its hash in moments, so this, not the hash,
// is what protects it: at most 15 wrong PINs before the owner must act.
//
// The wrong PINs are counted in the service's counter store (auth/counter-store.ts): in memory
// for one SQLite instance, in the database where several PostgreSQL instances share it, so
// wrong PINs sent to different instances add up. An attempt counts when it starts, before the
// PIN is hashed, so that parallel attempts cannot slip past the limit together; a right PIN
// takes its count back. Only the attempt that reaches the limit can lock the link: the lock
// itself is the link's `pin_locked_until` and `pin_lockouts`, read with the link on every
// request, and the owner is told of each lock-out. RATE_LIMITS=off turns it off, as every
// other limit.
import { countAttempt } from '../auth/counter-store.ts';
import type { AppContext } from '../context.ts';
import { rateLimitedFor, rateLimitedUntilReset } from '../errors.ts';

export const LOCKED = 'emergency.pinLocked';
export const STOPPED = 'emergency.pinStopped';

/** The lock-out in a row that stops the link taking PINs. */
export const LOCKOUTS_TO_STOP = 3;
const LONGEST_LOCK_MS = 24 * 3_600_000;

/** How long the `lockouts`-th lock-out in a row lasts: the window, doubled each time, at most a day (or the window). */
export function lockDurationMs(windowMs: number, lockouts: number): number {
  return Math.min(windowMs * 2 ** Math.min(lockouts - 1, 30), Math.max(windowMs, LONGEST_LOCK_MS));
}

/** Whether the link has stopped taking PINs (`lockouts`: the link's `pin_lockouts`). */
export function stopped(lockouts: number): boolean {
  return lockouts >= LOCKOUTS_TO_STOP;
}

export interface PinAttempt {
  /** The PIN was right: the attempt is not a failure. */
  succeeded(): Promise<void>;
  /** This attempt reached the limit: if its PIN is wrong, the link locks (for how long: lockDurationMs). */
  locks: boolean;
}

const attemptsKey = (linkId: number) => `emergency-pin:${linkId}`;

/** 429 while the link is locked, and for good once it has stopped taking PINs. */
export function refuseWhileLocked(ctx: AppContext, link: { pin_locked_until: number | null; pin_lockouts: number }): void {
  if (!ctx.config.rateLimits.enabled) return;
  if (stopped(link.pin_lockouts)) throw rateLimitedUntilReset(STOPPED);
  const now = ctx.clock.now();
  const lockedUntil = link.pin_locked_until;
  if (lockedUntil !== null && lockedUntil > now) throw rateLimitedFor(lockedUntil - now, LOCKED);
}

/** Counts a PIN attempt on the link; 429 when the link has had its wrong PINs already. */
export async function beginPinAttempt(ctx: AppContext, linkId: number): Promise<PinAttempt> {
  const { enabled, emergencyPinFailures: limit } = ctx.config.rateLimits;
  if (!enabled) return { succeeded: async () => {}, locks: false };
  const key = attemptsKey(linkId);
  const now = ctx.clock.now();
  const counted = await countAttempt(ctx.counters, [{ key, limit }], now);
  if (counted.waitMs > 0) throw rateLimitedFor(counted.waitMs, LOCKED);
  return {
    succeeded: () => ctx.counters.release([key], [], ctx.clock.now()),
    locks: counted.counts.get(key) === limit.max,
  };
}

/** The link locked, or given a new PIN (or none): the wrong PINs counted so far no longer matter. */
export async function forgetWrongPins(ctx: AppContext, linkId: number): Promise<void> {
  if (ctx.config.rateLimits.enabled) await ctx.counters.release([], [attemptsKey(linkId)], ctx.clock.now());
}
