// A password-hashing thread (see hash-pool.ts). It lowers its own scheduling priority, so
// that on a busy machine the event loop (every other request) is served first and hashes
// use the CPU that is left.
import { setPriority } from 'node:os';
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

/** Nice value of hashing threads: on Linux a thread's own (the event loop stays at 0). */
const HASH_THREAD_NICE = 10;

try {
  setPriority(0, HASH_THREAD_NICE);
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
