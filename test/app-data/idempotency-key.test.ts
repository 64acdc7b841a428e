// Safe retries (docs/offline-and-live.md): a create sent with Idempotency-Key is performed once per key and
// account within 24 hours, concurrent retries included; the same key with another body is 422.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createListItem, createOwner, createProfile, createTopic, type Owner } from './fixtures.ts';
import { png, uploadForm } from '../media/media-fixtures.ts';

describe('Idempotency-Key on creates', () => {
  let server: TestServer;
  let owner: Owner;
  let other: Owner;
  let creates: { type: string; path: string; body: object }[];

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
    other = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const item = await createListItem(server, owner, topic.id, ['a']);
    const u = owner.appUserId;
    creates = [
      { type: 'profile', path: `/app/users/${u}/profiles/`, body: { name: 'Work' } },
      { type: 'topic', path: `/app/profiles/${profile.id}/topics/`, body: { name: 'T', topic_type: 3 } },
      { type: 'list item', path: `/app/topics/${topic.id}/items/`, body: { name: 'L', list_content: { entries: [{ text: 'x' }] } } },
      { type: 'image item', path: `/app/topics/${topic.id}/items/`, body: { name: 'I', image_content: { description: 'd' } } },
      { type: 'list entry', path: `/app/items/${item.id}/list-entries/`, body: { text: 'y' } },
      { type: 'emergency item', path: `/app/users/${u}/emergency-items/`, body: { name: 'E' } },
      { type: 'emergency contact', path: `/app/users/${u}/emergency-contacts/`, body: { name: 'C', phone_number: '123456789' } },
    ];
  });
  after(() => server.close());

  const count = async (path: string) => (await server.request('GET', path, { token: owner.token })).body.length;

  test('a retry answers the first answer again (status, body, Location) and makes nothing', async () => {
    for (const [i, c] of creates.entries()) {
      const key = `retry-${i}`;
      const first = await server.request('POST', c.path, { token: owner.token, body: c.body, headers: { 'idempotency-key': key } });
      assert.equal(first.status, 201, `${c.type}: ${first.text}`);
      const before = await count(c.path);
      // The same body with its fields in another order is the same request.
      const reordered = Object.fromEntries(Object.entries(c.body).reverse());
      const retry = await server.request('POST', c.path, { token: owner.token, body: reordered, headers: { 'idempotency-key': key } });
      assert.equal(retry.status, 201, `${c.type}: ${retry.text}`);
      assert.deepEqual(retry.body, first.body, `${c.type}: the first answer`);
      assert.equal(retry.headers.get('location'), first.headers.get('location'));
      assert.equal(await count(c.path), before, `${c.type}: no second object`);
      const differs = await server.request('POST', c.path, {
        token: owner.token,
        body: { ...c.body, name: 'Other', text: 'z' },
        headers: { 'idempotency-key': key },
      });
      assert.equal(differs.status, 422, `${c.type}: ${differs.text}`);
      assert.match(differs.body.detail, /another request/);
    }
  });

  test('concurrent retries make one object; every answer is the first', async () => {
    for (const [i, c] of creates.entries()) {
      const before = await count(c.path);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          server.request('POST', c.path, { token: owner.token, body: c.body, headers: { 'idempotency-key': `race-${i}` } }),
        ),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        [201, 201, 201, 201],
        `${c.type}: ${answers.map((a) => a.text).join('\n')}`,
      );
      assert.equal(new Set(answers.map((a) => a.body.id)).size, 1, `${c.type}: one object`);
      assert.equal(await count(c.path), before + 1, c.type);
    }
  });

  test('keys are per account; a bad key is 400; a refused create claims nothing; after 24 hours a key is new', async () => {
    const path = `/app/users/${other.appUserId}/profiles/`;
    const mine = await server.request('POST', `/app/users/${owner.appUserId}/profiles/`, {
      token: owner.token,
      body: { name: 'K' },
      headers: { 'idempotency-key': 'shared' },
    });
    const theirs = await server.request('POST', path, {
      token: other.token,
      body: { name: 'K' },
      headers: { 'idempotency-key': 'shared' },
    });
    assert.equal(theirs.status, 201);
    assert.notEqual(theirs.body.id, mine.body.id);
    for (const key of ['', ' ', 'x'.repeat(256), 'tab\there']) {
      const bad = await server.request('POST', path, { token: other.token, body: { name: 'B' }, headers: { 'idempotency-key': key } });
      assert.equal(bad.status, 400, JSON.stringify(key));
    }
    const refused = await server.request('POST', path, {
      token: other.token,
      body: { name: '' },
      headers: { 'idempotency-key': 'refused' },
    });
    assert.equal(refused.status, 400);
    const fixed = await server.request('POST', path, { token: other.token, body: { name: '' }, headers: { 'idempotency-key': 'refused' } });
    assert.equal(fixed.status, 400, 'an error is not stored: the retry is performed again');
    const missing = await server.request('POST', `/app/profiles/2000000000/topics/`, {
      token: other.token,
      body: { name: 'T', topic_type: 3 },
      headers: { 'idempotency-key': 'nf' },
    });
    assert.equal(missing.status, 404);

    const first = await server.request('POST', path, {
      token: other.token,
      body: { name: 'Day' },
      headers: { 'idempotency-key': 'daily' },
    });
    server.clock.advance(24 * 60 * 60_000 + 1);
    const later = await server.request('POST', path, {
      token: other.token,
      body: { name: 'Day' },
      headers: { 'idempotency-key': 'daily' },
    });
    assert.equal(later.status, 201);
    assert.notEqual(later.body.id, first.body.id, 'after 24 hours the key makes a new object');
  });

  test('the app user create honours it too', async () => {
    const fresh = await createOwner(server);
    await server.request('DELETE', `/app/users/${fresh.appUserId}/`, { token: fresh.token });
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        server.request('POST', '/app/users/', { token: fresh.token, body: { name: 'Once' }, headers: { 'idempotency-key': 'me' } }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 201],
      answers.map((a) => a.text).join('\n'),
    );
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
  });

  test('an upload: a retry with the same file replays; another file is 422; retries at once make one media resource', async () => {
    const path = `/app/users/${owner.appUserId}/gallery/`;
    const send = (key: string, file: Buffer, name = 'Photo') =>
      server.request('POST', path, {
        token: owner.token,
        raw: uploadForm({ name, file, type: 'image/png' }),
        headers: { 'idempotency-key': key },
      });
    const first = await send('upload-1', png());
    assert.equal(first.status, 201, first.text);
    const before = await count(path);
    const retry = await send('upload-1', png());
    assert.equal(retry.status, 201, retry.text);
    assert.deepEqual(retry.body, first.body);
    assert.equal(retry.headers.get('location'), first.headers.get('location'));
    assert.equal(await count(path), before, 'no second media resource');
    const other = await send('upload-1', png(64));
    assert.equal(other.status, 422, 'the same key with another file');
    assert.equal((await send('upload-1', png(), 'Renamed')).status, 422, 'the same key with another name');
    const answers = await Promise.all([1, 2, 3].map(() => send('upload-race', png(8))));
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 201],
      answers.map((a) => a.text).join('\n'),
    );
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
    assert.equal(await count(path), before + 1);
  });
});
