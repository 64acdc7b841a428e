// Login failure limits of docs/api-conventions.md#limits, checked before any password hashing: per IP (10 a
// minute), per account and IP (default 5 in 5 minutes) and per account whatever the IP (100 an
// hour); at the login's second step also wrong codes in a row per account (10, then
// an hour's wait). Counted in the service's counter store (counter-store.ts): in memory for one
// SQLite instance, in the database where several PostgreSQL instances share the counts. An
// IPv6 client counts by its /64 (client-network.ts).
//
// The IP is counted first, and an IP over its limit is refused before any key of an account
// is made: one client cannot fill the store with keys of made-up addresses.
//
// An attempt is counted when it starts, before the password is checked, so that parallel
// attempts cannot slip past the limit together. A right password without an MFA code to
// come takes it back (and clears the account+IP count); with MFA on, a right
// password takes nothing back — only a completed second step takes back both steps — so
// knowing the password buys no more guesses at the code. An attempt refused with 429 counts
// too, so hammering a blocked account keeps its IP's count up.
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { rateLimitedFor } from '../errors.ts';
import { clientNetwork } from './client-network.ts';
import { type CounterStore, countAttempt, limit } from './counter-store.ts';

export const TOO_MANY_FAILED_LOGINS = 'auth.tooManyFailedLogins';
export const TOO_MANY_WRONG_CODES = 'auth.tooManyWrongCodes';

export interface LoginAttempt {
  /** The password was right: the attempt is not a failure. */
  succeeded(): Promise<void>;
}

export interface SecondStepAttempt {
  /** The code was right: neither this attempt nor the password step before it is a failure. */
  succeeded(): Promise<void>;
  /** This attempt made the account's wrong codes in a row reach their limit: if it fails, the second step locks. */
  locksOnFailure: boolean;
}

export const NO_OP_ATTEMPT: LoginAttempt = { async succeeded() {} };

interface Keys {
  ip: string;
  accountIp: string;
  account: string;
}

export class LoginThrottle {
  readonly #settings: Config['rateLimits'];
  readonly #store: CounterStore;
  readonly #clock: Clock;

  constructor(settings: Config['rateLimits'], store: CounterStore, clock: Clock) {
    this.#settings = settings;
    this.#store = store;
    this.#clock = clock;
  }

  /**
   * The password step. Throws 429 when any limit is exceeded; otherwise counts the attempt as
   * a failure until `succeeded()` is called. `account` names the account (or, when no account
   * has the address, the address), so all addresses of one account share its ceiling.
   */
  async begin(account: string, ip: string): Promise<LoginAttempt> {
    if (!this.#settings.enabled) return NO_OP_ATTEMPT;
    const keys = await this.#countIp(account, ip);
    const { loginFailuresPerAccountIp, loginFailuresPerAccount } = this.#settings;
    const waitMs = await limit(
      this.#store,
      [
        { key: keys.accountIp, limit: loginFailuresPerAccountIp },
        { key: keys.account, limit: loginFailuresPerAccount },
      ],
      this.#clock.now(),
    );
    if (waitMs > 0) throw rateLimitedFor(waitMs, TOO_MANY_FAILED_LOGINS);
    return { succeeded: () => this.#store.release([keys.ip, keys.account], [keys.accountIp], this.#clock.now()) };
  }

  /**
   * The second step, after a right password whose attempt was not taken back: the login
   * limits, and the account's wrong codes in a row. Throws 429 when any is exceeded.
   */
  async beginSecondStep(account: string, ip: string): Promise<SecondStepAttempt> {
    if (!this.#settings.enabled) return { ...NO_OP_ATTEMPT, locksOnFailure: false };
    const keys = await this.#countIp(account, ip);
    const wrongCodes = `second-step-failures:${account}`;
    const { loginFailuresPerAccountIp, loginFailuresPerAccount, secondStepFailuresPerAccount } = this.#settings;
    const counted = await countAttempt(
      this.#store,
      [
        { key: keys.accountIp, limit: loginFailuresPerAccountIp },
        { key: keys.account, limit: loginFailuresPerAccount },
        { key: wrongCodes, limit: secondStepFailuresPerAccount },
      ],
      this.#clock.now(),
    );
    if (counted.waitMs > 0) {
      throw rateLimitedFor(counted.waitMs, counted.exceeded.includes(wrongCodes) ? TOO_MANY_WRONG_CODES : TOO_MANY_FAILED_LOGINS);
    }
    return {
      locksOnFailure: counted.counts.get(wrongCodes) === secondStepFailuresPerAccount.max,
      succeeded: async () => {
        const now = this.#clock.now();
        // Once for this attempt (clearing the counts in a row), once for the password step's.
        await this.#store.release([keys.ip, keys.account], [keys.accountIp, wrongCodes], now);
        await this.#store.release([keys.ip, keys.account], [], now);
      },
    };
  }

  /**
   * A sign-in that names no account before it is checked (a passkey's): the IP's login limit
   * only, shared with password logins. Counted as a failure until `succeeded()`.
   */
  async beginWithoutAccount(ip: string): Promise<LoginAttempt> {
    if (!this.#settings.enabled) return NO_OP_ATTEMPT;
    const key = `login-ip:${clientNetwork(ip)}`;
    const waitMs = await limit(this.#store, [{ key, limit: this.#settings.loginFailuresPerIp }], this.#clock.now());
    if (waitMs > 0) throw rateLimitedFor(waitMs, TOO_MANY_FAILED_LOGINS);
    return { succeeded: () => this.#store.release([key], [], this.#clock.now()) };
  }

  /** Counts the attempt against its IP's limit first, so that a refused IP makes no other key. */
  async #countIp(account: string, ip: string): Promise<Keys> {
    const network = clientNetwork(ip);
    const keys = { ip: `login-ip:${network}`, accountIp: `login-account-ip:${account}\n${network}`, account: `login-account:${account}` };
    const waitMs = await limit(this.#store, [{ key: keys.ip, limit: this.#settings.loginFailuresPerIp }], this.#clock.now());
    if (waitMs > 0) throw rateLimitedFor(waitMs, TOO_MANY_FAILED_LOGINS);
    return keys;
  }
}
