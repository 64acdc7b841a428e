// The profile tree is read with a fixed number of queries whatever its size (no query per row).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, stopBackgroundWork, type TestServer } from '../helpers/server.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic, insertMedia, type Owner } from './fixtures.ts';

interface Tree {
  profileId: number;
  topicId: number;
  itemId: number;
}

describe('query counts', () => {
  let server: TestServer;
  let owner: Owner;
  let small: Tree;
  let large: Tree;

  async function buildTree(topics: number, itemsPerTopic: number, entriesPerItem: number): Promise<Tree> {
    const profile = await createProfile(server, owner);
    let first: Tree | undefined;
    for (let t = 0; t < topics; t++) {
      const topic = await createTopic(server, owner, profile.id, { name: `Topic ${t}`, topic_type: t % 2 === 0 ? 3 : 4 });
      for (let i = 0; i < itemsPerTopic; i++) {
        const item =
          i % 2 === 0
            ? await createListItem(
                server,
                owner,
                topic.id,
                Array.from({ length: entriesPerItem }, (_, e) => `entry ${e}`),
              )
            : await createImageItem(server, owner, topic.id, {
                image_resource: await insertMedia(server, owner),
                media_resource: await insertMedia(server, owner),
              });
        first ??= { profileId: profile.id, topicId: topic.id, itemId: item.id };
      }
    }
    return first!;
  }

  before(async () => {
    server = await startTestServer();
    // No background queries: every query counted below is the request's own.
    await stopBackgroundWork(server);
    owner = await createOwner(server);
    small = await buildTree(1, 2, 1);
    large = await buildTree(5, 6, 8);
  });
  after(() => server.close());

  async function queriesFor(path: string): Promise<{ count: number; body: any }> {
    // The token check and the data version first (on SQLite both are kept in memory once read;
    // a missing profile reads the version, then finds nothing), so that only the view's own queries differ.
    assert.equal((await server.request('GET', '/app/profiles/2147483647/', { token: owner.token })).status, 404);
    const stats = server.server.ctx.db.stats;
    const before = stats.queries;
    const response = await server.request('GET', path, { token: owner.token });
    assert.equal(response.status, 200, response.text);
    return { count: stats.queries - before, body: response.body };
  }

  test('GET /app/profiles/{id}/: the same number of queries for a small and a large profile', async () => {
    const smallRun = await queriesFor(`/app/profiles/${small.profileId}/`);
    const largeRun = await queriesFor(`/app/profiles/${large.profileId}/`);
    assert.equal(smallRun.body.topics.length, 1);
    assert.equal(largeRun.body.topics.length, 5);
    const items = largeRun.body.topics.flatMap((t: any) => t.items);
    assert.equal(items.length, 30);
    assert.equal(items.filter((i: any) => i.list_content?.entries.length === 8).length, 15);
    assert.equal(items.filter((i: any) => i.image_content?.image_resource && i.image_content?.media_resource).length, 15);
    assert.equal(largeRun.count, smallRun.count, `small: ${smallRun.count} queries, large: ${largeRun.count}`);
    // Not cached yet: the view is read from the database (and the counter counts).
    assert.ok(smallRun.count >= 1 && smallRun.count <= 6, `${smallRun.count} queries`);
  });

  test('topic lists, topic details and item lists: the same number of queries whatever their size', async () => {
    for (const path of [
      (tree: Tree) => `/app/profiles/${tree.profileId}/topics/`,
      (tree: Tree) => `/app/topics/${tree.topicId}/`,
      (tree: Tree) => `/app/topics/${tree.topicId}/items/`,
      (tree: Tree) => `/app/items/${tree.itemId}/`,
    ]) {
      const smallRun = await queriesFor(path(small));
      const largeRun = await queriesFor(path(large));
      assert.equal(largeRun.count, smallRun.count, `${path(large)}: small ${smallRun.count}, large ${largeRun.count}`);
    }
  });

  test("a write leaves its writer's token in memory (SQLite): the next request does not look it up again", {
    skip: onPostgres && 'SQLite only: PostgreSQL keeps nothing in memory',
  }, async () => {
    const stats = server.server.ctx.db.stats;
    const countFor = async (path: string) => {
      const before = stats.queries;
      assert.equal((await server.request('GET', path, { token: owner.token })).status, 200);
      return stats.queries - before;
    };
    await countFor('/account/profile/');
    const afterRead = await countFor('/account/profile/');
    await createListItem(server, owner, small.topicId, ['one more']);
    assert.equal(await countFor('/account/profile/'), afterRead);
  });

  test("PostgreSQL: a list item create is one statement, as many queries as a missing topic's lookup", {
    skip: !onPostgres && 'PostgreSQL only: SQLite writes in-process, in a transaction',
  }, async () => {
    const stats = server.server.ctx.db.stats;
    const countFor = async (method: string, path: string, expected: number, body?: unknown) => {
      const before = stats.queries;
      const response = await server.request(method, path, { token: owner.token, body });
      assert.equal(response.status, expected, response.text);
      return stats.queries - before;
    };
    const lookup = await countFor('GET', '/app/topics/2147483647/items/', 404);
    const create = await countFor('POST', `/app/topics/${small.topicId}/items/`, 201, {
      name: 'one call',
      list_content: { entries: [{ text: 'a' }, { text: 'b' }] },
    });
    assert.equal(create, lookup);
  });

  test('the profile detail lists topics, items and entries in id order', async () => {
    const { body } = await queriesFor(`/app/profiles/${large.profileId}/`);
    const ids = (list: Array<{ id: number }>) => list.map((x) => x.id);
    const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
    assert.deepEqual(ids(body.topics), sorted(ids(body.topics)));
    for (const topic of body.topics) {
      assert.deepEqual(ids(topic.items), sorted(ids(topic.items)));
      for (const item of topic.items) {
        if (item.list_content) assert.deepEqual(ids(item.list_content.entries), sorted(ids(item.list_content.entries)));
      }
    }
  });
});
