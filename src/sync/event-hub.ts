// The live streams of this instance (docs/offline-and-live.md), by the owner's account of the app user
// each follows. A committed write to that data wakes its streams (commit-signals.ts); each
// stream then reads the change log after its own cursor, so what it sends is exactly what
// GET …/changes/ would: in commit order, nothing missed while it was waking, nothing twice.
// Streams at the same cursor with the same view share that read.
// A change to the tokens or accessors of an account makes its streams check that they may go
// on; so does every heartbeat, which also reads the log (a wake lost on the way costs at most
// one heartbeat's delay).
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Access } from '../app-data/kernel/access.ts';
import type { AppContext } from '../context.ts';
import { clientNetwork } from '../auth/client-network.ts';
import { message, rateLimited } from '../errors.ts';
import { changesAfter } from './change-queries.ts';
import { type Change, changesOf, PAGE_SIZE } from './change-service.ts';
import { listenForCommits } from './commit-signals.ts';
import { sealCursor } from './cursor.ts';
import { streamStillAllowed, type StreamHolder } from './stream-queries.ts';

/** One change as a stream sends it, under its cursor. */
export function event(cursor: string, change: Pick<Change, 'type' | 'id' | 'op'>): string {
  return `id: ${cursor}\ndata: ${JSON.stringify({ type: change.type, id: change.id, op: change.op })}\n\n`;
}

/** A client that reads slower than its events come: past this much unsent, its stream ends (it resumes from its last event). */
const MAX_UNSENT_BYTES = 1 << 20;

/** A page of the log as one view sees it: what a stream sends, and the change id it reaches. */
interface Read {
  lastId: number | undefined;
  full: boolean;
  events: string;
}

/**
 * Pages read during one wake, by app user, view and cursor: the streams of one app user at the same place
 * (the usual case: all caught up) read the log once between them, not once each.
 */
type Shared = Map<string, Promise<Read>>;

export interface StreamStart {
  holder: StreamHolder;
  access: Access;
  view: string;
  /** The change id the client has (Last-Event-ID), or the newest when it has none. */
  after: number;
  /** The client's address as seen under TRUST_PROXY (request.ip). */
  ip: string;
  raw: ServerResponse;
}

class LiveStream {
  readonly #hub: EventHub;
  readonly #ctx: AppContext;
  readonly start: StreamStart;
  /** What the per-IP cap counts this stream under. */
  readonly network: string;
  #after: number;
  #running: Promise<void> | undefined;
  #again = false;
  closed = false;

  constructor(hub: EventHub, ctx: AppContext, start: StreamStart) {
    this.#hub = hub;
    this.#ctx = ctx;
    this.start = start;
    this.#after = start.after;
    this.network = clientNetwork(start.ip);
  }

  get ownerAccountId(): number {
    return this.start.access.accountId;
  }

  /** Sends what the log holds after this stream's cursor; a wake while it runs makes it look again. */
  pump(shared: Shared = new Map()): void {
    if (this.closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#send(shared)
      .catch((error) => {
        this.#hub.log.warn({ err: error }, 'live stream: reading changes failed; ending it');
        this.end();
      })
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.pump();
        }
      });
  }

  async #send(shared: Shared): Promise<void> {
    for (;;) {
      // The view and the profiles it shows decide what is sent: only streams alike in both share a read.
      const key = `${this.start.holder.appUserId}|${this.start.view}|${this.start.access.profiles?.join('.') ?? '*'}|${this.#after}`;
      let read = shared.get(key);
      if (!read) {
        read = this.#read(this.#after);
        shared.set(key, read);
      }
      const { lastId, full, events } = await read;
      if (this.closed || lastId === undefined) return;
      this.#after = lastId;
      if (events) this.write(events);
      if (!full) return;
    }
  }

  async #read(after: number): Promise<Read> {
    const { access, view } = this.start;
    const { appUserId } = this.start.holder;
    const ctx = this.#ctx;
    const rows = await changesAfter(ctx.db.kysely, access.accountId, appUserId, after, PAGE_SIZE);
    if (rows.length === 0) return { lastId: undefined, full: false, events: '' };
    let events = '';
    for (const { change, at } of await changesOf(ctx, access, appUserId, rows)) {
      events += event(sealCursor(ctx.secrets.cursors, { appUserId, view, changeId: at, profiles: access.profiles }), change);
    }
    return { lastId: rows.at(-1)!.id, full: rows.length === PAGE_SIZE, events };
  }

  /** Checks the stream may go on; ends it when not. */
  async check(): Promise<void> {
    if (this.closed) return;
    const allowed = await streamStillAllowed(this.#ctx.db.kysely, this.start.holder, this.#ctx.clock.now()).catch(() => true);
    if (!allowed) this.end();
  }

  write(text: string): void {
    if (this.closed) return;
    this.start.raw.write(text);
    if (this.start.raw.writableLength > MAX_UNSENT_BYTES) this.end();
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.#hub.forget(this);
    this.start.raw.end();
  }
}

