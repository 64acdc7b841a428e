// Password hashing: argon2id with OWASP's parameters (m=19 MiB, t=2, p=1), off the event
// loop on the hashing threads of hash-pool.ts.
import { hashPool } from './hash-pool.ts';

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which erasable TypeScript cannot import)

export const HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MAX_PASSWORD_LENGTH = 128;

export function hashPassword(password: string): Promise<string> {
  return hashPool.run({ op: 'hash', password, options: HASH_OPTIONS }) as Promise<string>;
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
    await hashPool.run({ op: 'verify', hash: standIn, password });
    return false;
  }
  try {
    return (await hashPool.run({ op: 'verify', hash: storedHash, password })) === true;
  } catch {
    return false;
  }
}
