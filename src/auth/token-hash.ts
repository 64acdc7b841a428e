import { hash, randomBytes } from 'node:crypto';

/** 32 random bytes, URL-safe: tokens, verification keys and reset keys. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets are stored only as this hash. (One-shot `hash`: half the cost of `createHash`, and every request's token check hashes.) */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}
