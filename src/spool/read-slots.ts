// At most a few large answers are read from the database at once on an instance: each holds a
// snapshot (on PostgreSQL, one of the pool's connections) for as long as its pages take, so one
// account asking for its largest views many times in parallel must not take the pool from
// everyone else. The others wait for a slot, in the order they came; sending a spooled answer
// holds none.
export class ReadSlots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next in line, or back to the free count.
      if (next) next();
      else this.#free++;
    }
  }
}
