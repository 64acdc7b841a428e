// Recovery codes for two-step sign-in: ten single-use codes of about 50 random bits each, shown once
// and stored only as SHA-256 hashes (like tokens: random enough that a fast hash is safe, and
// every guess is limited). Typed by people, so a code is read case-insensitively with spaces
// and dashes ignored.
import { randomInt } from 'node:crypto';
import { hashSecret } from './token-hash.ts';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: easy to read back from paper. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const HALF = 5;

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 2 * HALF; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, HALF)}-${code.slice(HALF)}`;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** The hash a code is stored and looked up under, or null when `input` cannot be a recovery code. */
export function recoveryCodeHash(input: string): string | null {
  const normalised = input.toLowerCase().replace(/[\s-]/g, '');
  if (normalised.length !== 2 * HALF || [...normalised].some((c) => !ALPHABET.includes(c))) return null;
  return hashSecret(`${normalised.slice(0, HALF)}-${normalised.slice(HALF)}`);
}
