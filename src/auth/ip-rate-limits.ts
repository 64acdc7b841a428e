// Per-IP limits of contract §8 for register, reset-password, verify-email and
// change-password, applied by @fastify/rate-limit from the route's config. request.ip
// honours TRUST_PROXY, so X-Forwarded-For counts only behind a trusted proxy.
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { RateLimit } from '../config.ts';
import type { AppContext } from '../context.ts';

export function perIpRateLimit(ctx: AppContext, limit: RateLimit): RateLimitOptions | false {
  if (!ctx.config.rateLimits.enabled) return false;
  return { max: limit.max, timeWindow: limit.windowMs };
}
