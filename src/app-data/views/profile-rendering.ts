// A profile's detail on a rendering-cache miss, assembled from kept parts (rendering-cache.ts):
// one statement reads the profile, all its topics with their stamps (rendered_version,
// migration 0034), the items of the topics stamped at or after the detail's last rendering
// (`since`) with their own stamps (migration 0043), and whole only the items stamped at or after
// it. Each topic is kept serialised whole as a part, and each item as a part of its own; an
// unchanged topic is taken from its part, a changed one assembled from its items' parts with the
// changed items serialised again. A read after a one-entry write thus reads, maps and serialises
// one item and one topic's head, not the profile's fifty items. A part kept is exact: a topic's
// or an item's stamp moves with every change to what its items show, in the change's own
// transaction, a topic's part is checked against the name and type its row reads now (its stamp
// does not cover them), as the profile's opening is against its row, and parts are keyed by
// the accessor their media URLs are signed for and stamped with the URLs' expiry step. A part
// that is not there (evicted, another accessor's, a new expiry step, made before the item's
// topic last changed) makes the read read every item whole (`since` -1) instead. What differs
// per caller but is not a part (the decision whether the caller sees the profile at all,
// private profiles included) is made before this runs, once, by sendRendering.
//
// With the cache off (RENDER_CACHE_BYTES=0), the detail is loaded as it always was.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Access } from '../kernel/access.ts';
import { type ProfileDetail, type ProfileRow, toProfileDetail } from '../profile-schemas.ts';
import { TopicSchema, toTopic } from '../topic-schemas.ts';
import { toItem } from '../item-schemas.ts';
import { loadProfileDetail, spooledProfileDetail } from './profile-detail.ts';
import { type ItemStamp, profileTree, readProfileTree, type StampedTopicRow } from './profile-tree-query.ts';
import { keptJoin, keptUtf8 } from './kept-bytes.ts';
import { type RenderingCache, Serialised } from './rendering-cache.ts';
import { fitsInline } from './tree-views.ts';

/** The schema of one item of a topic's items, as the detail's own schema holds it (the same serialiser). */
const ITEM_SCHEMA = TopicSchema.properties.items.items;

/** The key of a topic rendered for `accessorId` (0: the owner). */
export const partKey = (topicId: number, accessorId: number | null): string => `topic-part:${topicId}|${accessorId ?? 0}`;

/** The key of one item rendered for `accessorId` (0: the owner). */
export const itemPartKey = (itemId: number, accessorId: number | null): string => `item-part:${itemId}|${accessorId ?? 0}`;

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
  const { profile, version, topics, stamps, items } = profileTree(row);
  if (!fitsInline(profile)) return spooledProfileDetail(ctx, access, profileId);
  const expiry = cache.expiryAt(ctx.clock.now());
  const read = new Map(items.map((row) => [row.id, row]));
  const stampsByTopic = new Map<number, ItemStamp[]>();
  for (const stamp of stamps) {
    const list = stampsByTopic.get(stamp.topic_id);
    if (list) list.push(stamp);
    else stampsByTopic.set(stamp.topic_id, [stamp]);
  }
  /** A changed topic, its items each from its part or serialised again; undefined when a part is not kept. */
  const topicPart = (topic: StampedTopicRow): Buffer | undefined => {
    const pieces: Buffer[] = [Buffer.from(`${open(serialise(reply, toTopic(ctx, topic, []), TopicSchema))}[`)];
    for (const [i, { id, rendered_version }] of (stampsByTopic.get(topic.id) ?? []).entries()) {
      const key = itemPartKey(id, access.accessorId);
      let piece: Buffer | undefined;
      if (rendered_version >= since) {
        const row = read.get(id);
        if (!row) throw new Error(`item ${id} is stamped as changed but was not read`);
        piece = keptUtf8(serialise(reply, toItem(ctx, access, row, row.entries), ITEM_SCHEMA));
        cache.setPart(key, rendered_version, expiry, piece);
      } else {
        piece = cache.part(key, rendered_version, expiry);
        if (piece === undefined) return undefined;
      }
      if (i > 0) pieces.push(COMMA);
      pieces.push(piece);
    }
    pieces.push(CLOSE_TOPIC);
    return keptJoin(pieces);
  };
  const parts: Buffer[] = [profileHead(ctx, cache, reply, profile)];
  for (const [i, topic] of topics.entries()) {
    const key = partKey(topic.id, access.accessorId);
    const check = `${topic.topic_type}:${topic.name}`;
    let part: Buffer | undefined;
    // At `since` too: profile-tree-query.ts says why.
    if (topic.rendered_version >= since) {
      part = topicPart(topic);
      if (part !== undefined) cache.setPart(key, topic.rendered_version, expiry, part, check);
    } else {
      part = cache.part(key, topic.rendered_version, expiry, check);
    }
    // Not kept (or renamed): read every item whole again (whose parts are then all made and kept).
    if (part === undefined) return renderProfileDetail(ctx, cache, reply, access, profileId, -1);
    if (i > 0) parts.push(COMMA);
    parts.push(part);
  }
  parts.push(CLOSE_DETAIL);
  return new Serialised(keptJoin(parts), version);
}

/** The detail's opening up to its topics (`…,"topics":[`), kept while the row reads what it was made from. */
function profileHead(ctx: AppContext, cache: RenderingCache, reply: FastifyReply, profile: ProfileRow): Buffer {
  const key = `profile-head:${profile.id}`;
  const check = `${profile.is_default}${profile.is_private}:${profile.name}`;
  let head = cache.part(key, 0, 0, check);
  if (head === undefined) {
    head = keptUtf8(`${open(String(reply.serialize(toProfileDetail(ctx, profile, []))))}[`);
    cache.setPart(key, 0, 0, head, check);
  }
  return head;
}

const COMMA = Buffer.from(',');
const CLOSE_TOPIC = Buffer.from(']}');
const CLOSE_DETAIL = Buffer.from(']}');
