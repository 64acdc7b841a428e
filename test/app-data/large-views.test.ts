// The views of an app user beyond the inline bounds (src/app-data/views/tree-views.ts: more than 1,000
// items or 5,000 list entries) are written in pages into a spool file and sent from it. They
// must answer exactly what the same views answer when read whole: checked against each item's
// own GET, which always reads it whole.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { spoolLeftBehind } from '../helpers/spool.ts';
import { create, createOwner, insertMedia, type Owner } from './fixtures.ts';

const ENTRIES = Array.from({ length: 1000 }, (_, i) => ({ text: `entry ${i}` }));

describe('views of the largest app users, written in pages', () => {
  let server: TestServer;
  let owner: Owner;
  let profile: any;
  let topics: any[];
  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
    profile = await create(server, owner.token, `/app/users/${owner.appUserId}/profiles/`, { name: 'Big' });
    topics = [];
    for (const name of ['Lists', 'Empty', 'One']) {
      topics.push(await create(server, owner.token, `/app/profiles/${profile.id}/topics/`, { name, topic_type: 3 }));
    }
    // 6 × 1,000 entries: beyond the inline bound of 5,000; 40 more items: the topic spans two pages of 25.
    for (let i = 0; i < 6; i++)
      await create(server, owner.token, `/app/topics/${topics[0].id}/items/`, { name: `L${i}`, list_content: { entries: ENTRIES } });
    const media = await insertMedia(server, owner);
    for (let i = 0; i < 40; i++) {
      await create(server, owner.token, `/app/topics/${topics[0].id}/items/`, {
        name: `I${i}`,
        image_content: { description: `d${i}`, ...(i === 0 ? { image_resource: media } : {}) },
      });
    }
    await create(server, owner.token, `/app/topics/${topics[2].id}/items/`, { name: 'Only', list_content: { entries: [{ text: 'x' }] } });
  });
  after(() => server.close());

  /** `paged`: whether the answer must have been written in pages (sent as a stream: no Content-Length). */
  async function get(path: string, token = owner.token, paged = true) {
    const response = await server.request('GET', path, { token });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(response.headers.get('content-length') === null, paged, path);
    return response.body;
  }

  /** The topic as each of its items' own GET has it. */
  async function expectedTopic(topic: any) {
    const ids = (
      await server.server.ctx.db.kysely.selectFrom('items').select('id').where('topic_id', '=', topic.id).orderBy('id').execute()
    ).map((row) => row.id);
    const items = [];
    for (const id of ids) items.push(await get(`/app/items/${id}/`, owner.token, false));
    return { ...topic, items };
  }

  test("a topic's items, a topic, a profile's topics and a profile: the same as read whole", async () => {
    const expected = [];
    for (const topic of topics) expected.push(await expectedTopic(topic));
    assert.equal(expected[0].items.length, 46);
    assert.deepEqual(await get(`/app/topics/${topics[0].id}/items/`), expected[0].items);
    for (const [i, topic] of topics.entries()) assert.deepEqual(await get(`/app/topics/${topic.id}/`), expected[i]);
    assert.deepEqual(await get(`/app/profiles/${profile.id}/topics/`), expected);
    const fields = { ...profile, topics_url: `${PUBLIC_URL}/app/profiles/${profile.id}/topics/` };
    assert.deepEqual(await get(`/app/profiles/${profile.id}/`), { ...fields, topics: expected });

    const renamed = await server.request('PATCH', `/app/profiles/${profile.id}/`, { token: owner.token, body: { name: 'Renamed' } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.headers.get('content-length'), null);
    assert.deepEqual(renamed.body, { ...fields, name: 'Renamed', topics: expected });
    const topic = await server.request('PUT', `/app/topics/${topics[2].id}/`, { token: owner.token, body: { name: 'Uno', topic_type: 4 } });
    assert.equal(topic.status, 200, topic.text);
    assert.deepEqual(topic.body, { ...expected[2], name: 'Uno', topic_type: 4 });
  });

  test('many at once: every one answered in full (they take turns to read)', async () => {
    const path = `/app/topics/${topics[0].id}/items/`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => server.request('GET', path, { token: owner.token })));
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(answer.text, answers[0]!.text);
    }
  });

  test("someone else's ids are 404, and nothing is written for them", async () => {
    const stranger = await createOwner(server);
    for (const path of [
      `/app/topics/${topics[0].id}/items/`,
      `/app/topics/${topics[0].id}/`,
      `/app/profiles/${profile.id}/topics/`,
      `/app/profiles/${profile.id}/`,
    ]) {
      assert.equal((await server.request('GET', path, { token: stranger.token })).status, 404, path);
    }
  });

  test('no spool file stays behind, the view read to the end or abandoned', async () => {
    const abandoned = new AbortController();
    const response = await fetch(`${server.url}/app/profiles/${profile.id}/`, {
      headers: { authorization: `Token ${owner.token}` },
      signal: abandoned.signal,
    });
    assert.equal(response.status, 200);
    abandoned.abort();
    await get(`/app/topics/${topics[0].id}/`);
    assert.deepEqual(await spoolLeftBehind(server), []);
  });

  test('an app user within the bounds has its views read whole', async () => {
    const other = await createOwner(server);
    const small = await create(server, other.token, `/app/users/${other.appUserId}/profiles/`, { name: 'Small' });
    const topic = await create(server, other.token, `/app/profiles/${small.id}/topics/`, { name: 'T', topic_type: 3 });
    await create(server, other.token, `/app/topics/${topic.id}/items/`, { name: 'L', list_content: { entries: ENTRIES } });
    for (const path of [
      `/app/topics/${topic.id}/items/`,
      `/app/topics/${topic.id}/`,
      `/app/profiles/${small.id}/topics/`,
      `/app/profiles/${small.id}/`,
    ]) {
      await get(path, other.token, false);
    }
  });
});
