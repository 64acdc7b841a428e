// At most EXPORTS_AT_ONCE exports at once on one instance (docs/accounts.md): each holds a database
// snapshot while its account is read, a spool file and a long response, so a burst of them must
// not take the instance from everyone else. Beyond: 503 with Retry-After, and nothing counted
// against the account's exports an hour.
import { unavailable } from '../../errors.ts';

const RETRY_AFTER_SECONDS = 10;

export class ExportSlots {
  #free: number;

  constructor(size: number) {
    this.#free = size;
  }

  /** A slot, or 503 when none is free; the returned function gives it back (once, however often called). */
  take(): () => void {
    if (this.#free <= 0) {
      throw unavailable('export.tooManyRunning', RETRY_AFTER_SECONDS);
    }
    this.#free--;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#free++;
    };
  }
}
