// Password hashing: argon2id with OWASP's parameters (m=19 MiB, t=2, p=1). @node-rs/argon2
// hashes on libuv's thread pool, off the event loop.
import { hash, verify } from '@node-rs/argon2';
import { hashLimiter } from './hash-limiter.ts';

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which erasable TypeScript cannot import)

export const HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MAX_PASSWORD_LENGTH = 128;

export function hashPassword(password: string): Promise<string> {
  return hashLimiter.run(() => hash(password, HASH_OPTIONS));
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown account) it checks against
 * a dummy hash, so that an unknown address and a wrong password take the same time.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (storedHash === undefined) {
    dummyHash ??= hashPassword('not a real password: timing equaliser');
    const standIn = await dummyHash;
    await hashLimiter.run(() => verify(standIn, password));
    return false;
  }
  try {
    return await hashLimiter.run(() => verify(storedHash, password));
  } catch {
    return false;
  }
}
