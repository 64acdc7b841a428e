// The secret of an emergency link (docs/emergency-links.md): 128 random bits, 22 URL-safe characters, so
// that the link stays short on a printed card's QR code. It appears once, in the answer to the
// create; the database keeps only its SHA-256, as for every other secret (auth/token-hash.ts).
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../auth/token-hash.ts';

const TOKEN_BYTES = 16;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{22}$/;

export function newLinkToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Whether `text` could be a token at all: anything else is 404 without a query. */
export function isLinkToken(text: string): boolean {
  return TOKEN_FORMAT.test(text);
}

export function linkTokenHash(token: string): string {
  return hashSecret(token);
}
