// Login failure limits of contract §8, checked before any password hashing: per account and
// IP (default 5 in 5 minutes), per IP (10 a minute) and per account whatever the IP (100 an
// hour). Counters live in this process's memory, so each instance counts on its own and a
// restart forgets them; each table holds a bounded number of keys.
//
// An attempt is counted when it starts, before the password is checked, so that parallel
// attempts cannot slip past the limit together; a correct password takes it back.
import type { Config, RateLimit } from '../config.ts';
import type { Clock } from '../clock.ts';
import { rateLimited } from '../errors.ts';

/** Keys kept per table; beyond it the oldest windows are dropped first. */
export const MAX_KEYS_PER_TABLE = 100_000;

interface Window {
  count: number;
  resetAt: number;
}

/** Fixed-window counters. Every window of a table has the same length, so the Map's insertion order is also the order in which windows end. */
export class FailureCounter {
  readonly #limit: RateLimit;
  readonly #maxKeys: number;
  readonly #windows = new Map<string, Window>();

  constructor(limit: RateLimit, maxKeys = MAX_KEYS_PER_TABLE) {
    this.#limit = limit;
    this.#maxKeys = maxKeys;
  }

  get size(): number {
    return this.#windows.size;
  }

  /** Milliseconds until `key` may try again; 0 when it may now. */
  blockedFor(key: string, now: number): number {
    const window = this.#current(key, now);
    return window && window.count >= this.#limit.max ? window.resetAt - now : 0;
  }

  add(key: string, now: number): void {
    const window = this.#current(key, now);
    if (window) {
      window.count++;
      return;
    }
    this.#windows.delete(key);
    this.#dropEnded(now);
    if (this.#windows.size >= this.#maxKeys) this.#windows.delete(this.#windows.keys().next().value!);
    this.#windows.set(key, { count: 1, resetAt: now + this.#limit.windowMs });
  }

  /** Takes back one counted attempt. */
  remove(key: string, now: number): void {
    const window = this.#current(key, now);
    if (window && window.count > 0) window.count--;
  }

  clear(key: string): void {
    this.#windows.delete(key);
  }

  #current(key: string, now: number): Window | undefined {
    const window = this.#windows.get(key);
    return window && window.resetAt > now ? window : undefined;
  }

  #dropEnded(now: number): void {
    for (const [key, window] of this.#windows) {
      if (window.resetAt > now) break;
      this.#windows.delete(key);
    }
  }
}

export interface LoginAttempt {
  /** The password was right: the attempt is not a failure. */
  succeeded(): void;
}

const NO_OP_ATTEMPT: LoginAttempt = { succeeded() {} };

export class LoginThrottle {
  readonly #enabled: boolean;
  readonly #clock: Clock;
  readonly #accountIp: FailureCounter;
  readonly #ip: FailureCounter;
  readonly #account: FailureCounter;

  constructor(settings: Config['rateLimits'], clock: Clock) {
    this.#enabled = settings.enabled;
    this.#clock = clock;
    this.#accountIp = new FailureCounter(settings.loginFailuresPerAccountIp);
    this.#ip = new FailureCounter(settings.loginFailuresPerIp);
    this.#account = new FailureCounter(settings.loginFailuresPerAccount);
  }

  /**
   * Throws 429 when any limit is reached; otherwise counts the attempt as a failure until
   * `succeeded()` is called. `account` names the account (or, when no account has the
   * address, the address), so all addresses of one account share its ceiling.
   */
  begin(account: string, ip: string): LoginAttempt {
    if (!this.#enabled) return NO_OP_ATTEMPT;
    const now = this.#clock.now();
    const accountIp = `${account}\n${ip}`;
    const waitMs = Math.max(
      this.#accountIp.blockedFor(accountIp, now),
      this.#ip.blockedFor(ip, now),
      this.#account.blockedFor(account, now),
    );
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw rateLimited(seconds, `Too many failed login attempts; try again in ${seconds} seconds.`);
    }
    this.#accountIp.add(accountIp, now);
    this.#ip.add(ip, now);
    this.#account.add(account, now);
    return {
      succeeded: () => {
        const later = this.#clock.now();
        this.#accountIp.clear(accountIp);
        this.#ip.remove(ip, later);
        this.#account.remove(account, later);
      },
    };
  }
}
