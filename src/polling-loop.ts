// A background pass run now and then every `intervalMs`, and at once when woken: the outbox
// and webhook workers, the account sweeper and the share-expiry pass. Never two passes at once:
// a wake during a pass runs another right after it, and the next timed pass is counted from
// the end of the last, so a slow pass is never overlapped. stop() waits for the pass under way.
export class PollingLoop {
  readonly #pass: () => Promise<void>;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;

  /** `pass` must not throw: it logs its own failures, and the next pass runs as usual. */
  constructor(pass: () => Promise<void>, intervalMs: number) {
    this.#pass = pass;
    this.#intervalMs = intervalMs;
  }

  /** Whether stop() was called: a pass of several steps ends after the one under way. */
  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    this.#stopped = false;
    this.wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** Runs a pass now, or right after the one under way. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#pass().finally(() => {
      this.#running = undefined;
      if (this.#stopped) return;
      if (this.#again) {
        this.#again = false;
        this.wake();
      } else {
        this.#timer = setTimeout(() => this.wake(), this.#intervalMs);
        this.#timer.unref();
      }
    });
  }
}
