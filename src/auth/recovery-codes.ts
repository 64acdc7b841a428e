// Recovery codes for MFA: ten single-use codes of about 50 random bits each, shown
// once. Stored as HMAC-SHA-256 under a key of the service's (`h1:<hex>`), never in the clear: a
// copy of the table alone cannot be searched through 2^50 codes, as an unsalted hash could be.
// Sets made before migration 0014 are stored as plain SHA-256 (64 hex digits, no prefix); there
// is no way to turn those into HMACs without the codes, so they keep working until their owner
// makes a new set. Typed by people, so a code is read case-insensitively with spaces and dashes
// ignored.
import { createHmac, randomInt } from 'node:crypto';
import { hashSecret } from './token-hash.ts';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: easy to read back from paper. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const HALF = 5;
const HMAC_PREFIX = 'h1:';

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 2 * HALF; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, HALF)}-${code.slice(HALF)}`;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** The code as it was issued (`xxxxx-xxxxx`), or null when `input` cannot be a recovery code. */
function canonical(input: string): string | null {
  const normalised = input.toLowerCase().replace(/[\s-]/g, '');
  if (normalised.length !== 2 * HALF || [...normalised].some((c) => !ALPHABET.includes(c))) return null;
  return `${normalised.slice(0, HALF)}-${normalised.slice(HALF)}`;
}

/** What a code is stored as, under `key`; null when `input` cannot be a recovery code. */
export function recoveryCodeHash(key: Buffer, input: string): string | null {
  const code = canonical(input);
  return code === null ? null : HMAC_PREFIX + createHmac('sha256', key).update(code).digest('hex');
}

/** Every form `input` may be stored under: its HMAC, and the SHA-256 of sets made before 0014. Empty when it cannot be a code. */
export function recoveryCodeLookups(key: Buffer, input: string): string[] {
  const code = canonical(input);
  return code === null ? [] : [recoveryCodeHash(key, code)!, hashSecret(code)];
}
