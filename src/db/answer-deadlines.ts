// How long the client waits for the answer to a named statement (`Db.executePrepared`) on
// PostgreSQL. The server's statement_timeout cannot help when the server (or a route to it)
// accepts a statement and then says nothing; the client must give up on its own.
//
// pg can do this itself (`query_timeout`) with a timer per query. For the named statements,
// which run once per batch of requests, those timers had each batch's objects (its rows, its
// parameters, and the requests waiting on them) outlive two young-generation collections and
// move to V8's old generation: 200-400 bytes per W1 read, and a full collection every 2-3 s,
// against almost nothing and one collection in 8 s without them (`--trace-gc-nvp`, W1 on
// PostgreSQL). Why a cleared timer has this effect inside Node was not found. Here a sweep once
// a second looks at the statements waiting; a wait is given up between its limit and a second
// after it.
import { QUERY_READ_TIMEOUT } from './driver-errors.ts';

export interface AwaitedAnswer {
  /** `performance.now()` when the statement was handed to the client. */
  readonly startedAt: number;
  giveUp(error: Error): void;
}

/** Sweeps at least this often: a wait is given up at most this long after its limit. */
const SWEEP_MS = 1000;

export class AnswerDeadlines {
  readonly limitMs: number;
  readonly #waiting = new Set<AwaitedAnswer>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(limitMs: number) {
    this.limitMs = limitMs;
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(SWEEP_MS, limitMs));
    this.#sweeper.unref();
  }

  add(answer: AwaitedAnswer): void {
    this.#waiting.add(answer);
  }

  delete(answer: AwaitedAnswer): void {
    this.#waiting.delete(answer);
  }

  stop(): void {
    clearInterval(this.#sweeper);
  }

  #sweep(): void {
    const now = performance.now();
    for (const answer of this.#waiting) {
      if (now - answer.startedAt < this.limitMs) continue;
      this.#waiting.delete(answer);
      answer.giveUp(new Error(QUERY_READ_TIMEOUT));
    }
  }
}
