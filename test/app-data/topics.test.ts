import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic } from './fixtures.ts';

describe('topics', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('GET /app/topic-types/ lists 3 (text) and 4 (visual)', async () => {
    const owner = await createOwner(server);
    const response = await server.request('GET', '/app/topic-types/', { token: owner.token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [
      { id: 3, label: 'text topic' },
      { id: 4, label: 'visual topic' },
    ]);
  });

  test('POST creates a topic: 201, Location, items_url, empty items; GET lists them by id, items in full', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const response = await server.request('POST', `/app/profiles/${profile.id}/topics/`, {
      token: owner.token,
      body: { name: 'Food', topic_type: 4 },
    });
    assert.equal(response.status, 201, response.text);
    const id = response.body.id;
    assert.deepEqual(response.body, {
      id,
      url: `${PUBLIC_URL}/app/topics/${id}/`,
      name: 'Food',
      topic_type: 4,
      items_url: `${PUBLIC_URL}/app/topics/${id}/items/`,
      items: [],
    });
    assert.equal(response.headers.get('location'), response.body.url);

    const second = await createTopic(server, owner, profile.id, { name: 'Music' });
    const item = await createListItem(server, owner, second.id);
    const list = await server.request('GET', `/app/profiles/${profile.id}/topics/`, { token: owner.token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, [response.body, { ...second, items: [item] }]);
  });

  test('topic_type must be 3 or 4; name is required, not blank, at most 255', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const path = `/app/profiles/${profile.id}/topics/`;
    const cases: Array<[object, string[]]> = [
      [{ name: 'A', topic_type: 1 }, ['topic_type']],
      [{ name: 'A', topic_type: 5 }, ['topic_type']],
      [{ name: 'A', topic_type: '3' }, ['topic_type']],
      [{ name: 'A', topic_type: 3.5 }, ['topic_type']],
      [{ name: 'A', topic_type: null }, ['topic_type']],
      [{ name: 'A' }, ['topic_type']],
      [{ topic_type: 3 }, ['name']],
      [{ name: '', topic_type: 3 }, ['name']],
      [{ name: 'x'.repeat(256), topic_type: 3 }, ['name']],
      [{}, ['name', 'topic_type']],
    ];
    for (const [body, fields] of cases) {
      const response = await server.request('POST', path, { token: owner.token, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body).sort(), fields, JSON.stringify(response.body));
    }
    const five = await server.request('POST', path, { token: owner.token, body: { name: 'A', topic_type: 5 } });
    assert.deepEqual(five.body, { topic_type: ['"5" is not a valid choice.'] });
    assert.deepEqual((await server.request('GET', path, { token: owner.token })).body, []);
  });

  test('GET /app/topics/{id}/ has the items in full; PATCH changes name and type; PUT needs both', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const list = await createListItem(server, owner, topic.id);
    const image = await createImageItem(server, owner, topic.id);
    const path = `/app/topics/${topic.id}/`;

    const detail = await server.request('GET', path, { token: owner.token });
    assert.equal(detail.status, 200);
    assert.deepEqual(detail.body, { ...topic, items: [list, image] });

    const patched = await server.request('PATCH', path, { token: owner.token, body: { topic_type: 4 } });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.topic_type, 4);
    assert.equal(patched.body.name, topic.name);
    assert.equal(patched.body.items.length, 2);

    const refused = await server.request('PATCH', path, { token: owner.token, body: { topic_type: 9 } });
    assert.equal(refused.status, 400);
    assert.ok(refused.body.topic_type);

    const putWithout = await server.request('PUT', path, { token: owner.token, body: { name: 'Only name' } });
    assert.equal(putWithout.status, 400);
    assert.deepEqual(Object.keys(putWithout.body), ['topic_type']);
    const put = await server.request('PUT', path, { token: owner.token, body: { name: 'Both', topic_type: 3 } });
    assert.equal(put.status, 200);
    assert.deepEqual([put.body.name, put.body.topic_type], ['Both', 3]);
  });

  test('lists and creates under a missing profile are 404', async () => {
    const owner = await createOwner(server);
    for (const method of ['GET', 'POST']) {
      const response = await server.request(method, '/app/profiles/424242/topics/', {
        token: owner.token,
        body: method === 'POST' ? { name: 'A', topic_type: 3 } : undefined,
      });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
  });

  test('DELETE removes the topic with its items and their entries', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const other = await createTopic(server, owner, profile.id, { name: 'Other' });
    const item = await createListItem(server, owner, topic.id, ['a', 'b']);
    const response = await server.request('DELETE', `/app/topics/${topic.id}/`, { token: owner.token });
    assert.equal(response.status, 204);
    assert.equal((await server.request('GET', `/app/topics/${topic.id}/`, { token: owner.token })).status, 404);
    assert.equal((await server.request('GET', `/app/items/${item.id}/`, { token: owner.token })).status, 404);
    const entries = await server.server.ctx.db.kysely
      .selectFrom('list_entries')
      .select('id')
      .where(
        'id',
        'in',
        item.list_content.entries.map((e: { id: number }) => e.id),
      )
      .execute();
    assert.deepEqual(entries, []);
    const remaining = await server.request('GET', `/app/profiles/${profile.id}/topics/`, { token: owner.token });
    assert.deepEqual(
      remaining.body.map((t: { id: number }) => t.id),
      [other.id],
    );
  });
});
