// The abuse limits' counter stores: in memory, and in the suite's own database (SQLite file or
// PostgreSQL), held to the same behaviour — windows, starting over, taking back, forgetting,
// and no count lost when many are made at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type CounterStore, limit, MemoryCounterStore } from '../../src/auth/counter-store.ts';
import { deleteEndedCounters, SqlCounterStore } from '../../src/auth/sql-counter-store.ts';
import type { Db } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

const MINUTE = { key: 'k', windowMs: 60_000 };

function behavesAsCounters(name: string, makeStore: () => CounterStore) {
  describe(name, () => {
    test('counts per key in a fixed window, then starts over', async () => {
      const store = makeStore();
      assert.deepEqual(await store.increment([MINUTE, { key: 'other', windowMs: 1000 }], 0), [
        { key: 'k', count: 1, resetAt: 60_000 },
        { key: 'other', count: 1, resetAt: 1000 },
      ]);
      assert.deepEqual(await store.increment([MINUTE], 59_999), [{ key: 'k', count: 2, resetAt: 60_000 }]);
      assert.deepEqual(await store.increment([MINUTE], 60_000), [{ key: 'k', count: 1, resetAt: 120_000 }]);
    });

    test('release takes one back from some keys and forgets others; never below zero', async () => {
      const store = makeStore();
      for (let i = 0; i < 3; i++)
        await store.increment(
          [
            { key: 'a', windowMs: 60_000 },
            { key: 'b', windowMs: 60_000 },
          ],
          10,
        );
      await store.release(['a'], ['b'], 20);
      const counts = await store.increment(
        [
          { key: 'a', windowMs: 60_000 },
          { key: 'b', windowMs: 60_000 },
        ],
        30,
      );
      assert.deepEqual(
        counts.map((c) => [c.key, c.count]),
        [
          ['a', 3],
          ['b', 1],
        ],
      );
      await store.release(['lonely'], [], 40);
      assert.equal((await store.increment([{ key: 'lonely', windowMs: 60_000 }], 50))[0]!.count, 1);
    });

    test('limit(): within the limit 0; over it, the time until the window ends', async () => {
      const store = makeStore();
      const twoPerMinute = { max: 2, windowMs: 60_000 };
      assert.equal(await limit(store, [{ key: 'x', limit: twoPerMinute }], 1000), 0);
      assert.equal(await limit(store, [{ key: 'x', limit: twoPerMinute }], 2000), 0);
      assert.equal(await limit(store, [{ key: 'x', limit: twoPerMinute }], 3000), 58_000);
      assert.equal(await limit(store, [{ key: 'x', limit: twoPerMinute }], 61_000), 0);
    });

    test("read: the open window's count, counting nothing", async () => {
      const store = makeStore();
      assert.equal(await store.read('r', 0), undefined);
      await store.increment([{ key: 'r', windowMs: 1000 }], 0);
      await store.increment([{ key: 'r', windowMs: 1000 }], 1);
      assert.deepEqual(await store.read('r', 2), { key: 'r', count: 2, resetAt: 1000 });
      assert.deepEqual(await store.read('r', 3), { key: 'r', count: 2, resetAt: 1000 });
      assert.equal(await store.read('r', 1000), undefined, 'the window is over');
    });

    test('many counts at once: none lost', async () => {
      const store = makeStore();
      await Promise.all(Array.from({ length: 40 }, () => store.increment([{ key: 'busy', windowMs: 60_000 }], 5)));
      assert.equal((await store.increment([{ key: 'busy', windowMs: 60_000 }], 6))[0]!.count, 41);
    });
  });
}

describe('in memory, a full table', () => {
  const minute = (key: string, max: number) => ({ key, windowMs: 60_000, max });

  test('never drops a window at its limit to make room: a flood of new keys forgets no lock', async () => {
    const store = new MemoryCounterStore(3);
    for (let i = 0; i < 2; i++) await store.increment([minute('locked', 2)], 0);
    for (let i = 0; i < 1000; i++) await store.increment([minute(`flood-${i}`, 5)], 1 + i);
    assert.deepEqual(await store.read('locked', 2000), { key: 'locked', count: 2, resetAt: 60_000 });
    assert.equal(store.size, 3);
    assert.equal(await limit(store, [{ key: 'locked', limit: { max: 2, windowMs: 60_000 } }], 2001), 57_999);
  });

  test('full of windows at their limits, refuses a new key as over any limit until the first of them ends', async () => {
    const store = new MemoryCounterStore(2);
    await store.increment([minute('a', 1)], 0);
    await store.increment([minute('b', 1)], 10);
    const [refused] = await store.increment([minute('c', 1)], 20);
    assert.ok(refused!.count > Number.MAX_SAFE_INTEGER - 1);
    assert.equal(refused!.resetAt, 60_000);
    assert.equal(await limit(store, [{ key: 'd', limit: { max: 100, windowMs: 60_000 } }], 30), 59_970, 'whatever its limit');
    assert.equal(store.size, 2);
    assert.equal((await store.read('a', 40))?.count, 1);
    assert.deepEqual(await store.increment([minute('c', 1)], 60_000), [{ key: 'c', count: 1, resetAt: 120_000 }]);
    assert.equal(await store.read('a', 60_000), undefined);
    assert.equal((await store.read('b', 60_000))?.count, 1, 'b still runs');
  });

  test('a window taken back below its limit may go again', async () => {
    const store = new MemoryCounterStore(1);
    await store.increment([minute('a', 1)], 0);
    assert.ok((await store.increment([minute('b', 1)], 1))[0]!.count > 1);
    await store.release(['a'], [], 2);
    assert.equal((await store.increment([minute('b', 1)], 3))[0]!.count, 1);
    assert.equal(await store.read('a', 4), undefined);
  });
});

describe('counter stores', () => {
  let database: TestDatabase;
  let db: Db;
  let run = 0;
  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
  });
  after(async () => {
    await db.close();
    await database.drop();
  });

  behavesAsCounters('in memory', () => new MemoryCounterStore());
  behavesAsCounters(`in the database (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
    // Each test gets keys of its own in the shared table.
    const prefix = `t${run++}:`;
    const store = new SqlCounterStore(db.kysely);
    const named = <T extends { key: string }>(keys: T[]) => keys.map((k) => ({ ...k, key: prefix + k.key }));
    const unnamed = <T extends { key: string }>(counts: T[]) => counts.map((c) => ({ ...c, key: c.key.slice(prefix.length) }));
    return {
      increment: async (keys, now) => unnamed(await store.increment(named(keys), now)),
      read: async (key, now) => {
        const count = await store.read(prefix + key, now);
        return count && { ...count, key };
      },
      release: (decrement, reset, now) =>
        store.release(
          decrement.map((k) => prefix + k),
          reset.map((k) => prefix + k),
          now,
        ),
    };
  });

  test('ended windows are swept from the table', async () => {
    const store = new SqlCounterStore(db.kysely);
    await store.increment(
      [
        { key: 'sweep:old', windowMs: 1000 },
        { key: 'sweep:live', windowMs: 10_000_000 },
      ],
      0,
    );
    assert.ok((await deleteEndedCounters(db.kysely, 5000)) >= 1);
    const names = (await db.kysely.selectFrom('rate_counters').select('name').execute()).map((row) => row.name);
    assert.ok(!names.includes('sweep:old'));
    assert.ok(names.includes('sweep:live'));
  });
});
