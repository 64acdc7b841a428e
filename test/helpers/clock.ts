import type { Clock } from '../../src/clock.ts';

/** A clock the test moves: starts at the real time, advances only when told. */
export class TestClock implements Clock {
  #now = Date.now();
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}
