// The time, as everything that keeps or compares times reads it: tests move their own clock.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
