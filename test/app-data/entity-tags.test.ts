// Validators (docs/offline-and-live.md): every GET of a personal-data detail or list answers a strong ETag
// that changes exactly when the caller's body does; If-None-Match with it answers 304 and no body.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { create, createImageItem, createListItem, createOwner, createProfile, createTopic, type Owner } from './fixtures.ts';
import { png, upload } from '../media/media-fixtures.ts';

describe('entity tags and If-None-Match', () => {
  let server: TestServer;
  let owner: Owner;
  let paths: string[];

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
    const media = (await upload(server, owner.token, owner.appUserId, { name: 'P', file: png(), type: 'image/png' })).body.id;
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const list = await createListItem(server, owner, topic.id, ['a']);
    const image = await createImageItem(server, owner, topic.id, { media_resource: media });
    const u = owner.appUserId;
    const emergencyItem = await create(server, owner.token, `/app/users/${u}/emergency-items/`, { name: 'E' });
    const contact = await create(server, owner.token, `/app/users/${u}/emergency-contacts/`, { name: 'C', phone_number: '123456789' });
    paths = [
      '/app/users/',
      `/app/users/${u}/`,
      `/app/users/${u}/profiles/`,
      `/app/profiles/${profile.id}/`,
      `/app/profiles/${profile.id}/topics/`,
      `/app/topics/${topic.id}/`,
      `/app/topics/${topic.id}/items/`,
      `/app/items/${list.id}/`,
      `/app/items/${image.id}/`,
      `/app/items/${list.id}/list-entries/`,
      `/app/list-entries/${list.list_content.entries[0].id}/`,
      `/app/users/${u}/emergency-items/`,
      `/app/emergency-items/${emergencyItem.id}/`,
      `/app/users/${u}/emergency-contacts/`,
      `/app/emergency-contacts/${contact.id}/`,
      `/app/users/${u}/gallery/`,
      `/app/media-resources/${media}/`,
    ];
  });
  after(() => server.close());

  test('every personal-data GET: a strong tag of the exact body, the same twice, 304 with no body when held', async () => {
    for (const path of paths) {
      const first = await server.request('GET', path, { token: owner.token });
      assert.equal(first.status, 200, path);
      const tag = first.headers.get('etag');
      assert.match(String(tag), /^"[A-Za-z0-9_-]{22}"$/, `${path}: a strong tag`);
      const digest = createHash('sha256').update(first.text).digest('base64url').slice(0, 22);
      assert.equal(tag, `"${digest}"`, `${path}: the tag is the body's`);
      const second = await server.request('GET', path, { token: owner.token });
      assert.equal(second.headers.get('etag'), tag, `${path}: unchanged body, unchanged tag (a cached rendering too)`);
      const held = await server.request('GET', path, { token: owner.token, headers: { 'if-none-match': String(tag) } });
      assert.equal(held.status, 304, `${path}: If-None-Match with the current tag`);
      assert.equal(held.text, '', `${path}: no body`);
      assert.equal(held.headers.get('etag'), tag);
      const listed = await server.request('GET', path, { token: owner.token, headers: { 'if-none-match': `"other", W/${tag}` } });
      assert.equal(listed.status, 304, `${path}: a list naming the tag, weakly compared`);
      const stale = await server.request('GET', path, { token: owner.token, headers: { 'if-none-match': '"other"' } });
      assert.equal(stale.status, 200, `${path}: another tag gets the body`);
    }
  });

  test('a write that changes the body changes the tag; the old tag then gets the body', async () => {
    const path = `/app/users/${owner.appUserId}/profiles/`;
    const before = await server.request('GET', path, { token: owner.token });
    await createProfile(server, owner, { name: 'Second' });
    const after = await server.request('GET', path, {
      token: owner.token,
      headers: { 'if-none-match': String(before.headers.get('etag')) },
    });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
  });

  test('errors carry no tag', async () => {
    const missing = await server.request('GET', '/app/profiles/2000000000/', { token: owner.token, headers: { 'if-none-match': '*' } });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('etag'), null);
  });
});
