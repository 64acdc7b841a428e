import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { createOwner, insertMedia } from './fixtures.ts';

describe('emergency items', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('POST answers 201 (not 200) with Location; description defaults to empty, media to null', async () => {
    const owner = await createOwner(server);
    const path = `/app/users/${owner.appUserId}/emergency-items/`;
    const response = await server.request('POST', path, { token: owner.token, body: { name: 'Allergy' } });
    assert.equal(response.status, 201, response.text);
    const id = response.body.id;
    assert.deepEqual(response.body, {
      id,
      url: `${PUBLIC_URL}/app/emergency-items/${id}/`,
      name: 'Allergy',
      description: '',
      media_resource: null,
    });
    assert.equal(response.headers.get('location'), response.body.url);

    const media = await insertMedia(server, owner, 'card.png');
    const second = await server.request('POST', path, {
      token: owner.token,
      body: { name: 'Card', description: 'Insurance', media_resource: media },
    });
    assert.equal(second.status, 201);
    assert.equal(second.body.media_resource.id, media);
    assert.equal(second.body.media_resource.name, 'card.png');
    assert.equal(second.body.media_resource.url, `${PUBLIC_URL}/app/media-resources/${media}/`);

    const list = await server.request('GET', path, { token: owner.token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, [response.body, second.body]);
  });

  test('fields are checked: name required, description ≤ 10,000, media of the same app user', async () => {
    const owner = await createOwner(server);
    const stranger = await createOwner(server);
    const theirs = await insertMedia(server, stranger);
    const path = `/app/users/${owner.appUserId}/emergency-items/`;
    const cases: Array<[object, object | string[]]> = [
      [{}, { name: ['This field is required.'] }],
      [{ name: '' }, ['name']],
      [{ name: 'x'.repeat(256) }, ['name']],
      [{ name: 'A', description: 'x'.repeat(10_001) }, ['description']],
      [{ name: 'A', description: null }, ['description']],
      [{ name: 'A', media_resource: theirs }, { media_resource: [`Invalid pk "${theirs}" - object does not exist.`] }],
      [{ name: 'A', media_resource: 0 }, { media_resource: ['Invalid pk "0" - object does not exist.'] }],
      [{ name: 'A', media_resource: 'x' }, { media_resource: ['A valid integer is required.'] }],
      [{ name: 'A', media_resource: { id: 1 } }, ['media_resource']],
    ];
    for (const [body, expected] of cases) {
      const response = await server.request('POST', path, { token: owner.token, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      if (Array.isArray(expected)) assert.deepEqual(Object.keys(response.body), expected, JSON.stringify(response.body));
      else assert.deepEqual(response.body, expected);
    }
    assert.deepEqual((await server.request('GET', path, { token: owner.token })).body, []);
  });

  test('detail: GET, PATCH (media attach/detach), PUT needs the name, DELETE keeps the media', async () => {
    const owner = await createOwner(server);
    const media = await insertMedia(server, owner);
    const stranger = await createOwner(server);
    const theirs = await insertMedia(server, stranger);
    const created = await server.request('POST', `/app/users/${owner.appUserId}/emergency-items/`, {
      token: owner.token,
      body: { name: 'Pills', description: 'Daily' },
    });
    const path = `/app/emergency-items/${created.body.id}/`;
    assert.deepEqual((await server.request('GET', path, { token: owner.token })).body, created.body);

    const attached = await server.request('PATCH', path, { token: owner.token, body: { media_resource: media } });
    assert.equal(attached.status, 200);
    assert.equal(attached.body.media_resource.id, media);
    assert.equal(attached.body.description, 'Daily');

    const refused = await server.request('PATCH', path, { token: owner.token, body: { media_resource: theirs, name: 'Changed' } });
    assert.equal(refused.status, 400);
    assert.deepEqual(Object.keys(refused.body), ['media_resource']);
    assert.equal((await server.request('GET', path, { token: owner.token })).body.name, 'Pills');

    const detached = await server.request('PATCH', path, { token: owner.token, body: { media_resource: null, description: '' } });
    assert.deepEqual([detached.body.media_resource, detached.body.description], [null, '']);

    const putWithout = await server.request('PUT', path, { token: owner.token, body: { description: 'x' } });
    assert.deepEqual(putWithout.body, { name: ['This field is required.'] });
    const put = await server.request('PUT', path, { token: owner.token, body: { name: 'Put' } });
    assert.equal(put.status, 200);
    assert.equal(put.body.name, 'Put');

    assert.equal((await server.request('DELETE', path, { token: owner.token })).status, 204);
    assert.equal((await server.request('GET', path, { token: owner.token })).status, 404);
    const stillThere = await server.server.ctx.db.kysely.selectFrom('media_resources').select('id').where('id', '=', media).execute();
    assert.equal(stillThere.length, 1, 'the media resource stays in the gallery');
  });

  test('list and create under a missing app user are 404', async () => {
    const owner = await createOwner(server);
    for (const method of ['GET', 'POST']) {
      const response = await server.request(method, '/app/users/31337/emergency-items/', {
        token: owner.token,
        body: method === 'POST' ? { name: 'A' } : undefined,
      });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
  });
});
