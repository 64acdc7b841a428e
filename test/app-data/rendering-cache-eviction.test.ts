// The rendering cache's own bookkeeping: what it keeps within its byte budget, and what a
// stamp that no longer matches does. (rendering-cache.test.ts checks it through the API.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SPAN_BYTES } from '../../src/app-data/views/detail-layout.ts';
import { ENTRY_BYTES, RenderingCache } from '../../src/app-data/views/rendering-cache.ts';
import { loadConfig } from '../../src/config.ts';

const NOW = 1_800_000_000_000;
const body = (bytes: number) => Buffer.alloc(bytes, 'x');
const OWNER = { accessorId: 0, seen: null };
/** A budget with room for four bodies of 100 bytes. */
const ROOM = 4 * (100 + ENTRY_BYTES);
/** App user 7 at `dataVersion`. */
const v = (dataVersion: number, appUserId = 7) => ({ appUserId, dataVersion });

describe('rendering cache bookkeeping', () => {
  test('over its budget, the oldest entry goes unless it was read since eviction last passed it', () => {
    // Four bodies of 100 bytes, each with its entry's own cost.
    const cache = new RenderingCache(ROOM, 3_600_000);
    const stamp = cache.stamp(v(1), NOW);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, OWNER, stamp, body(100), '"t"');
    // The first eviction passes every entry once (each is new) and takes the oldest, a.
    cache.set('e', OWNER, stamp, body(100), '"t"');
    assert.equal(cache.get('a', stamp), undefined);
    // b, c, d and e lost their mark; a read gives c its mark back.
    assert.ok(cache.get('c', stamp));
    cache.set('f', OWNER, stamp, body(100), '"t"');
    cache.set('g', OWNER, stamp, body(100), '"t"');
    assert.equal(cache.get('b', stamp), undefined);
    assert.equal(cache.get('d', stamp), undefined);
    assert.ok(cache.get('c', stamp), 'the entry that was read stays');
    assert.equal(cache.size, 4);
  });

  test("an entry's own cost counts: a budget of two bodies' bytes keeps one of them", () => {
    const cache = new RenderingCache(2 * 100 + ENTRY_BYTES, 3_600_000);
    const stamp = cache.stamp(v(1), NOW);
    for (const key of ['a', 'b']) cache.set(key, OWNER, stamp, body(100), '"t"');
    assert.equal(cache.size, 1, 'two entries of 100 bytes cost more than 200 bytes and one entry');
    assert.ok(cache.get('b', stamp));
  });

  test('what it keeps holds no more memory than its bytes: a slice of a shared slab is copied out', () => {
    const cache = new RenderingCache(ROOM, 3_600_000);
    const stamp = cache.stamp(v(1), NOW);
    // A small Buffer.from is a slice of Node's shared pool; kept as it is, it would hold the pool.
    const slice = Buffer.from('{"id":1}');
    assert.ok(slice.buffer.byteLength > slice.byteLength, 'the test needs a pooled slice');
    cache.set('part', OWNER, stamp, slice, '"t"');
    const kept = cache.get('part', stamp)!.body;
    assert.deepEqual([kept.toString(), kept.buffer.byteLength], ['{"id":1}', 8]);
  });

  test("a profile detail's layout counts against the budget, each record SPAN_BYTES", () => {
    // The opening and one topic: two records.
    const layout = { headCheck: '', headEnd: 0, topics: [{ id: 1, version: 1, check: '', start: 0, end: 0, itemsStart: 0, items: [] }] };
    const withLayout = 100 + ENTRY_BYTES + 2 * SPAN_BYTES;
    const budget = 4 * withLayout;
    assert.ok(budget >= 5 * (100 + ENTRY_BYTES), 'room for five bodies without layouts');
    const plain = new RenderingCache(budget, 3_600_000);
    const detailed = new RenderingCache(budget, 3_600_000);
    const stamp = plain.stamp(v(1), NOW);
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      plain.set(key, OWNER, stamp, body(100), '"t"');
      detailed.set(key, OWNER, stamp, body(100), '"t"', layout);
    }
    assert.equal(plain.size, 5);
    assert.equal(detailed.size, 4);
    assert.deepEqual(detailed.kept('e')?.layout, layout);
  });

  test('a body over a quarter of the budget is not kept', () => {
    const cache = new RenderingCache(400, 3_600_000);
    const stamp = cache.stamp(v(1), NOW);
    cache.set('big', OWNER, stamp, body(101), '"t"');
    assert.equal(cache.get('big', stamp), undefined);
    assert.equal(cache.size, 0);
  });

  test("a budget of 0 keeps nothing: every read is a miss (RENDER_CACHE_BYTES=0, as in the bench's W1u)", () => {
    const cache = new RenderingCache(loadConfig({ RENDER_CACHE_BYTES: '0' }).renderCacheBytes, 3_600_000);
    const stamp = cache.stamp(v(1), NOW);
    cache.set('p', OWNER, stamp, body(1), '"t"');
    assert.equal(cache.get('p', stamp), undefined);
    assert.equal(cache.size, 0);
  });

  test('a newer data version or a later URL expiry is a miss, and the old entry is dropped', () => {
    const cache = new RenderingCache(ROOM, 3_600_000);
    cache.set('p', OWNER, cache.stamp(v(1), NOW), body(100), '"t"');
    assert.ok(cache.get('p', cache.stamp(v(1), NOW)));
    assert.equal(cache.get('p', cache.stamp(v(2), NOW)), undefined);
    assert.equal(cache.size, 0);
    cache.set('p', OWNER, cache.stamp(v(2), NOW), body(100), '"t"');
    assert.equal(cache.get('p', cache.stamp(v(2), NOW + 3_600_000)), undefined);
    assert.equal(cache.size, 0);
    assert.deepEqual(cache.counts, { hits: 1, misses: 2 });
  });

  test("another app user's stamp with the same data version is a miss, and the old entry is dropped", () => {
    const cache = new RenderingCache(ROOM, 3_600_000);
    cache.set('p', OWNER, cache.stamp(v(5), NOW), body(100), '"t"');
    assert.equal(cache.get('p', cache.stamp(v(5, 8), NOW)), undefined);
    assert.equal(cache.size, 0);
  });

  test('whom a rendering was made for is kept with it; a read without a stamp the caller may have drops it', () => {
    const cache = new RenderingCache(ROOM, 3_600_000);
    const stamp = cache.stamp(v(1), NOW);
    cache.set('p|8', { accessorId: 3, seen: { app_user_id: 5, in_private: 0, profile_id: null } }, stamp, body(100), '"t"');
    assert.deepEqual((({ accessorId, seen }) => ({ accessorId, seen }))(cache.kept('p|8')!), {
      accessorId: 3,
      seen: { app_user_id: 5, in_private: 0, profile_id: null },
    });
    assert.equal(cache.get('p|8', undefined), undefined);
    assert.equal(cache.kept('p|8'), undefined);
    assert.equal(cache.size, 0);
  });
});
