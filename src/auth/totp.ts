// TOTP arithmetic (RFC 6238: SHA-1, 6 digits, 30-second steps), by the otpauth library. A code
// is matched with one step of tolerance either way, and the step it matched is returned so the
// caller can refuse a replay (a code of a step no newer than the last one accepted).
import { Secret, TOTP } from 'otpauth';

const PERIOD_SECONDS = 30;
const TOLERANCE_STEPS = 1;

function totpFor(secret: string, issuer = '', label = ''): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** otpauth://totp/<issuer>:<account>?secret=…&issuer=… for an authenticator app's QR code. */
export function otpauthUrl(secret: string, issuer: string, account: string): string {
  return totpFor(secret, issuer, account).toString();
}

/** The 30-second step `code` belongs to, when it is right for `secret` at `now`; null otherwise. */
export function matchTotp(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpFor(secret);
  const delta = totp.validate({ token: code, timestamp: now, window: TOLERANCE_STEPS });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}
