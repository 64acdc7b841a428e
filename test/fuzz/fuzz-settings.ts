// The fuzz run's knobs, from the environment:
//   FUZZ_SEED     master seed (default: random; always printed)
//   FUZZ_RUNS     random requests per operation (default 25)
//   FUZZ_SECONDS  the random requests stop this long after the first request (default 30); the fixed ones always run
//   FUZZ_ONLY     run only the operations whose "METHOD /path" contains this text
//   FUZZ_PATH     fast-check's replay path of a failure (with FUZZ_ONLY naming its operation)
//   FUZZ_VERBOSE  also print the statuses seen per operation
import { createHash } from 'node:crypto';

export interface FuzzSettings {
  seed: number;
  runs: number;
  seconds: number;
  only: string | undefined;
  path: string | undefined;
}

function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

export function fuzzSettings(): FuzzSettings {
  return {
    seed: integer('FUZZ_SEED', (Math.random() * 2 ** 31) | 0),
    runs: integer('FUZZ_RUNS', 25),
    seconds: integer('FUZZ_SECONDS', 30),
    only: process.env.FUZZ_ONLY || undefined,
    path: process.env.FUZZ_PATH || undefined,
  };
}

/** The seed of one operation: the same for a master seed whichever operations run. */
export function operationSeed(seed: number, operationKey: string): number {
  return createHash('sha256').update(`${seed} ${operationKey}`).digest().readInt32LE(0);
}
