// A profile's detail on a rendering-cache miss, assembled from its topics' parts (rendering-cache.ts):
// one statement reads the profile, all its topics with their stamps (rendered_version,
// migration 0034), and the items and entries of only the topics stamped at or after the detail's last
// rendering (`since`); those topics' items are serialised and kept as parts, the others' taken
// from the cache. A read after a one-entry write thus reads, maps and serialises one topic's
// items, not the profile's. A part kept is exact: a topic's stamp moves with every change to
// what its items show, in the change's own transaction, and parts are keyed by the accessor
// their media URLs are signed for and stamped with the URLs' expiry step. A part that is not
// there (evicted, another accessor's, a new expiry step, a topic created since) makes the read
// read every topic (`since` -1) instead. What differs per caller but is not a part (the
// decision whether the caller sees the profile at all, private profiles included) is made
// before this runs, once, by sendRendering.
//
// With the cache off (RENDER_CACHE_BYTES=0), the detail is loaded as it always was.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Access } from '../kernel/access.ts';
import { toProfileDetail, type ProfileDetail } from '../profile-schemas.ts';
import { TopicSchema, toTopic } from '../topic-schemas.ts';
import { itemsByTopic, loadProfileDetail, spooledProfileDetail } from './profile-detail.ts';
import { profileTree, readProfileTree } from './profile-tree-query.ts';
import { type RenderingCache, Serialised } from './rendering-cache.ts';
import { fitsInline } from './tree-views.ts';

/** The schema of a topic's items, as the detail's own schema holds it (the same serialiser). */
const ITEMS_SCHEMA = TopicSchema.properties.items;

/** The key of a topic's items rendered for `accessorId` (0: the owner). */
export const partKey = (topicId: number, accessorId: number | null): string => `topic-part:${topicId}|${accessorId ?? 0}`;

/** `value` through the route's serialiser compiler with `schema` (compiled once per route). */
function serialise(reply: FastifyReply, value: unknown, schema: object): string {
  return reply.serializeInput(value as Record<string, unknown>, schema as Record<string, unknown>);
}

/** `json` (an object serialised with an empty array as its last member) without that `[]}`. */
function open(json: string): string {
  if (!json.endsWith('[]}')) throw new Error('a rendering to assemble must end with an empty array');
  return json.slice(0, -3);
}

/**
 * The detail of the profile `profileId`, serialised (through the route's serialisers on `reply`),
 * re-reading only what changed after the version `since` (-1: everything); undefined when the
 * account holds no such profile; a stream when it is too large to render whole.
 */
export async function renderProfileDetail(
  ctx: AppContext,
  cache: RenderingCache,
  reply: FastifyReply,
  access: Access,
  profileId: number,
  since: number,
): Promise<ProfileDetail | Serialised | Readable | undefined> {
  if (!cache.enabled) return loadProfileDetail(ctx, access, profileId);
  const row = await readProfileTree(ctx.db, access.accountId, profileId, since);
  if (!row) return undefined;
  const { profile, topics, items } = profileTree(row);
  if (!fitsInline(profile)) return spooledProfileDetail(ctx, access, profileId);
  const expiry = cache.expiryAt(ctx.clock.now());
  const byTopic = itemsByTopic(ctx, access, items);
  const parts: Buffer[] = [Buffer.from(`${open(String(reply.serialize(toProfileDetail(ctx, profile, []))))}[`)];
  for (const [i, topic] of topics.entries()) {
    const key = partKey(topic.id, access.accessorId);
    let part: Buffer | undefined;
    // At `since` too: profile-tree-query.ts says why.
    if (topic.rendered_version >= since) {
      part = Buffer.from(serialise(reply, byTopic.get(topic.id) ?? [], ITEMS_SCHEMA));
      cache.setPart(key, topic.rendered_version, expiry, part);
    } else {
      part = cache.part(key, topic.rendered_version, expiry);
      // Not kept: read every topic again (whose parts are then all made and kept).
      if (part === undefined) return renderProfileDetail(ctx, cache, reply, access, profileId, -1);
    }
    const head = open(serialise(reply, toTopic(ctx, topic, []), TopicSchema));
    parts.push(Buffer.from(i === 0 ? head : `,${head}`), part, CLOSE_OBJECT);
  }
  parts.push(CLOSE_DETAIL);
  return new Serialised(Buffer.concat(parts));
}

const CLOSE_OBJECT = Buffer.from('}');
const CLOSE_DETAIL = Buffer.from(']}');
