// Signed, expiring URLs for media files: the URL itself is the credential, so a client can
// hand it to an image view that sends no token. HMAC-SHA256 over the storage key and expiry,
// and, in a URL handed to an accessor (docs/sharing.md), the accessor's id: the download checks
// that this access still exists, so the URL stops working when it ends.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const MEDIA_FILE_PATH = '/media/files';

/**
 * Expiry times are rounded up to a step (a quarter of the lifetime, at most 15 minutes), so
 * the same file gets the same URL for a while: responses that embed it can be cached, and a
 * URL is always valid for at least the configured lifetime.
 */
export function expiryFor(now: number, ttlMs: number): number {
  const step = Math.max(1000, Math.min(ttlMs / 4, 15 * 60_000));
  return Math.ceil((now + ttlMs) / step) * step;
}

function signature(secret: Buffer, storageKey: string, expiresSeconds: number, accessorId: string | undefined): string {
  const signed = accessorId === undefined ? `${storageKey}\n${expiresSeconds}` : `${storageKey}\n${expiresSeconds}\n${accessorId}`;
  return createHmac('sha256', secret).update(signed).digest('base64url');
}

/** `accessorId`: the accessor the URL is handed to; none for the owner. */
export function signedFileUrl(publicUrl: string, secret: Buffer, storageKey: string, expiresAtMs: number, accessorId?: number): string {
  const expires = Math.floor(expiresAtMs / 1000);
  const accessor = accessorId === undefined ? undefined : String(accessorId);
  const query = accessor === undefined ? `expires=${expires}` : `expires=${expires}&accessor=${accessor}`;
  return `${publicUrl}${MEDIA_FILE_PATH}/${encodeURIComponent(storageKey)}?${query}&signature=${signature(secret, storageKey, expires, accessor)}`;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

export function checkSignature(
  secret: Buffer,
  storageKey: string,
  expires: string | undefined,
  given: string | undefined,
  now: number,
  accessorId?: string,
): SignatureCheck {
  if (!expires || !given || !/^\d{1,12}$/.test(expires)) return 'invalid';
  if (accessorId !== undefined && !/^[1-9]\d{0,9}$/.test(accessorId)) return 'invalid';
  const expected = Buffer.from(signature(secret, storageKey, Number(expires), accessorId));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return 'invalid';
  return Number(expires) * 1000 < now ? 'expired' : 'valid';
}