export class EventHub {
  readonly log: FastifyBaseLogger;
  readonly #ctx: AppContext;
  readonly #byOwner = new Map<number, Set<LiveStream>>();
  readonly #byCaller = new Map<number, Set<LiveStream>>();
  readonly #byNetwork = new Map<string, Set<LiveStream>>();
  readonly #waking = new Set<number>();
  readonly #listening: { close(): Promise<void> };
  readonly #heartbeat: NodeJS.Timeout;

  constructor(ctx: AppContext, log: FastifyBaseLogger) {
    this.#ctx = ctx;
    this.log = log;
    this.#listening = listenForCommits(ctx.db, {
      data: (ownerAccountId) => this.#wake(ownerAccountId),
      access: (accountId) => {
        for (const stream of this.#byCaller.get(accountId) ?? []) void stream.check();
      },
      all: () => {
        for (const ownerAccountId of this.#byOwner.keys()) this.#wake(ownerAccountId);
      },
    });
    this.#heartbeat = setInterval(() => this.#beat(), ctx.config.eventHeartbeatMs);
    this.#heartbeat.unref();
  }

  /**
   * 429 when the caller's account, or the client's IP (`request.ip`, an IPv6 client by its /64),
   * has as many streams open as it may: a stream holds a connection and a place in every wake,
   * and accounts are cheap to make.
   */
  admit(callerAccountId: number, ip: string): void {
    const { eventStreamsPerAccount, eventStreamsPerIp } = this.#ctx.config;
    if ((this.#byCaller.get(callerAccountId)?.size ?? 0) >= eventStreamsPerAccount) {
      throw rateLimited(30, message('sync.tooManyStreamsPerAccount', { max: eventStreamsPerAccount }));
    }
    if ((this.#byNetwork.get(clientNetwork(ip))?.size ?? 0) >= eventStreamsPerIp) {
      throw rateLimited(30, message('sync.tooManyStreamsPerIp', { max: eventStreamsPerIp }));
    }
  }

  /** Starts a stream whose response is already open: it first sends what came after `after`. */
  add(start: StreamStart): void {
    const stream = new LiveStream(this, this.#ctx, start);
    add(this.#byOwner, stream.ownerAccountId, stream);
    add(this.#byCaller, start.holder.callerAccountId, stream);
    add(this.#byNetwork, stream.network, stream);
    start.raw.on('close', () => stream.end());
    stream.pump();
  }

  forget(stream: LiveStream): void {
    remove(this.#byOwner, stream.ownerAccountId, stream);
    remove(this.#byCaller, stream.start.holder.callerAccountId, stream);
    remove(this.#byNetwork, stream.network, stream);
  }

  /** Ends every stream (the server is shutting down: clients reconnect elsewhere, from their last event). */
  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    for (const streams of [...this.#byOwner.values()]) {
      for (const stream of [...streams]) {
        stream.end();
        // Its client may be gone unnoticed: the socket would hold the shutdown until it times out.
        stream.start.raw.destroy();
      }
    }
    await this.#listening.close();
  }

  // SQLite tells of a write while it runs, before its commit: the streams read once the write's
  // connection is free again, which is after the commit. Several writes in one turn wake once.
  #wake(ownerAccountId: number): void {
    if (!this.#byOwner.has(ownerAccountId) || this.#waking.has(ownerAccountId)) return;
    this.#waking.add(ownerAccountId);
    setImmediate(() => {
      this.#waking.delete(ownerAccountId);
      const shared: Shared = new Map();
      for (const stream of this.#byOwner.get(ownerAccountId) ?? []) stream.pump(shared);
    });
  }

  #beat(): void {
    for (const streams of this.#byOwner.values()) {
      const shared: Shared = new Map();
      for (const stream of streams) {
        stream.write(': keepalive\n\n');
        void stream.check();
        stream.pump(shared);
      }
    }
  }
}

function add<K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream): void {
  const set = map.get(key) ?? new Set();
  set.add(stream);
  map.set(key, set);
}

function remove<K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream): void {
  const set = map.get(key);
  set?.delete(stream);
  if (set?.size === 0) map.delete(key);
}
