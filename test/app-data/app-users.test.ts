import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { waitUntilRemoved } from '../media/media-fixtures.ts';
import { create, createImageItem, createListItem, createOwner, createProfile, createTopic, insertMedia } from './fixtures.ts';

const DETAIL_FIELDS = [
  'emergency_contacts_url',
  'emergency_items_url',
  'gallery_url',
  'id',
  'is_owned_by_current_user',
  'name',
  'permissions',
  'profiles',
  'profiles_url',
  'quote',
  'url',
];

describe('app users', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function dataVersion(appUserId: number): Promise<number> {
    const row = await server.server.ctx.db.kysely
      .selectFrom('app_users')
      .select('data_version')
      .where('id', '=', appUserId)
      .executeTakeFirstOrThrow();
    return row.data_version;
  }

  test('anonymous callers get 401', async () => {
    for (const [method, path] of [
      ['GET', '/app/users/'],
      ['POST', '/app/users/'],
      ['GET', '/app/users/1/'],
      ['GET', '/app/topic-types/'],
    ] as const) {
      const response = await server.request(method, path, { body: method === 'POST' ? {} : undefined });
      assert.equal(response.status, 401, `${method} ${path}`);
      assert.equal(response.headers.get('www-authenticate'), 'Token');
    }
  });

  test('POST creates the app user: 201, Location = url, name defaults to the first name, quote null', async () => {
    const account = await createAccount(server, { firstName: 'Grace' });
    const empty = await server.request('GET', '/app/users/', { token: account.token });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, []);

    const response = await server.request('POST', '/app/users/', { token: account.token, body: {} });
    assert.equal(response.status, 201, response.text);
    const id = response.body.id;
    assert.deepEqual(response.body, {
      id,
      url: `${PUBLIC_URL}/app/users/${id}/`,
      name: 'Grace',
      quote: null,
      is_owned_by_current_user: true,
      permissions: { read: true, write: true },
    });
    assert.equal(response.headers.get('location'), response.body.url);

    const list = await server.request('GET', '/app/users/', { token: account.token });
    assert.deepEqual(list.body, [response.body]);
  });

  test('POST takes name and quote; the quote may be empty or null; strings are trimmed', async () => {
    for (const quote of ['  Carpe diem  ', '', null]) {
      const account = await createAccount(server);
      const response = await server.request('POST', '/app/users/', { token: account.token, body: { name: '  Nan  ', quote } });
      assert.equal(response.status, 201, response.text);
      assert.equal(response.body.name, 'Nan');
      assert.equal(response.body.quote, typeof quote === 'string' ? quote.trim() : null);
    }
  });

  test('a second app user for the same account is 400 non_field_errors', async () => {
    const owner = await createOwner(server);
    const response = await server.request('POST', '/app/users/', { token: owner.token, body: { name: 'Again' } });
    assert.equal(response.status, 400);
    assert.deepEqual(Object.keys(response.body), ['non_field_errors']);
    assert.match(response.body.non_field_errors[0], /only one/);
  });

  test('concurrent creates for one account: exactly one 201, the others 400, never 500', async () => {
    const account = await createAccount(server);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => server.request('POST', '/app/users/', { token: account.token, body: {} })),
    );
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 400, 400, 400, 400, 400, 400, 400], responses.map((r) => r.text).join('\n'));
    for (const response of responses.filter((r) => r.status === 400)) assert.ok(response.body.non_field_errors);
    const list = await server.request('GET', '/app/users/', { token: account.token });
    assert.equal(list.body.length, 1);
  });

  test('POST refuses bad fields with field-keyed 400s', async () => {
    const account = await createAccount(server);
    const cases: Array<[object, string]> = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ name: 5 }, 'name'],
      [{ name: null }, 'name'],
      [{ quote: 'x'.repeat(10_001) }, 'quote'],
      [{ quote: 5 }, 'quote'],
      [{ quote: ['a'] }, 'quote'],
    ];
    for (const [body, field] of cases) {
      const response = await server.request('POST', '/app/users/', { token: account.token, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body), [field], JSON.stringify(response.body));
      assert.equal(typeof response.body[field][0], 'string');
    }
    const ok = await server.request('POST', '/app/users/', {
      token: account.token,
      body: { name: 'x'.repeat(255), quote: 'q'.repeat(10_000) },
    });
    assert.equal(ok.status, 201, 'the limits themselves are allowed');
  });

  test('GET /app/users/{id}/ is the detail: URLs of what it holds and its profiles in list shape, by id', async () => {
    const owner = await createOwner(server);
    const second = await createProfile(server, owner, { name: 'Work' });
    const first = await createProfile(server, owner, { name: 'Home', is_default: true });
    const response = await server.request('GET', `/app/users/${owner.appUserId}`, { token: owner.token });
    assert.equal(response.status, 200);
    const id = owner.appUserId;
    assert.deepEqual(Object.keys(response.body).sort(), DETAIL_FIELDS);
    assert.equal(response.body.url, `${PUBLIC_URL}/app/users/${id}/`);
    assert.equal(response.body.emergency_items_url, `${PUBLIC_URL}/app/users/${id}/emergency-items/`);
    assert.equal(response.body.emergency_contacts_url, `${PUBLIC_URL}/app/users/${id}/emergency-contacts/`);
    assert.equal(response.body.gallery_url, `${PUBLIC_URL}/app/users/${id}/gallery/`);
    assert.equal(response.body.profiles_url, `${PUBLIC_URL}/app/users/${id}/profiles/`);
    assert.deepEqual(response.body.profiles, [
      { id: second.id, url: second.url, name: 'Work', is_default: false, is_private: false },
      { id: first.id, url: first.url, name: 'Home', is_default: true, is_private: false },
    ]);
  });

  test('PATCH changes name and quote, PUT too; the data version moves', async () => {
    const owner = await createOwner(server);
    const path = `/app/users/${owner.appUserId}/`;
    const before = await dataVersion(owner.appUserId);

    const patched = await server.request('PATCH', path, { token: owner.token, body: { quote: 'Hello' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.name, 'Ada');
    assert.equal(patched.body.quote, 'Hello');
    assert.deepEqual(Object.keys(patched.body).sort(), DETAIL_FIELDS);
    assert.ok((await dataVersion(owner.appUserId)) > before);

    const put = await server.request('PUT', path, { token: owner.token, body: { name: 'Ada L.', quote: null } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.name, 'Ada L.');
    assert.equal(put.body.quote, null);

    const unchanged = await server.request('PATCH', path, { token: owner.token, body: {} });
    assert.equal(unchanged.status, 200);
    assert.equal(unchanged.body.name, 'Ada L.');

    const bad = await server.request('PATCH', path, { token: owner.token, body: { name: '', quote: 'x'.repeat(10_001) } });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body).sort(), ['name', 'quote']);
    const after = await server.request('GET', path, { token: owner.token });
    assert.equal(after.body.name, 'Ada L.', 'a refused change changes nothing');
  });

  test('bad ids in the path are 404', async () => {
    const owner = await createOwner(server);
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999', '2147483647']) {
      const response = await server.request('GET', `/app/users/${id}/`, { token: owner.token });
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
  });

  test('DELETE removes the app user and everything below it, stored media files included', async () => {
    const owner = await createOwner(server);
    const db = server.server.ctx.db.kysely;
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const mediaId = await insertMedia(server, owner);
    const { storage_key: storageKey } = await db
      .selectFrom('media_resources')
      .select('storage_key')
      .where('id', '=', mediaId)
      .executeTakeFirstOrThrow();
    const file = await server.server.ctx.media.receive(storageKey, Readable.from([randomBytes(64)]));
    await file.commit();
    await createListItem(server, owner, topic.id);
    await createImageItem(server, owner, topic.id, { image_resource: mediaId });
    await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-items/`, { name: 'Inhaler', media_resource: mediaId });
    await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-contacts/`, { name: 'Mum', phone_number: '0123456789' });
    // Someone else's data must survive.
    const other = await createOwner(server);
    const otherProfile = await createProfile(server, other);

    const response = await server.request('DELETE', `/app/users/${owner.appUserId}/`, { token: owner.token });
    assert.equal(response.status, 204);
    assert.equal(response.text, '');

    assert.equal((await server.request('GET', `/app/users/${owner.appUserId}/`, { token: owner.token })).status, 404);
    assert.deepEqual((await server.request('GET', '/app/users/', { token: owner.token })).body, []);
    for (const table of [
      'profiles',
      'topics',
      'items',
      'image_contents',
      'list_contents',
      'list_entries',
      'emergency_items',
      'emergency_contacts',
      'media_resources',
    ] as const) {
      const rows = await db.selectFrom(table).select('id').where('account_id', '=', owner.id).execute();
      assert.deepEqual(rows, [], `${table} rows remain`);
    }
    await waitUntilRemoved(server, storageKey); // the stored file is removed (through the outbox)
    assert.equal((await server.request('GET', `/app/profiles/${otherProfile.id}/`, { token: other.token })).status, 200);

    const again = await server.request('DELETE', `/app/users/${owner.appUserId}/`, { token: owner.token });
    assert.equal(again.status, 404);
    const recreated = await server.request('POST', '/app/users/', { token: owner.token, body: {} });
    assert.equal(recreated.status, 201, 'a new app user may be created afterwards');
  });

  test('another method on a known path is 405 with Allow', async () => {
    const owner = await createOwner(server);
    const response = await server.request('DELETE', '/app/users/', { token: owner.token });
    assert.equal(response.status, 405);
    assert.match(response.headers.get('allow') ?? '', /GET/);
    assert.match(response.headers.get('allow') ?? '', /POST/);
  });
});
