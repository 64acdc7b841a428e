// Bad input of every kind gets a 4xx with a JSON body, never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic, pathOf, type Owner } from './fixtures.ts';

describe('bad input on the personal-data endpoints', () => {
  let server: TestServer;
  let owner: Owner;
  let writes: Array<[string, string]>;

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const list = await createListItem(server, owner, topic.id);
    const image = await createImageItem(server, owner, topic.id);
    const emergency = await server.request('POST', `/app/users/${owner.appUserId}/emergency-items/`, {
      token: owner.token,
      body: { name: 'E' },
    });
    const contact = await server.request('POST', `/app/users/${owner.appUserId}/emergency-contacts/`, {
      token: owner.token,
      body: { name: 'C', phone_number: '123456789' },
    });
    writes = [
      ['POST', '/app/users/'],
      ['PATCH', `/app/users/${owner.appUserId}/`],
      ['POST', `/app/users/${owner.appUserId}/profiles/`],
      ['PATCH', pathOf(profile.url)],
      ['PUT', pathOf(profile.url)],
      ['POST', `/app/profiles/${profile.id}/topics/`],
      ['PATCH', pathOf(topic.url)],
      ['POST', `/app/topics/${topic.id}/items/`],
      ['PATCH', pathOf(list.url)],
      ['PATCH', pathOf(image.url)],
      ['POST', `/app/items/${list.id}/list-entries/`],
      ['PATCH', pathOf(list.list_content.entries[0].url)],
      ['POST', `/app/users/${owner.appUserId}/emergency-items/`],
      ['PATCH', pathOf(emergency.body.url)],
      ['POST', `/app/users/${owner.appUserId}/emergency-contacts/`],
      ['PATCH', pathOf(contact.body.url)],
    ];
  });
  after(() => server.close());

  const wrongTypes = {
    name: 12,
    quote: { a: 1 },
    is_default: 'true',
    topic_type: '3',
    text: ['x'],
    description: 5,
    relation: true,
    phone_number: 123456789,
    alt_phone_number: 1,
    email: 7,
    media_resource: '1',
    image_content: 'img',
    list_content: [1],
  };
  const tooLong = {
    name: 'n'.repeat(256),
    quote: 'q'.repeat(10_001),
    text: 't'.repeat(256),
    description: 'd'.repeat(10_001),
    relation: 'r'.repeat(256),
    image_content: { description: 'd'.repeat(10_001) },
    list_content: { entries: [{ text: 't'.repeat(256) }] },
  };

  test('wrong types are field-keyed 400s', async () => {
    for (const [method, path] of writes) {
      const response = await server.request(method, path, { token: owner.token, body: wrongTypes });
      assert.equal(response.status, 400, `${method} ${path}: ${response.text}`);
      assert.ok(Object.keys(response.body).length > 0);
      assert.equal(response.body.detail, undefined, `${method} ${path} is keyed by field`);
    }
  });

  test('over-long strings are field-keyed 400s', async () => {
    for (const [method, path] of writes) {
      const response = await server.request(method, path, { token: owner.token, body: tooLong });
      assert.equal(response.status, 400, `${method} ${path}: ${response.text}`);
      for (const message of Object.values(response.body).flat()) {
        if (typeof message === 'string')
          assert.match(message, /no more than|not a valid choice|required|exactly one|content type|may not be/);
      }
    }
  });

  test('bodies that are not objects, malformed JSON, other content types, huge bodies', async () => {
    for (const [method, path] of writes) {
      for (const raw of ['[]', '"text"', '42', 'null']) {
        const response = await server.request(method, path, { token: owner.token, raw, headers: { 'content-type': 'application/json' } });
        assert.ok(
          [400].includes(response.status) || (raw === 'null' && response.status < 500),
          `${method} ${path} ${raw}: ${response.status}`,
        );
        assert.ok(response.status < 500);
      }
      const malformed = await server.request(method, path, {
        token: owner.token,
        raw: '{"name": ',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(malformed.status, 400);
      const text = await server.request(method, path, { token: owner.token, raw: 'name=x', headers: { 'content-type': 'text/plain' } });
      assert.equal(text.status, 415);
    }
    const huge = JSON.stringify({ name: 'x', quote: 'q'.repeat(2 * 1024 * 1024) });
    const response = await server.request('PATCH', `/app/users/${owner.appUserId}/`, {
      token: owner.token,
      raw: huge,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(response.status, 413);
    assert.equal(typeof response.body.detail, 'string');
    const manyEntries = JSON.stringify({
      name: 'L',
      list_content: { entries: Array.from({ length: 100_000 }, () => ({ text: 'entry' })) },
    });
    const tooManyEntries = await server.request('POST', writes[7]![1], {
      token: owner.token,
      raw: manyEntries,
      headers: { 'content-type': 'application/json' },
    });
    assert.ok(tooManyEntries.status === 413 || tooManyEntries.status === 400, `${tooManyEntries.status}`);
  });

  test('ids out of range anywhere are 404 in paths and 400 in bodies, never 500', async () => {
    for (const path of [
      '/app/profiles/9999999999/',
      '/app/topics/2147483648/',
      '/app/items/00/',
      '/app/list-entries/1e3/',
      '/app/emergency-items/-5/',
      '/app/emergency-contacts/%20/',
    ]) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const response = await server.request(method, path, { token: owner.token, body: method === 'PATCH' ? {} : undefined });
        assert.equal(response.status, 404, `${method} ${path}`);
      }
    }
    const emergency = await server.request('POST', `/app/users/${owner.appUserId}/emergency-items/`, {
      token: owner.token,
      body: { name: 'E', media_resource: 1e300 },
    });
    assert.equal(emergency.status, 400, emergency.text);
    const fractional = await server.request('POST', `/app/users/${owner.appUserId}/emergency-items/`, {
      token: owner.token,
      body: { name: 'E', media_resource: 1.5 },
    });
    assert.equal(fractional.status, 400);
  });
});
