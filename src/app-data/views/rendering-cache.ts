// Serialised JSON renderings of read-heavy views (the profile detail, a topic's items),
// kept in memory and stamped with the owning app user's id and data_version: every write to what an
// app user holds bumps that number in the same transaction, and the current version (the
// caller's own, or a shared app user's in the caller's grants: src/auth/token-finder.ts) is
// read before the view, or by the statement that reads the view (`versionInLoad`: the profile
// detail), so a request can never be served a rendering older than the data. Each
// instance keeps its own cache; on PostgreSQL the versions read from the database with the
// token keep several instances correct. The app user's id is in the stamp because every app
// user counts from the same start: one deleted and made again by the same account would, after
// as many writes, otherwise match the renderings of the one that is gone.
//
// Renderings are kept per viewer (the key ends with the caller's account id): an accessor's
// rendering carries media URLs signed for their access, and is served only while the caller
// holds that same accessor and it still sees what the rendering shows (access.ts's `grantSees`,
// asked of where the object was found when the rendering was made); a revocation, a loss of
// private access or a profile made private (a write: a new data version) is a miss on the next request.
//
// A profile's detail is kept with its layout (detail-layout.ts): where each topic and each item
// lies in its bytes, with the stamp each was rendered at (rendered_version, migrations 0034 and
// 0043: its app user's data version when what it shows last changed) and what the stamps do not
// cover (a topic's name and type, the profile's row). A miss for the same viewer in the same
// expiry step of the media URLs re-reads only the items whose stamp moved since the kept detail
// was made and copies the rest out of its bytes (profile-rendering.ts), before the new detail
// replaces it. Each kept detail counts its layout's records against the byte budget too.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { DataVersion } from '../../auth/data-version.ts';
import type { Caller } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { entityTag, sendTagged } from '../../http/entity-tags.ts';
import { expiryFor } from '../../media/signed-urls.ts';
import { grantSees, objectAccess, type Access, type Kind, type Seen } from '../kernel/access.ts';
import { isStream } from '../../spool/spool-file.ts';
import { type DetailLayout, layoutBytes } from './detail-layout.ts';
import { keptBytes, keptUtf8 } from './kept-bytes.ts';

/** Whom a rendering was made for: its owner (accessor 0), or one accessor, with where what it shows was found. */
interface Viewer {
  accessorId: number;
  seen: Seen | null;
}

const OWNER: Viewer = { accessorId: 0, seen: null };

interface Entry extends Viewer {
  /** What the rendering was made from (see `Stamp`). */
  appUserId: number;
  dataVersion: number;
  expiry: number;
  /** UTF-8 bytes, so that sending does not encode the string again each time; in memory of their own (kept-bytes.ts). */
  body: Buffer;
  /** The body's entity tag (http/entity-tags.ts), made once. */
  tag: string;
  /** A profile's detail: where its topics and items lie in the body. */
  layout: DetailLayout | undefined;
  /** What it counts against the budget. */
  cost: number;
  /** Read (or added) since eviction last passed it: it gets another turn before it goes. */
  used: boolean;
}

/** A rendering kept, as a miss may build on it: for whom and from what it was made, and its bytes. */
export type KeptRendering = Readonly<Pick<Entry, 'accessorId' | 'seen' | 'dataVersion' | 'expiry' | 'body' | 'layout'>>;

/**
 * What a cached rendering must match: the app user and its data version, and the expiry step of
 * the signed media URLs embedded in it (so a cached body never carries a URL older than a fresh one).
 */
export interface Stamp extends DataVersion {
  expiry: number;
}

/**
 * A rendering already serialised (a profile's detail, assembled): sent as it is, and kept
 * stamped with the data version its statement read with the data, with its layout.
 */
export class Serialised {
  readonly body: Buffer;
  readonly version: DataVersion;
  readonly layout: DetailLayout;
  constructor(body: Buffer, version: DataVersion, layout: DetailLayout) {
    this.body = body;
    this.version = version;
    this.layout = layout;
  }
}

/**
 * What an entry costs besides its body's bytes (and a detail's layout), counted against the
 * budget: its key, its record and its place in the Map (about 210 bytes of V8's heap), and its
 * body's own ArrayBuffer and view (about 200 more; kept-bytes.ts).
 */
