// The counters behind every abuse limit (docs/api-conventions.md#limits, docs/production.md): fixed windows, one count per key.
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
  /** The limit counted against the key: a store short of room keeps a window at it (absent: no limit). */
  max?: number;
}

export interface Count {
  key: string;
  count: number;
  /** When the key's current window ends (epoch ms). */
  resetAt: number;
}

export interface CounterStore {
  /**
   * Adds one to each key (distinct keys) in its current window, opening a new window where none
   * is open. A key the store has no room for answers a count over any limit, until `resetAt`.
   */
  increment(keys: CounterKey[], now: number): Promise<Count[]>;
  /** Takes one back from each of `decrement`'s keys (in an open window) and forgets `reset`'s. */
  release(decrement: string[], reset: string[], now: number): Promise<void>;
  /** The key's count in its open window, counting nothing; undefined when none is open. */
  read(key: string, now: number): Promise<Count | undefined>;
}

/** Counts an attempt against each limit; milliseconds until the most exceeded one allows again (0: within all). */
export async function limit(store: CounterStore, limits: Array<{ key: string; limit: RateLimit }>, now: number): Promise<number> {
  return (await countAttempt(store, limits, now)).waitMs;
}

export interface Counted {
  /** Milliseconds until the most exceeded limit allows again (0: within all). */
  waitMs: number;
  /** The keys over their limit. */
  exceeded: string[];
  /** Each key's count, this attempt included. */
  counts: Map<string, number>;
}

/** Counts an attempt against each limit, and says where each stands. */
export async function countAttempt(store: CounterStore, limits: Array<{ key: string; limit: RateLimit }>, now: number): Promise<Counted> {
  const counts = await store.increment(
    limits.map(({ key, limit }) => ({ key, windowMs: limit.windowMs, max: limit.max })),
    now,
  );
  const counted: Counted = { waitMs: 0, exceeded: [], counts: new Map(counts.map((c) => [c.key, c.count])) };
  for (const { key, limit } of limits) {
    const count = counts.find((c) => c.key === key);
    if (count && count.count > limit.max) {
      counted.waitMs = Math.max(counted.waitMs, count.resetAt - now);
      counted.exceeded.push(key);
    }
  }
  return counted;
}

/** Keys kept per window length (RATE_COUNTER_MEMORY_KEYS). */
export const MAX_KEYS_PER_TABLE = 100_000;

interface Window {
  count: number;
  resetAt: number;
  /** The limit counted against it: a window at its limit is never dropped to make room. */
  max: number;
}

interface Table {
  /** Windows by key, in the order they were opened (so, mostly, the order they end). */
  windows: Map<string, Window>;
  /** Until then every window is live and at its limit: a new key finds no room (0: unknown). */
  fullUntil: number;
}

/**
 * Fixed windows in memory, one table per window length, each bounded. A full table makes room
 * by forgetting windows that ended, then the oldest window still under its limit (forgetting
 * one gives back fewer attempts than its limit allows anyway). A window at its limit is never
 * dropped: a flood of new keys cannot make the service forget a lock. When every window is at
 * its limit, a new key is refused as over its limit (fail closed) until the first one ends. A
 * restart forgets everything.
 */
export class MemoryCounterStore implements CounterStore {
  readonly #maxKeys: number;
  readonly #tables = new Map<number, Table>();

  constructor(maxKeys = MAX_KEYS_PER_TABLE) {
    this.#maxKeys = maxKeys;
  }

  /** Keys held, over all tables. */
  get size(): number {
    let size = 0;
    for (const table of this.#tables.values()) size += table.windows.size;
    return size;
  }

  async increment(keys: CounterKey[], now: number): Promise<Count[]> {
    return keys.map(({ key, windowMs, max = Number.POSITIVE_INFINITY }) => {
      const table = this.#table(windowMs);
      let window = table.windows.get(key);
      if (window && window.resetAt > now) window.count++;
      else {
        if (window) table.windows.delete(key);
        else if (!makeRoom(table, this.#maxKeys, now)) return { key, count: Number.MAX_SAFE_INTEGER, resetAt: table.fullUntil };
        window = { count: 1, resetAt: now + windowMs, max };
        table.windows.set(key, window);
      }
      return { key, count: window.count, resetAt: window.resetAt };
    });
  }

  async release(decrement: string[], reset: string[], now: number): Promise<void> {
    for (const table of this.#tables.values()) {
      let freed = false;
      for (const key of decrement) {
        const window = table.windows.get(key);
        if (window && window.resetAt > now && window.count > 0) freed = window.count-- === window.max || freed;
      }
      for (const key of reset) freed = table.windows.delete(key) || freed;
      // Only a window gone or back under its limit makes room: otherwise a full table stays known as full.
      if (freed) table.fullUntil = 0;
    }
  }

  async read(key: string, now: number): Promise<Count | undefined> {
    for (const table of this.#tables.values()) {
      const window = table.windows.get(key);
      if (window && window.resetAt > now) return { key, count: window.count, resetAt: window.resetAt };
    }
    return undefined;
  }

  #table(windowMs: number): Table {
    let table = this.#tables.get(windowMs);
    if (!table) {
      table = { windows: new Map(), fullUntil: 0 };
      this.#tables.set(windowMs, table);
    }
    return table;
  }
}

/** Makes room for one more window, if the table is full; false when every window must stay. */
function makeRoom(table: Table, maxKeys: number, now: number): boolean {
  const { windows } = table;
  for (const [key, window] of windows) {
    if (window.resetAt > now) break;
    windows.delete(key);
  }
  if (windows.size < maxKeys) return true;
  if (now < table.fullUntil) return false;
  // Oldest first; a window at its limit goes to the back, so the next search starts past it
  // and each window is looked at about once per time the table is searched through.
  let earliestEnd = Number.POSITIVE_INFINITY;
  for (let steps = windows.size; steps > 0; steps--) {
    const [key, window] = windows.entries().next().value!;
    windows.delete(key);
    if (window.resetAt <= now || window.count < window.max) return true;
    windows.set(key, window);
    earliestEnd = Math.min(earliestEnd, window.resetAt);
  }
  table.fullUntil = earliestEnd;
  return false;
}
