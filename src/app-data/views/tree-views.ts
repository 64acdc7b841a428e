// The views that grow with what an app user holds: a profile's detail, its topics, a topic, a
// topic's items. For an app user holding at most INLINE_ITEMS items and INLINE_ENTRIES list
// entries, each is loaded whole with a fixed number of queries (profile-detail.ts) and
// serialised by its route's schema (and cached where the route caches). Beyond, it is written
// in pages (paged-tree.ts) into a spool file within one snapshot and sent from it, as the data
// export is: no read of the largest account allowed stalls the instance or takes memory in
// proportion to it (docs/app-data.md). The choice is made from the app user's counts, read with the
// view's first row (tree-queries.ts), so it costs no query.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ReadSlots } from '../../spool/read-slots.ts';
import { isStream, SpoolFile } from '../../spool/spool-file.ts';
import { JsonWriter } from '../../spool/json-writer.ts';
import type { PagedOutput } from './paged-tree.ts';
import type { HeldCounts } from './tree-queries.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Up to these, a view is at most about 1.5 MB of JSON: rendered whole in a few milliseconds. */
export const INLINE_ITEMS = 1_000;
export const INLINE_ENTRIES = 5_000;

export function fitsInline(held: HeldCounts): boolean {
  return held.held_items <= INLINE_ITEMS && held.held_entries <= INLINE_ENTRIES;
}

/** Views being read into their spool files at once on this instance (spool/read-slots.ts). */
const reading = new WeakMap<AppContext, ReadSlots>();
const VIEWS_READ_AT_ONCE = 2;

function readSlots(ctx: AppContext): ReadSlots {
  let slots = reading.get(ctx);
  if (!slots) {
    slots = new ReadSlots(VIEWS_READ_AT_ONCE);
    reading.set(ctx, slots);
  }
  return slots;
}

/**
 * A view written in pages, ready to send: `find` reads its root again within the snapshot (a
 * concurrent deletion may have removed it since the caller looked: then undefined, a 404), and
 * `write` writes the view of what it found.
 */
export async function spoolView<R>(
  ctx: AppContext,
  find: (db: Kysely<Database>) => Promise<R | undefined>,
  write: (db: Kysely<Database>, out: PagedOutput, found: R) => Promise<void>,
): Promise<Readable | undefined> {
  const spool = await SpoolFile.create(ctx.config.spoolDir);
  try {
    const json = new JsonWriter((text) => spool.write(text));
    const out: PagedOutput = { json, between: () => spool.betweenPages(), map: (value) => value };
    const found = await readSlots(ctx).run(() =>
      ctx.db.readSnapshot(async (db) => {
        const root = await find(db);
        if (root !== undefined) await write(db, out, root);
        return root !== undefined;
      }),
    );
    if (!found) {
      await spool.remove();
      return undefined;
    }
    await spool.finish();
  } catch (error) {
    await spool.remove();
    throw error;
  }
  const body = spool.read();
  body.once('close', () => {
    spool.remove().catch((error: unknown) => ctx.log.warn({ err: error }, 'a spool file could not be removed'));
  });
  return body;
}

/** Sends a view: a spooled one as it is, one in hand through the route's schema. */
export function sendView<T>(reply: FastifyReply, view: T | Readable): T | FastifyReply {
  if (isStream(view)) return reply.type('application/json; charset=utf-8').send(view);
  return view;
}
