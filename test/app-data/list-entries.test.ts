import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic, type Owner } from './fixtures.ts';

describe('list entries', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function listItem(texts: string[] = ['first']): Promise<{ owner: Owner; item: any; topicId: number }> {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    return { owner, item: await createListItem(server, owner, topic.id, texts), topicId: topic.id };
  }

  test("GET lists a list item's entries by id; POST appends one: 201 + Location", async () => {
    const { owner, item } = await listItem(['first', 'second']);
    const path = `/app/items/${item.id}/list-entries/`;
    const listed = await server.request('GET', path, { token: owner.token });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body, item.list_content.entries);

    const created = await server.request('POST', path, { token: owner.token, body: { text: ' third ' } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id;
    assert.deepEqual(created.body, { id, url: `${PUBLIC_URL}/app/list-entries/${id}/`, text: 'third' });
    assert.equal(created.headers.get('location'), created.body.url);
    const after = await server.request('GET', path, { token: owner.token });
    assert.deepEqual(
      after.body.map((e: { text: string }) => e.text),
      ['first', 'second', 'third'],
    );
    const itemView = await server.request('GET', `/app/items/${item.id}/`, { token: owner.token });
    assert.deepEqual(itemView.body.list_content.entries, after.body);
  });

  test('text is required, not blank, at most 255 characters, a string', async () => {
    const { owner, item } = await listItem();
    const path = `/app/items/${item.id}/list-entries/`;
    for (const body of [{}, { text: '' }, { text: '  ' }, { text: 'x'.repeat(256) }, { text: 12 }, { text: null }]) {
      const response = await server.request('POST', path, { token: owner.token, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body), ['text']);
    }
    const longest = await server.request('POST', path, { token: owner.token, body: { text: 'x'.repeat(255) } });
    assert.equal(longest.status, 201);
  });

  test('an image item has no list: its list-entries collection is 404', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const image = await createImageItem(server, owner, topic.id);
    for (const method of ['GET', 'POST']) {
      const response = await server.request(method, `/app/items/${image.id}/list-entries/`, {
        token: owner.token,
        body: method === 'POST' ? { text: 'a' } : undefined,
      });
      assert.equal(response.status, 404, method);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
    const missing = await server.request('GET', '/app/items/55555/list-entries/', { token: owner.token });
    assert.equal(missing.status, 404);
  });

  test('detail: GET, PATCH, PUT (text required), DELETE', async () => {
    const { owner, item } = await listItem(['one', 'two']);
    const [entry, other] = item.list_content.entries;
    const path = `/app/list-entries/${entry.id}/`;
    assert.deepEqual((await server.request('GET', path, { token: owner.token })).body, entry);

    const patched = await server.request('PATCH', path, { token: owner.token, body: { text: 'uno' } });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body, { ...entry, text: 'uno' });
    const noop = await server.request('PATCH', path, { token: owner.token, body: {} });
    assert.deepEqual(noop.body, patched.body);

    const putWithout = await server.request('PUT', path, { token: owner.token, body: {} });
    assert.equal(putWithout.status, 400);
    assert.deepEqual(putWithout.body, { text: ['This field is required.'] });
    const blank = await server.request('PATCH', path, { token: owner.token, body: { text: '' } });
    assert.deepEqual(blank.body, { text: ['This field may not be blank.'] });
    const put = await server.request('PUT', path, { token: owner.token, body: { text: 'eins' } });
    assert.equal(put.body.text, 'eins');

    assert.equal((await server.request('DELETE', path, { token: owner.token })).status, 204);
    assert.equal((await server.request('GET', path, { token: owner.token })).status, 404);
    const remaining = await server.request('GET', `/app/items/${item.id}/list-entries/`, { token: owner.token });
    assert.deepEqual(remaining.body, [other]);
  });
});
