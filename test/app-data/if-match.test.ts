// No lost updates (docs/offline-and-live.md): PATCH, PUT and DELETE honour If-Match. A tag that is not the
// current one is 412 and nothing changes; of two writers holding the same tag, exactly one wins.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { create, createListItem, createOwner, createProfile, createTopic, type Owner } from './fixtures.ts';
import { png, upload } from '../media/media-fixtures.ts';

interface Case {
  type: string;
  path: string;
  patch: object;
  put: object;
}

describe('If-Match on PATCH, PUT and DELETE', () => {
  let server: TestServer;
  let owner: Owner;

  /** A fresh object of every kind, with a change each accepts. */
  async function cases(): Promise<Case[]> {
    const u = owner.appUserId;
    const media = (await upload(server, owner.token, u, { name: 'P', file: png(), type: 'image/png' })).body;
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const item = await createListItem(server, owner, topic.id, ['a']);
    // The entry under an item of its own: the item's PUT replaces its list.
    const entry = (await createListItem(server, owner, topic.id, ['a'])).list_content.entries[0];
    const emergencyItem = await create(server, owner.token, `/app/users/${u}/emergency-items/`, { name: 'E' });
    const contact = await create(server, owner.token, `/app/users/${u}/emergency-contacts/`, { name: 'C', phone_number: '123456789' });
    const path = (url: string) => new URL(url).pathname;
    return [
      { type: 'profile', path: path(profile.url), patch: { name: 'P2' }, put: { name: 'P3' } },
      { type: 'topic', path: path(topic.url), patch: { name: 'T2' }, put: { name: 'T3', topic_type: 3 } },
      { type: 'item', path: path(item.url), patch: { name: 'I2' }, put: { name: 'I3', list_content: { entries: [{ text: 'x' }] } } },
      { type: 'list entry', path: path(entry.url), patch: { text: 'b' }, put: { text: 'c' } },
      { type: 'emergency item', path: path(emergencyItem.url), patch: { name: 'E2' }, put: { name: 'E3' } },
      { type: 'emergency contact', path: path(contact.url), patch: { name: 'C2' }, put: { name: 'C3', phone_number: '123456789' } },
      { type: 'media resource', path: path(media.url), patch: { name: 'M2' }, put: { name: 'M3' } },
    ];
  }

  const get = (path: string) => server.request('GET', path, { token: owner.token });

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
  });
  after(() => server.close());

  test('a stale tag: 412 and nothing changes; the current tag (or *) goes through, and the answer has the new tag', async () => {
    for (const c of [
      ...(await cases()),
      { type: 'app user', path: `/app/users/${owner.appUserId}/`, patch: { name: 'A2' }, put: { quote: 'q' } },
    ]) {
      for (const method of ['PATCH', 'PUT'] as const) {
        const before = await get(c.path);
        const tag = String(before.headers.get('etag'));
        const body = method === 'PATCH' ? c.patch : c.put;
        const stale = await server.request(method, c.path, { token: owner.token, body, headers: { 'if-match': '"stale"' } });
        assert.equal(stale.status, 412, `${method} ${c.type}: ${stale.text}`);
        assert.match(stale.body.detail, /changed/);
        assert.equal((await get(c.path)).text, before.text, `${method} ${c.type}: nothing changed`);
        const weak = await server.request(method, c.path, { token: owner.token, body, headers: { 'if-match': `W/${tag}` } });
        assert.equal(weak.status, 412, `${method} ${c.type}: a weak tag never matches If-Match`);
        const current = await server.request(method, c.path, { token: owner.token, body, headers: { 'if-match': `"other", ${tag}` } });
        assert.equal(current.status, 200, `${method} ${c.type}: ${current.text}`);
        const after = await get(c.path);
        const again = await server.request(method, c.path, { token: owner.token, body, headers: { 'if-match': tag } });
        assert.equal(again.status, after.text === before.text ? 200 : 412, `${method} ${c.type}: the old tag after a change`);
        const any = await server.request(method, c.path, { token: owner.token, body, headers: { 'if-match': '*' } });
        assert.equal(any.status, 200, `${method} ${c.type}: * while it exists`);
      }
    }
  });

  test('DELETE: a stale tag is 412 and the object stays; the current tag deletes it; without If-Match as before', async () => {
    // Leaves first: a profile's delete takes its topic with it.
    for (const c of (await cases()).reverse()) {
      const tag = String((await get(c.path)).headers.get('etag'));
      const stale = await server.request('DELETE', c.path, { token: owner.token, headers: { 'if-match': '"stale"' } });
      assert.equal(stale.status, 412, `${c.type}: ${stale.text}`);
      assert.equal((await get(c.path)).status, 200, `${c.type}: still there`);
      const deleted = await server.request('DELETE', c.path, { token: owner.token, headers: { 'if-match': tag } });
      assert.equal(deleted.status, 204, `${c.type}: ${deleted.text}`);
      const gone = await server.request('DELETE', c.path, { token: owner.token, headers: { 'if-match': '*' } });
      assert.equal(gone.status, 404, `${c.type}: * on what is gone`);
    }
  });

  test('two writers holding the same tag: exactly one succeeds, the other gets 412', async () => {
    for (let round = 0; round < 5; round++) {
      const profile = await createProfile(server, owner, { name: `Race ${round}` });
      const path = `/app/profiles/${profile.id}/`;
      const tag = String((await get(path)).headers.get('etag'));
      const answers = await Promise.all(
        ['A', 'B', 'C'].map((name) => server.request('PATCH', path, { token: owner.token, body: { name }, headers: { 'if-match': tag } })),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [200, 412, 412], answers.map((a) => a.text).join('\n'));
      const winner = answers.find((a) => a.status === 200)!;
      assert.equal((await get(path)).body.name, winner.body.name);
    }
  });
});
