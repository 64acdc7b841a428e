import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { createListItem, createOwner, createProfile, createTopic, type Owner } from './fixtures.ts';

describe('profiles', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function profiles(owner: Owner): Promise<Array<{ id: number; name: string; is_default: boolean }>> {
    const response = await server.request('GET', `/app/users/${owner.appUserId}/profiles/`, { token: owner.token });
    assert.equal(response.status, 200);
    return response.body;
  }

  test('POST creates a profile: 201, Location, is_default false unless asked; GET lists them by id', async () => {
    const owner = await createOwner(server);
    const response = await server.request('POST', `/app/users/${owner.appUserId}/profiles/`, {
      token: owner.token,
      body: { name: ' Home ' },
    });
    assert.equal(response.status, 201, response.text);
    const id = response.body.id;
    assert.deepEqual(response.body, { id, url: `${PUBLIC_URL}/app/profiles/${id}/`, name: 'Home', is_default: false, is_private: false });
    assert.equal(response.headers.get('location'), response.body.url);
    const second = await createProfile(server, owner, { name: 'Work', is_default: true });
    assert.equal(second.is_default, true);
    assert.deepEqual(await profiles(owner), [response.body, second]);
  });

  test('POST refuses a missing, blank, long or mistyped name and a mistyped is_default', async () => {
    const owner = await createOwner(server);
    const path = `/app/users/${owner.appUserId}/profiles/`;
    const cases: Array<[unknown, string]> = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ name: 7 }, 'name'],
      [{ name: 'A', is_default: 'yes' }, 'is_default'],
      [{ name: 'A', is_default: 1 }, 'is_default'],
    ];
    for (const [body, field] of cases) {
      const response = await server.request('POST', path, { token: owner.token, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body), [field]);
    }
    const required = await server.request('POST', path, { token: owner.token, body: {} });
    assert.deepEqual(required.body, { name: ['This field is required.'] });
    const notObject = await server.request('POST', path, { token: owner.token, body: ['name'] });
    assert.equal(notObject.status, 400);
    assert.ok(notObject.body.non_field_errors);
    assert.deepEqual(await profiles(owner), []);
  });

  test('lists and creates under a missing app user are 404', async () => {
    const owner = await createOwner(server);
    for (const method of ['GET', 'POST']) {
      const response = await server.request(method, '/app/users/999999/profiles/', {
        token: owner.token,
        body: method === 'POST' ? { name: 'A' } : undefined,
      });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
  });

  test('making a profile the default clears the others, on create and on PATCH', async () => {
    const owner = await createOwner(server);
    const a = await createProfile(server, owner, { name: 'A', is_default: true });
    const b = await createProfile(server, owner, { name: 'B', is_default: true });
    assert.deepEqual(
      (await profiles(owner)).map((p) => [p.id, p.is_default]),
      [
        [a.id, false],
        [b.id, true],
      ],
    );

    const patched = await server.request('PATCH', `/app/profiles/${a.id}/`, { token: owner.token, body: { is_default: true } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.is_default, true);
    assert.deepEqual(
      (await profiles(owner)).map((p) => [p.id, p.is_default]),
      [
        [a.id, true],
        [b.id, false],
      ],
    );

    const again = await server.request('PATCH', `/app/profiles/${a.id}/`, { token: owner.token, body: { is_default: true } });
    assert.equal(again.status, 200, 'making the default the default again is fine');

    const cleared = await server.request('PATCH', `/app/profiles/${a.id}/`, { token: owner.token, body: { is_default: false } });
    assert.equal(cleared.body.is_default, false);
    assert.deepEqual(
      (await profiles(owner)).map((p) => p.is_default),
      [false, false],
      'no default at all is allowed',
    );
  });

  test("one app user's default does not touch another's", async () => {
    const first = await createOwner(server);
    const second = await createOwner(server);
    const mine = await createProfile(server, first, { is_default: true });
    await createProfile(server, second, { is_default: true });
    const response = await server.request('GET', `/app/profiles/${mine.id}/`, { token: first.token });
    assert.equal(response.body.is_default, true);
  });

  test('concurrent "make default" requests never fail and leave exactly one default', async () => {
    const owner = await createOwner(server);
    const created = [];
    for (let i = 0; i < 8; i++) created.push(await createProfile(server, owner, { name: `P${i}` }));
    const responses = await Promise.all(
      created.map((p) => server.request('PATCH', `/app/profiles/${p.id}/`, { token: owner.token, body: { is_default: true } })),
    );
    assert.deepEqual(
      responses.map((r) => r.status),
      created.map(() => 200),
      responses.map((r) => r.text).join('\n'),
    );
    assert.equal((await profiles(owner)).filter((p) => p.is_default).length, 1);

    const creates = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server.request('POST', `/app/users/${owner.appUserId}/profiles/`, {
          token: owner.token,
          body: { name: `New ${i}`, is_default: true },
        }),
      ),
    );
    assert.deepEqual(
      creates.map((r) => r.status),
      creates.map(() => 201),
      creates.map((r) => r.text).join('\n'),
    );
    assert.equal((await profiles(owner)).filter((p) => p.is_default).length, 1);
  });

  test('GET /app/profiles/{id}/ is the detail with topics_url and full topics', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const empty = await server.request('GET', `/app/profiles/${profile.id}/`, { token: owner.token });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { ...profile, topics_url: `${PUBLIC_URL}/app/profiles/${profile.id}/topics/`, topics: [] });

    const topic = await createTopic(server, owner, profile.id);
    const item = await createListItem(server, owner, topic.id, ['a']);
    const full = await server.request('GET', `/app/profiles/${profile.id}/`, { token: owner.token });
    assert.deepEqual(full.body.topics, [{ ...topic, items: [item] }]);
  });

  test('PATCH renames; PUT needs the name; refused changes change nothing', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner, { name: 'Old' });
    const path = `/app/profiles/${profile.id}/`;
    const patched = await server.request('PATCH', path, { token: owner.token, body: { name: 'New' } });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.name, 'New');
    assert.ok(Array.isArray(patched.body.topics), 'PATCH answers the detail');

    const putWithout = await server.request('PUT', path, { token: owner.token, body: { is_default: true } });
    assert.equal(putWithout.status, 400);
    assert.deepEqual(putWithout.body, { name: ['This field is required.'] });
    const put = await server.request('PUT', path, { token: owner.token, body: { name: 'Put', is_default: true } });
    assert.equal(put.status, 200);
    assert.equal(put.body.name, 'Put');
    assert.equal(put.body.is_default, true);

    const blank = await server.request('PATCH', path, { token: owner.token, body: { name: '  ' } });
    assert.equal(blank.status, 400);
    assert.equal((await server.request('GET', path, { token: owner.token })).body.name, 'Put');
  });

  test('DELETE removes the profile with its topics, items and entries', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const kept = await createProfile(server, owner, { name: 'Kept' });
    const topic = await createTopic(server, owner, profile.id);
    const item = await createListItem(server, owner, topic.id, ['x', 'y']);
    const keptTopic = await createTopic(server, owner, kept.id);

    const response = await server.request('DELETE', `/app/profiles/${profile.id}/`, { token: owner.token });
    assert.equal(response.status, 204);
    for (const path of [
      `/app/profiles/${profile.id}/`,
      `/app/topics/${topic.id}/`,
      `/app/items/${item.id}/`,
      `/app/list-entries/${item.list_content.entries[0].id}/`,
    ]) {
      assert.equal((await server.request('GET', path, { token: owner.token })).status, 404, path);
    }
    const db = server.server.ctx.db.kysely;
    assert.deepEqual(await db.selectFrom('list_contents').select('id').where('item_id', '=', item.id).execute(), []);
    assert.equal((await server.request('GET', `/app/topics/${keptTopic.id}/`, { token: owner.token })).status, 200);
    assert.deepEqual(
      (await profiles(owner)).map((p) => p.id),
      [kept.id],
    );
    assert.equal((await server.request('DELETE', `/app/profiles/${profile.id}/`, { token: owner.token })).status, 404);
  });
});
