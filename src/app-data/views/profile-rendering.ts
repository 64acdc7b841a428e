// A profile's detail on a rendering-cache miss, assembled with the detail kept before it
// (rendering-cache.ts) when there is one: one statement reads the profile, all its topics with
// their stamps (rendered_version, migration 0034), the items of the topics stamped at or after
// the kept detail's data version (`since`) with their own stamps (migration 0043), and whole only
// the items stamped at or after it. The new body is written once: what did not change is copied
// out of the kept body (detail-layout.ts says where each topic and item lies in it), and only
// the changed items are serialised again. A read after a one-entry write thus reads, maps and
// serialises one item, not the profile's fifty. What is copied is exact: a topic's or an item's
// stamp moves with every change to what its items show, in the change's own transaction; a
// topic's head and the profile's opening are checked against what their rows read now (their
// stamps do not cover them). The kept detail serves only a detail for the same viewer (its media
// URLs are signed for them) in the same expiry step of those URLs; otherwise, or when what the
// statement says is unchanged is not in it, every item is read whole (`since` -1). What differs
// per caller but is not in the bytes (the decision whether the caller sees the profile at all,
// private profiles included) is made before this runs, once, by sendRendering.
//
// With the cache off (RENDER_CACHE_BYTES=0), the detail is loaded as it always was.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Access } from '../kernel/access.ts';
import { type ProfileDetail, toProfileDetail } from '../profile-schemas.ts';
import { TopicSchema, toTopic } from '../topic-schemas.ts';
import { toItem } from '../item-schemas.ts';
import { Assembly, type DetailLayout, type ItemSpan, type TopicSpan } from './detail-layout.ts';
import { loadProfileDetail, spooledProfileDetail } from './profile-detail.ts';
import { type ItemStamp, profileTree, readProfileTree, type StampedTopicRow, type TreeItemRow } from './profile-tree-query.ts';
import { type KeptRendering, type RenderingCache, Serialised } from './rendering-cache.ts';
import { fitsInline } from './tree-views.ts';

/** The schema of one item of a topic's items, as the detail's own schema holds it (the same serialiser). */
const ITEM_SCHEMA = TopicSchema.properties.items.items;

/** `value` through the route's serialiser compiler with `schema` (compiled once per route). */
function serialise(reply: FastifyReply, value: unknown, schema: object): string {
  return reply.serializeInput(value as Record<string, unknown>, schema as Record<string, unknown>);
}

/** `json` (an object serialised with an empty array as its last member) without that `[]}`. */
function open(json: string): string {
  if (!json.endsWith('[]}')) throw new Error('a rendering to assemble must end with an empty array');
  return json.slice(0, -3);
}

/** What a miss after a write has to go on: the stamps and rows the statement read, and the kept detail. */
interface Changes {
  since: number;
  kept: KeptRendering & { layout: DetailLayout };
  /** The kept detail's topics by id. */
  keptTopics: Map<number, TopicSpan>;
  stampsByTopic: Map<number, ItemStamp[]>;
  read: Map<number, TreeItemRow>;
}

/**
 * The detail of the profile `profileId`, serialised (through the route's serialisers on `reply`),
 * copying out of `kept` (the detail kept for this caller, if any) what did not change since it
 * was made; undefined when the account holds no such profile; a stream when it is too large to
 * render whole.
 */
export async function renderProfileDetail(
  ctx: AppContext,
  cache: RenderingCache,
  reply: FastifyReply,
  access: Access,
  profileId: number,
  kept: KeptRendering | undefined,
): Promise<ProfileDetail | Serialised | Readable | undefined> {
  if (!cache.enabled) return loadProfileDetail(ctx, access, profileId);
  const expiry = cache.expiryAt(ctx.clock.now());
  const usable =
    kept?.layout !== undefined && kept.accessorId === (access.accessorId ?? 0) && kept.expiry === expiry
      ? (kept as Changes['kept'])
      : undefined;
  const since = usable ? usable.dataVersion : -1;
  const row = await readProfileTree(ctx.db, access.accountId, profileId, since);
  if (!row) return undefined;
  const { profile, version, topics, stamps, items } = profileTree(row);
  if (!fitsInline(profile)) return spooledProfileDetail(ctx, access, profileId);
  const stampsByTopic = new Map<number, ItemStamp[]>();
  for (const stamp of stamps) {
    const list = stampsByTopic.get(stamp.topic_id);
    if (list) list.push(stamp);
    else stampsByTopic.set(stamp.topic_id, [stamp]);
  }
  const read = new Map(items.map((item) => [item.id, item]));
  const changes = usable && {
    since,
    kept: usable,
    keptTopics: new Map(usable.layout.topics.map((topic) => [topic.id, topic])),
    stampsByTopic,
    read,
  };

  const out = new Assembly();
  const headCheck = `${profile.is_default}${profile.is_private}:${profile.name}`;
  if (changes && changes.kept.layout.headCheck === headCheck) out.add(changes.kept.body, 0, changes.kept.layout.headEnd);
  else out.add(Buffer.from(`${open(String(reply.serialize(toProfileDetail(ctx, profile, []))))}[`));
  const headEnd = out.length;
  const spans: TopicSpan[] = [];
  for (const [i, topic] of topics.entries()) {
    if (i > 0) out.punctuation(COMMA);
    const span = changes
      ? assembleTopic(ctx, reply, access, out, topic, changes)
      : writeTopic(ctx, reply, access, out, topic, stampsByTopic.get(topic.id) ?? [], read);
    // Not in the kept detail as the statement says it is: read every item whole instead.
    if (span === undefined) return renderProfileDetail(ctx, cache, reply, access, profileId, undefined);
    spans.push(span);
  }
  out.punctuation(CLOSE_DETAIL);
  return new Serialised(out.join(), version, { headCheck, headEnd, topics: spans });
}

