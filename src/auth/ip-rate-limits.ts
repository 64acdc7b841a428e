// Per-IP limits of docs/api-conventions.md#limits for register, reset-password, verify-email and
// change-password, applied by @fastify/rate-limit from the route's config. request.ip
// honours TRUST_PROXY, so X-Forwarded-For counts only behind a trusted proxy; an IPv6 client
// counts by its /64 (client-network.ts). The plugin
// counts in the service's counter store (counter-store.ts), not its own memory, so several
// instances share the counts and the tests' clock moves their windows.
import type { FastifyRateLimitStoreCtor, RateLimitOptions } from '@fastify/rate-limit';
import type { Clock } from '../clock.ts';
import type { RateLimit } from '../config.ts';
import type { AppContext } from '../context.ts';
import { clientNetwork } from './client-network.ts';
import type { CounterStore } from './counter-store.ts';

/** The plugin's key for a request: the client's network, as every per-IP limit counts it. */
export function rateLimitKey(request: { ip: string }): string {
  return clientNetwork(request.ip);
}

/** `group`: routes that share one budget per IP (each route has its own otherwise). */
export function perIpRateLimit(ctx: AppContext, limit: RateLimit, group?: string): RateLimitOptions | false {
  if (!ctx.config.rateLimits.enabled) return false;
  return { max: limit.max, timeWindow: limit.windowMs, ...(group === undefined ? {} : { groupId: group }) };
}

/** The plugin's store over the counter store; each route counts under keys of its own. */
export function rateLimitStore(counters: CounterStore, clock: Clock): FastifyRateLimitStoreCtor {
  class CounterRateLimitStore {
    readonly #prefix: string;

    constructor(_options: unknown, prefix = 'ip') {
      this.#prefix = prefix;
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      const now = clock.now();
      counters.increment([{ key: `${this.#prefix}:${key}`, windowMs: timeWindow, max }], now).then(
        ([count]) => callback(null, { current: count!.count, ttl: count!.resetAt - now }),
        (error: Error) => callback(error),
      );
    }

    // The plugin hands a route's merged settings, the route itself under routeInfo. Routes of
    // one group count under the group's name.
    child(settings: { groupId?: string; routeInfo?: { method?: string | string[]; url?: string } }): CounterRateLimitStore {
      if (settings.groupId !== undefined) return new CounterRateLimitStore(undefined, `ip:group:${settings.groupId}`);
      const route = settings.routeInfo ?? {};
      return new CounterRateLimitStore(undefined, `ip:${[route.method ?? ''].flat().join(',')} ${route.url ?? ''}`);
    }
  }
  // The plugin's types say child() gets the route; at run time it gets the settings above.
  return CounterRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}
