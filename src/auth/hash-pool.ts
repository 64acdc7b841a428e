// Password hashes run on a small pool of dedicated threads, one per CPU core this process
// may use (availableParallelism follows taskset and container limits), at a lower
// scheduling priority than the event loop. Each argon2id hash holds 19 MiB and a core for
// several milliseconds: on libuv's shared pool, hashes crowded out every other request and
// multiplied memory. Jobs beyond the pool's size wait in order.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { HashJob, HashOutcome } from './hash-worker.ts';

type Pending = { resolve: (value: string | boolean) => void; reject: (error: Error) => void };
type Job = Omit<HashJob, 'id'>;

const WORKER_FILE = new URL(import.meta.url.endsWith('.ts') ? './hash-worker.ts' : './hash-worker.js', import.meta.url);

class HashThread {
  #worker: Worker | undefined;
  #pending = new Map<number, Pending>();
  busy = false;

  run(id: number, job: Job): Promise<string | boolean> {
    const worker = this.#thread();
    // Referenced only while it has work: an idle pool never keeps the process alive.
    worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...job });
    });
  }

  #thread(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_FILE);
    worker.unref();
    worker.on('message', (outcome: HashOutcome) => {
      const pending = this.#pending.get(outcome.id);
      this.#pending.delete(outcome.id);
      if (this.#pending.size === 0) worker.unref();
      if (!pending) return;
      if ('error' in outcome) pending.reject(new Error(outcome.error));
      else pending.resolve(outcome.result);
    });
    const fail = (error: Error) => {
      this.#worker = undefined;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`hashing thread exited (code ${code})`)));
    this.#worker = worker;
    return worker;
  }
}

export class HashPool {
  #threads: HashThread[];
  /** Jobs waiting for a thread, first come first served: a finishing job hands its thread on. */
  #queue: Array<(thread: HashThread) => void> = [];
  #nextId = 1;

  constructor(size: number) {
    this.#threads = Array.from({ length: size }, () => new HashThread());
  }

  /** Threads in the pool (GET /metrics). */
  get size(): number {
    return this.#threads.length;
  }

  /** Threads hashing now (GET /metrics). */
  get busy(): number {
    return this.#threads.filter((thread) => thread.busy).length;
  }

  /** Jobs waiting for a thread (GET /metrics). */
  get queued(): number {
    return this.#queue.length;
  }

  async run(job: Job): Promise<string | boolean> {
    const free = this.#threads.find((t) => !t.busy);
    if (free) free.busy = true;
    const thread = free ?? (await new Promise<HashThread>((resolve) => this.#queue.push(resolve)));
    try {
      return await thread.run(this.#nextId++, job);
    } finally {
      const next = this.#queue.shift();
      if (next) next(thread);
      else thread.busy = false;
    }
  }
}

export const hashPool = new HashPool(Math.max(1, availableParallelism()));
