// A password-hashing thread (see hash-pool.ts). It lowers its own scheduling priority, so
// that on a busy machine the event loop (every other request) is served first and hashes
// use the CPU that is left.
import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync, type Options } from '@node-rs/argon2';

export interface HashJob {
  id: number;
  op: 'hash' | 'verify';
  password: string;
  hash?: string;
  options?: Options;
}

export type HashOutcome = { id: number; result: string | boolean } | { id: number; error: string };

/** How much lower than the event loop hashing threads run (on Linux a nice value is a thread's own). */
const HASH_THREAD_NICE_STEP = 10;

try {
  // Relative to the process's own priority, which the thread starts with: a service started
  // under `nice` keeps its hashes below its event loop too (19 is the lowest priority).
  setPriority(0, Math.min(19, getPriority(0) + HASH_THREAD_NICE_STEP));
} catch {
  // Not permitted or not supported: hashes then compete on equal terms.
}

parentPort!.on('message', (job: HashJob) => {
  let outcome: HashOutcome;
  try {
    const result = job.op === 'hash' ? hashSync(job.password, job.options) : verifySync(job.hash!, job.password);
    outcome = { id: job.id, result };
  } catch (error) {
    outcome = { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(outcome);
});
