// Per-parent quotas (config.quotas) that stop unbounded growth: over one, 400 non_field_errors.
import { nonFieldError } from '../errors.ts';

/** Refuses adding `adding` more when `current` already counts towards `limit`. */
export function enforceQuota(current: number, adding: number, limit: number, what: string): void {
  if (current + adding > limit) throw quotaRefusal(limit, what);
}

/** The 400 of a quota reached. */
export function quotaRefusal(limit: number, what: string): Error {
  return nonFieldError(`Limit reached: there can be at most ${limit} ${what}.`);
}
