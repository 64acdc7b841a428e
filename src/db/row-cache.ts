// Results of small hot queries kept in memory, each filed under the account whose rows it was
// read from. The change feed drops them when those rows (of the kind the cache watches) change.
import type { ChangeFeed, Watched } from './change-feed.ts';

export interface Loaded<V> {
  accountId: number;
  value: V;
}

export class RowCache<V> {
  readonly #feed: ChangeFeed;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, Loaded<V>>();
  readonly #keysByAccount = new Map<number, Set<string>>();
  /** Moves on every drop: a load that overlapped one may have read the old row, and is not kept. */
  #generation = 0;
  /** Reads answered from the cache, and reads that had to load (GET /metrics). */
  readonly counts = { hits: 0, misses: 0 };

  constructor(feed: ChangeFeed, watched: Watched, maxEntries: number) {
    this.#feed = feed;
    this.#maxEntries = maxEntries;
    feed.onChange(watched, (accountId) => this.#dropAccount(accountId));
    feed.onReset(() => this.#clear());
  }

  /** The cached value of `key`, else `load`'s (kept only if it found something). */
  async get(key: string, load: () => Promise<Loaded<V> | undefined>): Promise<V | undefined> {
    this.#feed.catchUp();
    const hit = this.#entries.get(key);
    if (hit) {
      this.counts.hits++;
      return hit.value;
    }
    this.counts.misses++;
    const generation = this.#generation;
    const loaded = await load();
    if (loaded === undefined) return undefined;
    this.#keepUnlessChanged(key, loaded, generation);
    return loaded.value;
  }

  /** Whether `get(key)` would answer without a load now. */
  has(key: string): boolean {
    this.#feed.catchUp();
    return this.#entries.has(key);
  }

  /**
   * For a value read by a statement that reads more than this row (so that the row costs no
   * query of its own): call before that statement. The function returned keeps what it found
   * under `key` unless a change to the watched rows (anyone's, as for a load of `get`) came in
   * between: it may have read the old row.
   */
  reading(key: string): (loaded: Loaded<V>) => void {
    this.#feed.catchUp();
    const generation = this.#generation;
    return (loaded) => {
      if (!this.#entries.has(key)) this.#keepUnlessChanged(key, loaded, generation);
    };
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Keeps what a read that began at `generation` found, unless a change came in since: it may have read the old row. */
  #keepUnlessChanged(key: string, loaded: Loaded<V>, generation: number): void {
    if (generation === this.#generation && this.#feed.started) this.#store(key, loaded);
  }

  #store(key: string, loaded: Loaded<V>): void {
    if (this.#entries.size >= this.#maxEntries) this.#drop(this.#entries.keys().next().value!);
    this.#entries.set(key, loaded);
    let keys = this.#keysByAccount.get(loaded.accountId);
    if (!keys) {
      keys = new Set();
      this.#keysByAccount.set(loaded.accountId, keys);
    }
    keys.add(key);
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    const keys = this.#keysByAccount.get(entry.accountId)!;
    keys.delete(key);
    if (keys.size === 0) this.#keysByAccount.delete(entry.accountId);
  }

  #dropAccount(accountId: number): void {
    this.#generation++;
    for (const key of this.#keysByAccount.get(accountId) ?? []) this.#drop(key);
  }

  #clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#keysByAccount.clear();
  }
}
