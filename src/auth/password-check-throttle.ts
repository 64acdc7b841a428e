// Checks of an account's password (or second factor) by a signed-in caller — change-password's
// old_password, account deletion, two-step sign-in's routes — per account whatever the IP
// (RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT): a stolen token must not give unlimited guesses at
// the password from rotating addresses. Counted like login failures (login-throttle.ts): when
// the check starts, taken back when it was right.
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { rateLimited } from '../errors.ts';
import { type CounterStore, limit } from './counter-store.ts';
import { type LoginAttempt, NO_OP_ATTEMPT } from './login-throttle.ts';

export class PasswordCheckThrottle {
  readonly #settings: Config['rateLimits'];
  readonly #store: CounterStore;
  readonly #clock: Clock;

  constructor(settings: Config['rateLimits'], store: CounterStore, clock: Clock) {
    this.#settings = settings;
    this.#store = store;
    this.#clock = clock;
  }

  /** Throws 429 when the account has failed too often; otherwise counts a failure until `succeeded()`. */
  async begin(accountId: number): Promise<LoginAttempt> {
    if (!this.#settings.enabled) return NO_OP_ATTEMPT;
    const key = `password-checks:${accountId}`;
    const waitMs = await limit(this.#store, [{ key, limit: this.#settings.passwordChecksPerAccount }], this.#clock.now());
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw rateLimited(seconds, `Too many wrong passwords for this account; try again in ${seconds} seconds.`);
    }
    return { succeeded: () => this.#store.release([key], [], this.#clock.now()) };
  }
}
