// Quotas that stop unbounded growth (config.quotas): per parent, and account-wide (docs/app-data.md:
// what one app user holds as a whole, so that no single account can make a read, an export or
// a deletion expensive for everyone else). Over one, 400 non_field_errors.
import type { Config } from '../../config.ts';
import { message, nonFieldError } from '../../errors.ts';
import type { ApiMessageKey } from '../../i18n/catalogues.ts';

/** Refuses adding `adding` more when `current` already counts towards `limit`; `what`: the quota's sentence, with `{limit}`. */
export function enforceQuota(current: number, adding: number, limit: number, what: ApiMessageKey): void {
  if (current + adding > limit) throw quotaRefusal(limit, what);
}

/** The 400 of a quota reached. */
export function quotaRefusal(limit: number, what: ApiMessageKey): Error {
  return nonFieldError(message(what, { limit }));
}

/** What an app user holds as a whole (migration 0013; the write kernel's bump counts creates in it and returns it). */
export interface Usage {
  item_count: number;
  entry_count: number;
  media_bytes: number;
}

/** Refuses a write that took the app user past an account-wide bound: `usage` is its totals with the write counted. */
export function enforceAccountBounds(quotas: Config['quotas'], usage: Usage): void {
  if (usage.item_count > quotas.itemsPerAccount) throw itemsBoundRefusal(quotas);
  if (usage.entry_count > quotas.entriesPerAccount) throw entriesBoundRefusal(quotas);
  if (usage.media_bytes > quotas.mediaBytesPerAccount) {
    throw nonFieldError(message('quotas.mediaBytesPerAccount', { size: formatBytes(quotas.mediaBytesPerAccount) }));
  }
}

export function itemsBoundRefusal(quotas: Config['quotas']): Error {
  return quotaRefusal(quotas.itemsPerAccount, 'quotas.itemsPerAccount');
}

export function entriesBoundRefusal(quotas: Config['quotas']): Error {
  return quotaRefusal(quotas.entriesPerAccount, 'quotas.entriesPerAccount');
}

function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}
