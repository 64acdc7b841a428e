// The counters behind every abuse limit (contract §8, §11): fixed windows, one count per key.
// `limit()` counts an attempt when it starts — before any password is hashed, so parallel
// attempts cannot slip past together — and says how long the caller must wait when that made
// a key go over its limit; `release()` takes a count back (a right password is no failure).
//
// Two stores: in this process's memory where this process sees every request (SQLite: one
// instance), and in the database where several instances share the counts (PostgreSQL), so an
// attacker gets the same budget against N instances as against one (sql-counter-store.ts).
import type { RateLimit } from '../config.ts';

export interface CounterKey {
  key: string;
  windowMs: number;
}

export interface Count {
  key: string;
  count: number;
  /** When the key's current window ends (epoch ms). */
  resetAt: number;
}

export interface CounterStore {
  /** Adds one to each key (distinct keys) in its current window, opening a new window where none is open. */
  increment(keys: CounterKey[], now: number): Promise<Count[]>;
  /** Takes one back from each of `decrement`'s keys (in an open window) and forgets `reset`'s. */
  release(decrement: string[], reset: string[], now: number): Promise<void>;
  /** The key's count in its open window, counting nothing; undefined when none is open. */
  read(key: string, now: number): Promise<Count | undefined>;
}

/** Counts an attempt against each limit; milliseconds until the most exceeded one allows again (0: within all). */
export async function limit(store: CounterStore, limits: Array<{ key: string; limit: RateLimit }>, now: number): Promise<number> {
  const counts = await store.increment(
    limits.map(({ key, limit }) => ({ key, windowMs: limit.windowMs })),
    now,
  );
  let waitMs = 0;
  for (const { key, limit } of limits) {
    const count = counts.find((c) => c.key === key);
    if (count && count.count > limit.max) waitMs = Math.max(waitMs, count.resetAt - now);
  }
  return waitMs;
}

/** Keys kept per window length; beyond it the oldest windows are dropped first. */
export const MAX_KEYS_PER_TABLE = 100_000;

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed windows in memory, one table per window length: every window of a table has the same
 * length, so a Map's insertion order is also the order in which its windows end, and a full
 * table drops its oldest first. A restart forgets everything.
 */
export class MemoryCounterStore implements CounterStore {
  readonly #maxKeys: number;
  readonly #tables = new Map<number, Map<string, Window>>();

  constructor(maxKeys = MAX_KEYS_PER_TABLE) {
    this.#maxKeys = maxKeys;
  }

  /** Keys held, over all tables. */
  get size(): number {
    let size = 0;
    for (const table of this.#tables.values()) size += table.size;
    return size;
  }

  async increment(keys: CounterKey[], now: number): Promise<Count[]> {
    return keys.map(({ key, windowMs }) => {
      const table = this.#table(windowMs);
      let window = table.get(key);
      if (window && window.resetAt > now) window.count++;
      else {
        table.delete(key);
        dropEnded(table, now);
        if (table.size >= this.#maxKeys) table.delete(table.keys().next().value!);
        window = { count: 1, resetAt: now + windowMs };
        table.set(key, window);
      }
      return { key, count: window.count, resetAt: window.resetAt };
    });
  }

  async release(decrement: string[], reset: string[], now: number): Promise<void> {
    for (const table of this.#tables.values()) {
      for (const key of decrement) {
        const window = table.get(key);
        if (window && window.resetAt > now && window.count > 0) window.count--;
      }
      for (const key of reset) table.delete(key);
    }
  }

  async read(key: string, now: number): Promise<Count | undefined> {
    for (const table of this.#tables.values()) {
      const window = table.get(key);
      if (window && window.resetAt > now) return { key, count: window.count, resetAt: window.resetAt };
    }
    return undefined;
  }

  #table(windowMs: number): Map<string, Window> {
    let table = this.#tables.get(windowMs);
    if (!table) {
      table = new Map();
      this.#tables.set(windowMs, table);
    }
    return table;
  }
}

function dropEnded(table: Map<string, Window>, now: number): void {
  for (const [key, window] of table) {
    if (window.resetAt > now) break;
    table.delete(key);
  }
}
