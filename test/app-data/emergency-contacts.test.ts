import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { createOwner } from './fixtures.ts';

const PHONE_MESSAGE = "Phone number must be entered in the format: '999999999' or '+999999999'. Up to 15 digits allowed.";

describe('emergency contacts', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('POST: 201 + Location; relation, alt phone and email default to empty; GET lists by id', async () => {
    const owner = await createOwner(server);
    const path = `/app/users/${owner.appUserId}/emergency-contacts/`;
    const response = await server.request('POST', path, { token: owner.token, body: { name: 'Mum', phone_number: '0123456789' } });
    assert.equal(response.status, 201, response.text);
    const id = response.body.id;
    assert.deepEqual(response.body, {
      id,
      url: `${PUBLIC_URL}/app/emergency-contacts/${id}/`,
      name: 'Mum',
      relation: '',
      phone_number: '0123456789',
      alt_phone_number: '',
      email: '',
    });
    assert.equal(response.headers.get('location'), response.body.url);

    const full = await server.request('POST', path, {
      token: owner.token,
      body: {
        name: 'Dr Who',
        relation: 'Doctor',
        phone_number: '1234567890123456',
        alt_phone_number: '987654321',
        email: 'doc@example.com',
      },
    });
    assert.equal(full.status, 201, full.text);
    assert.deepEqual((await server.request('GET', path, { token: owner.token })).body, [response.body, full.body]);
  });

  test('phones match ^1?\\d{9,15}$ or E.164 ^\\+[1-9]\\d{6,14}$ (alt may be empty); email may be empty or an address', async () => {
    const owner = await createOwner(server);
    const path = `/app/users/${owner.appUserId}/emergency-contacts/`;
    const valid = { name: 'A', phone_number: '123456789' };
    const refused: Array<[object, string]> = [
      [{ name: 'A' }, 'phone_number'],
      [{ ...valid, phone_number: '' }, 'phone_number'],
      [{ ...valid, phone_number: '12345678' }, 'phone_number'],
      [{ ...valid, phone_number: '2234567890123456' }, 'phone_number'],
      [{ ...valid, phone_number: '+0123456789' }, 'phone_number'],
      [{ ...valid, phone_number: '+12345' }, 'phone_number'],
      [{ ...valid, phone_number: '+1234567890123456' }, 'phone_number'],
      [{ ...valid, phone_number: '012 345 6789' }, 'phone_number'],
      [{ ...valid, phone_number: 123456789 }, 'phone_number'],
      [{ ...valid, alt_phone_number: '12' }, 'alt_phone_number'],
      [{ ...valid, email: 'not-an-address' }, 'email'],
      [{ ...valid, email: null }, 'email'],
      [{ ...valid, relation: 'r'.repeat(256) }, 'relation'],
      [{ ...valid, name: '' }, 'name'],
    ];
    for (const [body, field] of refused) {
      const response = await server.request('POST', path, { token: owner.token, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body), [field], JSON.stringify(response.body));
    }
    const phone = await server.request('POST', path, { token: owner.token, body: { ...valid, phone_number: 'abc' } });
    assert.deepEqual(phone.body, { phone_number: [PHONE_MESSAGE] });
    const email = await server.request('POST', path, { token: owner.token, body: { ...valid, email: 'nope' } });
    assert.deepEqual(email.body, { email: ['Enter a valid email address.'] });
    assert.deepEqual((await server.request('GET', path, { token: owner.token })).body, []);

    const accepted = await server.request('POST', path, {
      token: owner.token,
      body: { ...valid, alt_phone_number: '', email: '', relation: '' },
    });
    assert.equal(accepted.status, 201);
    const international = await server.request('POST', path, {
      token: owner.token,
      body: { ...valid, phone_number: '+447700900456', alt_phone_number: '+15555550123' },
    });
    assert.equal(international.status, 201, international.text);
    assert.equal(international.body.phone_number, '+447700900456', 'kept as written');
  });

  test('detail: GET, PATCH, PUT (name and phone required), DELETE', async () => {
    const owner = await createOwner(server);
    const created = await server.request('POST', `/app/users/${owner.appUserId}/emergency-contacts/`, {
      token: owner.token,
      body: { name: 'Dad', phone_number: '123456789', email: 'dad@example.com' },
    });
    const path = `/app/emergency-contacts/${created.body.id}/`;
    assert.deepEqual((await server.request('GET', path, { token: owner.token })).body, created.body);

    const patched = await server.request('PATCH', path, { token: owner.token, body: { relation: 'Father', email: '' } });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body, { ...created.body, relation: 'Father', email: '' });

    const bad = await server.request('PATCH', path, { token: owner.token, body: { phone_number: '1', relation: 'Changed' } });
    assert.equal(bad.status, 400);
    assert.equal((await server.request('GET', path, { token: owner.token })).body.relation, 'Father');

    const putWithout = await server.request('PUT', path, { token: owner.token, body: { name: 'Dad' } });
    assert.deepEqual(putWithout.body, { phone_number: ['This field is required.'] });
    const put = await server.request('PUT', path, { token: owner.token, body: { name: 'Papa', phone_number: '1987654321' } });
    assert.equal(put.status, 200);
    assert.deepEqual([put.body.name, put.body.phone_number, put.body.relation], ['Papa', '1987654321', 'Father']);

    assert.equal((await server.request('DELETE', path, { token: owner.token })).status, 204);
    assert.equal((await server.request('GET', path, { token: owner.token })).status, 404);
  });

  test('PATCH and PUT ignore unknown and read-only fields (an unknown one was a 500, account_id moved the contact)', async () => {
    const owner = await createOwner(server);
    const stranger = await createOwner(server);
    const created = await server.request('POST', `/app/users/${owner.appUserId}/emergency-contacts/`, {
      token: owner.token,
      body: { name: 'Dad', phone_number: '123456789' },
    });
    const path = `/app/emergency-contacts/${created.body.id}/`;
    const extras = {
      '': 'x',
      extra: 1,
      id: created.body.id + 1000,
      url: 'http://evil.example/',
      account_id: stranger.id,
      app_user_id: stranger.appUserId,
    };
    for (const method of ['PATCH', 'PUT']) {
      const response = await server.request(method, path, {
        token: owner.token,
        body: { name: `Papa ${method}`, phone_number: '1987654321', ...extras },
      });
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body, { ...created.body, name: `Papa ${method}`, phone_number: '1987654321' });
    }
    assert.equal((await server.request('GET', path, { token: owner.token })).body.name, 'Papa PUT');
    assert.deepEqual(
      (await server.request('GET', `/app/users/${stranger.appUserId}/emergency-contacts/`, { token: stranger.token })).body,
      [],
    );
  });

  test('list and create under a missing app user are 404', async () => {
    const owner = await createOwner(server);
    for (const method of ['GET', 'POST']) {
      const response = await server.request(method, '/app/users/31337/emergency-contacts/', {
        token: owner.token,
        body: method === 'POST' ? { name: 'A', phone_number: '123456789' } : undefined,
      });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
  });
});