export const ENTRY_BYTES = 400;

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

  stamp(version: DataVersion, now: number): Stamp {
    return { appUserId: version.appUserId, dataVersion: version.dataVersion, expiry: expiryFor(now, this.#mediaUrlTtlMs) };
  }

  /** Whether renderings are kept at all (RENDER_CACHE_BYTES 0 keeps none). */
  get enabled(): boolean {
    return this.#maxBytes > 0;
  }

  /** The expiry step of the media URLs signed at `now`: part of every stamp. */
  expiryAt(now: number): number {
    return expiryFor(now, this.#mediaUrlTtlMs);
  }

  /** The rendering of `key` as it is kept, current or not (take it before `get` drops a stale one). */
  kept(key: string): KeptRendering | undefined {
    return this.#entries.get(key);
  }

  /** The rendering of `key` when it is stamped `stamp` (else it is dropped); undefined `stamp`: the caller may not have it. */
  get(key: string, stamp: Stamp | undefined): { body: Buffer; tag: string } | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      this.counts.misses++;
      return undefined;
    }
    if (
      stamp === undefined ||
      entry.dataVersion !== stamp.dataVersion ||
      entry.appUserId !== stamp.appUserId ||
      entry.expiry !== stamp.expiry
    ) {
      this.#drop(key, entry);
      this.counts.misses++;
      return undefined;
    }
    this.counts.hits++;
    // A flag, not a move to the end of the Map: a hit costs no Map writes (the profile read's
    // hot path), and eviction still spares what was read since it last passed.
    entry.used = true;
    return entry;
  }

  set(key: string, viewer: Viewer, stamp: Stamp, body: Buffer, tag: string, layout?: DetailLayout): void {
    const previous = this.#entries.get(key);
    if (previous) this.#drop(key, previous);
    if (body.length > this.#maxBytes / 4) return;
    const cost = body.length + ENTRY_BYTES + (layout ? layoutBytes(layout) : 0);
    const { accessorId, seen } = viewer;
    const { appUserId, dataVersion, expiry } = stamp;
    this.#entries.set(key, { accessorId, seen, appUserId, dataVersion, expiry, body: keptBytes(body), tag, layout, cost, used: true });
    this.#bytes += cost;
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
        this.#bytes -= entry.cost;
      }
    }
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.cost;
  }
}

/** A view cached per viewer: the object it shows (for the access decision) and its cache key. */
export interface RenderedView {
  kind: Kind;
  id: number;
  key: string;
  /**
   * Its load reads the data version with the data, and answers a `Serialised` stamped with it
   * (any other answer is sent but not kept): no version is read before it.
   */
  versionInLoad?: boolean;
}

/** A version that would cost a query to know: for a view whose load reads it with the data, a miss. */
const NOT_KEPT = Symbol('not kept');

/**
 * The version a rendering for `viewer` must carry to be served to the caller; undefined: not
 * theirs to have. An accessor's read is noted as `objectAccess` notes it (a hit is a read too).
 * `loadReadsIt`: NOT_KEPT rather than a query for it.
 */
async function versionFor(caller: Caller, viewer: Viewer, loadReadsIt: boolean): Promise<DataVersion | null | undefined | typeof NOT_KEPT> {
  if (viewer.accessorId === OWNER.accessorId) {
    return loadReadsIt && !caller.versionKept(caller.accountId) ? NOT_KEPT : caller.dataVersion();
  }
  const grant = (await caller.grants()).find((g) => g.accessorId === viewer.accessorId);
  if (!grant || !viewer.seen || !grantSees(grant, viewer.seen)) return undefined;
  const noting = caller.noteRead(grant);
  if (noting) await noting;
  return loadReadsIt && !caller.versionKept(grant.ownerAccountId) ? NOT_KEPT : grant.dataVersion();
}

/**
 * Sends the caller's cached rendering of `view` when it is current and still theirs; otherwise
 * decides the caller's access (access.ts), loads the value with it (undefined: 404),
 * serialises it through the route's response schema, caches and sends it. A view written in
 * pages (a stream: tree-views.ts) is sent as it is and not cached: it is larger than the cache
 * would keep.
 */
export async function sendRendering(
  reply: FastifyReply,
  ctx: AppContext,
  cache: RenderingCache,
  view: RenderedView,
  caller: Caller,
  load: (access: Access, kept: KeptRendering | undefined) => Promise<object | Readable | Serialised | undefined>,
): Promise<FastifyReply> {
  const key = `${view.key}|${caller.accountId}`;
  const now = ctx.clock.now();
  // What a load may build on (a profile's detail: all but what changed since), current or not.
  const kept = cache.kept(key);
  const version = kept === undefined ? NOT_KEPT : await versionFor(caller, kept, view.versionInLoad === true);
  if (version === NOT_KEPT) {
    // Nothing kept, or whether it is current would cost a query that the load makes anyway:
    // a miss, and what the load makes replaces what is kept.
    cache.counts.misses++;
  } else {
    const hit = cache.get(key, version === undefined || version === null ? undefined : cache.stamp(version, now));
    if (hit !== undefined) return sendTagged(reply.request, reply, hit.tag, hit.body);
  }
  const { access, location } = await objectAccess(ctx, caller, view.kind, view.id, 'read');
  // Read before the data, unless the load reads it with the data: a rendering is never stamped
  // newer than what it shows.
  const found = view.versionInLoad ? caller.versionRead(access.accountId) : undefined;
  let stamp = found ? null : await (access.grant ? access.grant.dataVersion() : caller.dataVersion());
  const value = await load(access, kept);
  if (value === undefined) throw notFound();
  if (isStream(value)) return reply.type('application/json; charset=utf-8').send(value);
  if (found && value instanceof Serialised) {
    stamp = value.version;
    found(stamp);
  }
  const body = value instanceof Serialised ? value.body : keptUtf8(String(reply.serialize(value)));
  const tag = entityTag(body);
  const made: Viewer = access.grant ? { accessorId: access.grant.accessorId, seen: location } : OWNER;
  if (stamp !== null) cache.set(key, made, cache.stamp(stamp, now), body, tag, value instanceof Serialised ? value.layout : undefined);
  return sendTagged(reply.request, reply, tag, body);
}
