// Checks of an account's password (or MFA code) by a signed-in caller — change-password's
// old_password, account deletion, MFA's routes — per account whatever the IP
// (RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT): a stolen token must not give unlimited guesses at
// the password from rotating addresses. Counted like login failures (login-throttle.ts): when
// the check starts, taken back when it was right.
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { fieldError, rateLimitedFor } from '../errors.ts';
import { type CounterStore, limit } from './counter-store.ts';
import { type LoginAttempt, NO_OP_ATTEMPT } from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';

export const WRONG_PASSWORD = 'auth.wrongPassword';

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
    if (waitMs > 0) throw rateLimitedFor(waitMs, 'auth.tooManyWrongPasswords');
    return { succeeded: () => this.#store.release([key], [], this.#clock.now()) };
  }

  /**
   * The account's password, checked within the limit: 400 under `password` when wrong. The
   * check counts as a failure until the returned attempt succeeds, so a caller that asks for a
   * MFA code too calls `succeeded()` only once that was right as well.
   */
  async checkPassword(account: { id: number; password_hash: string }, password: string): Promise<LoginAttempt> {
    const attempt = await this.begin(account.id);
    if (!(await verifyPassword(account.password_hash, password))) throw fieldError('password', WRONG_PASSWORD);
    return attempt;
  }
}
