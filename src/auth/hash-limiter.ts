// At most one password hash per CPU core this process may run on. Each argon2id hash holds
// 19 MiB and a core for several milliseconds; with libuv's four threads on one core, hashes
// would crowd out the event loop (and every other request's latency) and multiply memory.
// Extra hashes wait their turn in order instead.
import { availableParallelism } from 'node:os';

export class Limiter {
  #free: number;
  #waiting: Array<() => void> = [];

  constructor(concurrency: number) {
    this.#free = concurrency;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

/** availableParallelism() follows the process's CPU affinity (taskset, container limits). */
export const hashLimiter = new Limiter(Math.max(1, availableParallelism()));
