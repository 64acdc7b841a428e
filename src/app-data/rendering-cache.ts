// Serialised JSON renderings of read-heavy views (the profile detail, a topic's items),
// kept in memory and keyed on the owning app user's data_version: every write to what an app
// user holds bumps that number in the same transaction, so a request that reads the current
// version first can never be served a rendering older than the data. Each instance keeps its
// own cache; the version check against the database keeps several instances correct.
import type { FastifyReply } from 'fastify';
import { notFound } from '../http/errors.ts';
import { expiryFor } from '../media/signed-urls.ts';

interface Entry {
  stamp: string;
  /** UTF-8 bytes, so that sending does not encode the string again each time. */
  body: Buffer;
}

export class RenderingCache {
  #entries = new Map<string, Entry>();
  #bytes = 0;
  readonly #maxBytes: number;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(key: string, stamp: string): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.stamp !== stamp) {
      this.#drop(key, entry);
      return undefined;
    }
    // Most recently used last: the Map's order is the eviction order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.body;
  }

  set(key: string, stamp: string, body: Buffer): void {
    const previous = this.#entries.get(key);
    if (previous) this.#drop(key, previous);
    if (body.length > this.#maxBytes / 4) return;
    this.#entries.set(key, { stamp, body });
    this.#bytes += body.length;
    for (const [oldKey, oldEntry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#drop(oldKey, oldEntry);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.body.length;
  }
}

/**
 * What a cached rendering must match: the data version, and the expiry step of the signed
 * media URLs embedded in it (so a cached body never carries a URL older than a fresh one).
 */
export function renderingStamp(dataVersion: number, now: number, mediaUrlTtlMs: number): string {
  return `${dataVersion}:${expiryFor(now, mediaUrlTtlMs)}`;
}

/**
 * Sends the cached rendering of `key` when its stamp matches; otherwise loads the value,
 * serialises it through the route's response schema, caches and sends it.
 */
export async function sendRendering(
  reply: FastifyReply,
  cache: RenderingCache,
  key: string,
  stamp: string,
  load: () => Promise<object | undefined>,
): Promise<FastifyReply> {
  let body = cache.get(key, stamp);
  if (body === undefined) {
    const value = await load();
    if (value === undefined) throw notFound();
    body = Buffer.from(String(reply.serialize(value)));
    cache.set(key, stamp, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
