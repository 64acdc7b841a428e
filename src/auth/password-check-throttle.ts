// Checks of an account's password by a signed-in caller (change-password's old_password), per
// account whatever the IP (RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT): a stolen token must not
// give unlimited guesses at the password from rotating addresses. Counted like login failures
// (login-throttle.ts): when the check starts, taken back when the password was right.
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import { rateLimited } from '../errors.ts';
import { FailureCounter, type LoginAttempt } from './login-throttle.ts';

export class PasswordCheckThrottle {
  readonly #enabled: boolean;
  readonly #clock: Clock;
  readonly #failures: FailureCounter;

  constructor(settings: Config['rateLimits'], clock: Clock) {
    this.#enabled = settings.enabled;
    this.#clock = clock;
    this.#failures = new FailureCounter(settings.passwordChecksPerAccount);
  }

  /** Throws 429 when the account has failed too often; otherwise counts a failure until `succeeded()`. */
  begin(accountId: number): LoginAttempt {
    if (!this.#enabled) return { succeeded() {} };
    const key = String(accountId);
    const waitMs = this.#failures.blockedFor(key, this.#clock.now());
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw rateLimited(seconds, `Too many wrong passwords for this account; try again in ${seconds} seconds.`);
    }
    this.#failures.add(key, this.#clock.now());
    return { succeeded: () => this.#failures.remove(key, this.#clock.now()) };
  }
}
