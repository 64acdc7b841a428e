// Serialised JSON renderings of read-heavy views (the profile detail, a topic's items),
// kept in memory and stamped with the owning app user's data_version: every write to what an
// app user holds bumps that number in the same transaction, and the caller's current version
// (src/auth/token-finder.ts) is read before the view, so a request can never be served a
// rendering older than the data. Each instance keeps its own cache; on PostgreSQL the version
// read from the database with the token keeps several instances correct.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Caller } from '../auth/token-auth.ts';
import { notFound } from '../errors.ts';
import { expiryFor } from '../media/signed-urls.ts';
import { isStream } from './tree-views.ts';

interface Entry {
  /** The owner: the account the rendering was loaded for (the load filters on it). */
  accountId: number;
  /** What the rendering was made from (see `Stamp`). */
  dataVersion: number;
  expiry: number;
  /** UTF-8 bytes, so that sending does not encode the string again each time. */
  body: Buffer;
  /** Read (or added) since eviction last passed it: it gets another turn before it goes. */
  used: boolean;
}

/**
 * What a cached rendering must match: the data version, and the expiry step of the signed media
 * URLs embedded in it (so a cached body never carries a URL older than a fresh one).
 */
export interface Stamp {
  dataVersion: number;
  expiry: number;
}

export class RenderingCache {
  /** In insertion order: the order eviction passes them in. */
  #entries = new Map<string, Entry>();
  #bytes = 0;
  readonly #maxBytes: number;
  readonly #mediaUrlTtlMs: number;
  /** Reads answered from the cache, and reads that had to load (GET /metrics). */
  readonly counts = { hits: 0, misses: 0 };

  constructor(maxBytes: number, mediaUrlTtlMs: number) {
    this.#maxBytes = maxBytes;
    this.#mediaUrlTtlMs = mediaUrlTtlMs;
  }

  stamp(dataVersion: number, now: number): Stamp {
    return { dataVersion, expiry: expiryFor(now, this.#mediaUrlTtlMs) };
  }

  get(key: string, accountId: number, stamp: Stamp): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (!entry || entry.accountId !== accountId) {
      this.counts.misses++;
      return undefined;
    }
    if (entry.dataVersion !== stamp.dataVersion || entry.expiry !== stamp.expiry) {
      this.#drop(key, entry);
      this.counts.misses++;
      return undefined;
    }
    this.counts.hits++;
    // A flag, not a move to the end of the Map: a hit costs no Map writes (the profile read's
    // hot path), and eviction still spares what was read since it last passed.
    entry.used = true;
    return entry.body;
  }

  set(key: string, accountId: number, stamp: Stamp, body: Buffer): void {
    const previous = this.#entries.get(key);
    if (previous) this.#drop(key, previous);
    if (body.length > this.#maxBytes / 4) return;
    this.#entries.set(key, { accountId, dataVersion: stamp.dataVersion, expiry: stamp.expiry, body, used: true });
    this.#bytes += body.length;
    this.#evict();
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Second chance ("clock"): the oldest entry goes, unless it was read or added since eviction
   * last passed it; then it loses the mark and moves to the end.
   */
  #evict(): void {
    while (this.#bytes > this.#maxBytes) {
      const [key, entry] = this.#entries.entries().next().value!;
      this.#entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.#entries.set(key, entry);
      } else {
        this.#bytes -= entry.body.length;
      }
    }
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.body.length;
  }
}

/**
 * Sends the caller's cached rendering of `key` when it is current; otherwise loads the value
 * (undefined: missing or someone else's, 404), serialises it through the route's response
 * schema, caches and sends it. A view written in pages (a stream: tree-views.ts) is sent as it
 * is and not cached: it is larger than the cache would keep.
 */
export async function sendRendering(
  reply: FastifyReply,
  cache: RenderingCache,
  key: string,
  caller: Caller,
  now: number,
  load: () => Promise<object | Readable | undefined>,
): Promise<FastifyReply> {
  // No app user yet: nothing to cache, and the load finds nothing.
  const dataVersion = await caller.dataVersion();
  const stamp = dataVersion === null ? undefined : cache.stamp(dataVersion, now);
  let body = stamp === undefined ? undefined : cache.get(key, caller.accountId, stamp);
  if (body === undefined) {
    const value = await load();
    if (value === undefined) throw notFound();
    if (isStream(value)) return reply.type('application/json; charset=utf-8').send(value);
    body = Buffer.from(String(reply.serialize(value)));
    if (stamp !== undefined) cache.set(key, caller.accountId, stamp, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
