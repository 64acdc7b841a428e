// At most RATE_LIMIT_EXPORTS_PER_ACCOUNT exports per account (default 5 an hour, docs/accounts.md):
// an export reads everything the account holds, its media files included. Counted in the
// service's counter store (auth/counter-store.ts) like every abuse limit, so several instances
// share the count; a fixed window opened by the account's first export. An export counts when
// it starts, whatever becomes of it.
import { type CounterStore, limit } from '../../auth/counter-store.ts';
import type { Clock } from '../../clock.ts';
import type { Config, RateLimit } from '../../config.ts';
import { rateLimitedFor } from '../../errors.ts';

function tooMany(waitMs: number) {
  return rateLimitedFor(waitMs, 'export.tooMany');
}

export class ExportLimit {
  readonly #limit: RateLimit | undefined;
  readonly #store: CounterStore;
  readonly #clock: Clock;

  constructor(settings: Config['rateLimits'], store: CounterStore, clock: Clock) {
    this.#limit = settings.enabled ? settings.exportsPerAccount : undefined;
    this.#store = store;
    this.#clock = clock;
  }

  /** Throws 429 when the account has used up its exports; counts nothing. */
  async check(accountId: number): Promise<void> {
    if (!this.#limit) return;
    const now = this.#clock.now();
    const count = await this.#store.read(key(accountId), now);
    if (count && count.count >= this.#limit.max) throw tooMany(count.resetAt - now);
  }

  /** Throws 429 like check(), otherwise counts one export. */
  async take(accountId: number): Promise<void> {
    if (!this.#limit) return;
    const waitMs = await limit(this.#store, [{ key: key(accountId), limit: this.#limit }], this.#clock.now());
    if (waitMs > 0) throw tooMany(waitMs);
  }
}

function key(accountId: number): string {
  return `exports:${accountId}`;
}
