// The 6-digit codes e-mailed beside verification and reset links and for signing in by e-mail
// (docs/accounts.md#codes-by-e-mail). A million codes are few enough that a plain hash of a copied
// table could be searched through in a moment, so a code is stored as an HMAC-SHA-256 under a key
// of the service's (made once and kept in the database), bound to its kind and address: a code of
// one address or kind is no code of another. An HMAC, not argon2: a guess is judged on the login
// limits' hot path, and what keeps a code unguessed is the five tries and the limits, not the
// cost of one hash. Compared in constant time.
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

export const EMAIL_CODE_DIGITS = 6;

/** A fresh code: six decimal digits, uniformly random, leading zeros kept. */
export function newEmailCode(): string {
  return randomInt(10 ** EMAIL_CODE_DIGITS)
    .toString()
    .padStart(EMAIL_CODE_DIGITS, '0');
}

/** The code as typed, without spaces or dashes; null when it cannot be a code. */
export function canonicalEmailCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

/** What a code of `kind` for `email` is stored as (64 hex digits). */
export function emailCodeHash(key: Buffer, kind: string, email: string, code: string): string {
  return createHmac('sha256', key).update(`${kind}\n${email.toLowerCase()}\n${code}`).digest('hex');
}

/** Whether two stored forms are the same, in time that does not depend on where they differ. */
export function sameEmailCodeHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
