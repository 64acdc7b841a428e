import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, URL-safe: tokens, verification keys and reset keys. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets are stored only as this hash. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