/** The topic's head (`{…,"items":[`), serialised. */
function topicHead(ctx: AppContext, reply: FastifyReply, topic: StampedTopicRow): Buffer {
  return Buffer.from(`${open(serialise(reply, toTopic(ctx, topic, []), TopicSchema))}[`);
}

const topicCheck = (topic: StampedTopicRow): string => `${topic.topic_type}:${topic.name}`;

/** The topic written whole: its head and every item serialised (`read` holds them all). */
function writeTopic(
  ctx: AppContext,
  reply: FastifyReply,
  access: Access,
  out: Assembly,
  topic: StampedTopicRow,
  stamps: readonly ItemStamp[],
  read: Map<number, TreeItemRow>,
): TopicSpan {
  const start = out.length;
  out.add(topicHead(ctx, reply, topic));
  const itemsStart = out.length - start;
  const items: ItemSpan[] = [];
  for (const [j, stamp] of stamps.entries()) {
    if (j > 0) out.punctuation(COMMA);
    items.push(writeItem(ctx, reply, access, out, start, stamp, read));
  }
  out.punctuation(CLOSE_TOPIC);
  return { id: topic.id, version: topic.rendered_version, check: topicCheck(topic), start, end: out.length, itemsStart, items };
}

/** The item `stamp` names, serialised from its row; its offsets from `topicStart`. */
function writeItem(
  ctx: AppContext,
  reply: FastifyReply,
  access: Access,
  out: Assembly,
  topicStart: number,
  stamp: ItemStamp,
  read: Map<number, TreeItemRow>,
): ItemSpan {
  const row = read.get(stamp.id);
  if (!row) throw new Error(`item ${stamp.id} is stamped as changed but was not read`);
  const start = out.length - topicStart;
  out.add(Buffer.from(serialise(reply, toItem(ctx, access, row, row.entries), ITEM_SCHEMA)));
  return { id: stamp.id, version: stamp.rendered_version, start, end: out.length - topicStart };
}

/**
 * The topic with what did not change copied from its place in the kept detail; undefined when
 * something the statement says is unchanged is not there.
 */
function assembleTopic(
  ctx: AppContext,
  reply: FastifyReply,
  access: Access,
  out: Assembly,
  topic: StampedTopicRow,
  { since, kept, keptTopics, stampsByTopic, read }: Changes,
): TopicSpan | undefined {
  const was = keptTopics.get(topic.id);
  const start = out.length;
  const check = topicCheck(topic);
  const body = kept.body;
  // At `since` too: profile-tree-query.ts says why.
  if (topic.rendered_version < since) {
    if (was === undefined || was.version !== topic.rendered_version) return undefined;
    if (was.check === check) {
      out.add(body, was.start, was.end);
      return { ...was, start, end: out.length };
    }
    // Renamed: a new head before the same items, each further along by what the head grew.
    out.add(topicHead(ctx, reply, topic));
    const itemsStart = out.length - start;
    out.add(body, was.start + was.itemsStart, was.end);
    const shift = itemsStart - was.itemsStart;
    const items = was.items.map((item) => ({ ...item, start: item.start + shift, end: item.end + shift }));
    return { id: topic.id, version: topic.rendered_version, check, start, end: out.length, itemsStart, items };
  }
  const stamps = stampsByTopic.get(topic.id) ?? [];
  if (was === undefined) {
    // New since the kept detail: all its items should be too.
    return stamps.every((stamp) => stamp.rendered_version >= since) ? writeTopic(ctx, reply, access, out, topic, stamps, read) : undefined;
  }
  if (was.check === check) out.add(body, was.start, was.start + was.itemsStart);
  else out.add(topicHead(ctx, reply, topic));
  const itemsStart = out.length - start;
  const items: ItemSpan[] = [];
  let k = 0;
  for (const [j, stamp] of stamps.entries()) {
    if (j > 0) out.punctuation(COMMA);
    if (stamp.rendered_version >= since) {
      items.push(writeItem(ctx, reply, access, out, start, stamp, read));
      continue;
    }
    // Both in id order: the kept item, if it is there, is at or after the last one found.
    while (k < was.items.length && was.items[k]!.id < stamp.id) k++;
    const item = was.items[k];
    if (item === undefined || item.id !== stamp.id || item.version !== stamp.rendered_version) return undefined;
    const from = out.length - start;
    out.add(body, was.start + item.start, was.start + item.end);
    items.push({ id: item.id, version: item.version, start: from, end: out.length - start });
  }
  out.punctuation(CLOSE_TOPIC);
  return { id: topic.id, version: topic.rendered_version, check, start, end: out.length, itemsStart, items };
}

const COMMA = Buffer.from(',');
const CLOSE_TOPIC = Buffer.from(']}');
const CLOSE_DETAIL = Buffer.from(']}');
