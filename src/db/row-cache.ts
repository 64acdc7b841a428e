// Results of small hot queries kept in memory, each filed under the row it was read from (its
// tag: a token's hash, an app user's id). The change feed drops them when that row changes.
import type { ChangeFeed, WatchedTable } from './change-feed.ts';

export interface Loaded<V> {
  tag: string | number;
  value: V;
}

export class RowCache<V> {
  readonly #feed: ChangeFeed;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, Loaded<V>>();
  readonly #keysByTag = new Map<string | number, Set<string>>();
  /** Moves on every drop: a load that overlapped one may have read the old row, and is not kept. */
  #generation = 0;

  constructor(feed: ChangeFeed, table: WatchedTable, maxEntries: number) {
    this.#feed = feed;
    this.#maxEntries = maxEntries;
    feed.onChange(table, (tag) => this.#dropTag(tag));
    feed.onReset(() => this.#clear());
  }

  /** The cached value of `key`, else `load`'s (kept only if it found something). */
  async get(key: string, load: () => Promise<Loaded<V> | undefined>): Promise<V | undefined> {
    this.#feed.catchUp();
    const hit = this.#entries.get(key);
    if (hit) return hit.value;
    const generation = this.#generation;
    const loaded = await load();
    if (loaded === undefined) return undefined;
    if (generation === this.#generation && this.#feed.started) this.#store(key, loaded);
    return loaded.value;
  }

  get size(): number {
    return this.#entries.size;
  }

  #store(key: string, loaded: Loaded<V>): void {
    if (this.#entries.size >= this.#maxEntries) this.#drop(this.#entries.keys().next().value!);
    this.#entries.set(key, loaded);
    let keys = this.#keysByTag.get(loaded.tag);
    if (!keys) this.#keysByTag.set(loaded.tag, keys = new Set());
    keys.add(key);
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    const keys = this.#keysByTag.get(entry.tag)!;
    keys.delete(key);
    if (keys.size === 0) this.#keysByTag.delete(entry.tag);
  }

  #dropTag(tag: string | number): void {
    this.#generation++;
    for (const key of this.#keysByTag.get(tag) ?? []) this.#drop(key);
  }

  #clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#keysByTag.clear();
  }
}
