import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { grantOperator } from '../../src/admin/admin-service.ts';
import { createAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('/account/profile/', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('GET: {id, email, first_name, last_name, language, is_operator} of the caller', async () => {
    const account = await createAccount(server, { firstName: 'Ada', lastName: 'Lovelace' });
    const response = await server.request('GET', '/account/profile/', { token: account.token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      id: account.id,
      email: account.email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      language: 'en',
      is_operator: false,
    });
    const noSlash = await server.request('GET', '/account/profile', { token: account.token });
    assert.equal(noSlash.status, 200);
  });

  test('anonymous: 401 with WWW-Authenticate', async () => {
    for (const method of ['GET', 'PATCH', 'PUT']) {
      const response = await server.request(method, '/account/profile/', { body: method === 'GET' ? undefined : { first_name: 'X' } });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Token');
    }
  });

  test('PATCH changes the names given; email is read-only and ignored', async () => {
    const account = await createAccount(server);
    const response = await server.request('PATCH', '/account/profile/', {
      token: account.token,
      body: { first_name: '  Grace ', email: 'someone-else@example.com', id: 999 },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      id: account.id,
      email: account.email,
      first_name: 'Grace',
      last_name: 'Lovelace',
      language: 'en',
      is_operator: false,
    });
    const last = await server.request('PATCH', '/account/profile/', { token: account.token, body: { last_name: '' } });
    assert.deepEqual(last.body, {
      id: account.id,
      email: account.email,
      first_name: 'Grace',
      last_name: '',
      language: 'en',
      is_operator: false,
    });
    const read = await server.request('GET', '/account/profile/', { token: account.token });
    assert.deepEqual(read.body, last.body);
    const empty = await server.request('PATCH', '/account/profile/', { token: account.token });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, last.body);
  });

  test('PUT needs both names', async () => {
    const account = await createAccount(server);
    const missing = await server.request('PUT', '/account/profile/', { token: account.token, body: { first_name: 'Only' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { last_name: ['This field is required.'] });
    const full = await server.request('PUT', '/account/profile/', {
      token: account.token,
      body: { first_name: 'Alan', last_name: 'Turing' },
    });
    assert.equal(full.status, 200);
    assert.equal(full.body.first_name, 'Alan');
    assert.equal(full.body.last_name, 'Turing');
  });

  test("PATCH and PUT answer the account as GET shows it, an operator's too", async () => {
    const account = await createAccount(server, { firstName: 'Ada', lastName: 'Lovelace' });
    await grantOperator(server.server.ctx, { via: 'cli', user: 'test@localhost' }, account.id);
    const patched = await server.request('PATCH', '/account/profile/', { token: account.token, body: { last_name: 'King' } });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body, {
      id: account.id,
      email: account.email,
      first_name: 'Ada',
      last_name: 'King',
      language: 'en',
      is_operator: true,
    });
    assert.deepEqual((await server.request('GET', '/account/profile/', { token: account.token })).body, patched.body);
    const put = await server.request('PUT', '/account/profile/', {
      token: account.token,
      body: { first_name: 'Augusta', last_name: 'King' },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { ...patched.body, first_name: 'Augusta' });
    assert.deepEqual((await server.request('GET', '/account/profile/', { token: account.token })).body, put.body);
  });

  test('bad values: field-keyed 400, nothing changed', async () => {
    const account = await createAccount(server, { firstName: 'Kept' });
    const typed = await server.request('PATCH', '/account/profile/', { token: account.token, body: { first_name: 42, last_name: null } });
    assert.equal(typed.status, 400);
    assert.deepEqual(typed.body, { first_name: ['Not a valid string.'], last_name: ['This field may not be null.'] });
    const long = await server.request('PATCH', '/account/profile/', { token: account.token, body: { first_name: 'x'.repeat(151) } });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body, { first_name: ['Ensure this field has no more than 150 characters.'] });
    const read = await server.request('GET', '/account/profile/', { token: account.token });
    assert.equal(read.body.first_name, 'Kept');
  });

  test('other methods: 405 with Allow', async () => {
    const account = await createAccount(server);
    const response = await server.request('DELETE', '/account/profile/', { token: account.token });
    assert.equal(response.status, 405);
    const allow = response.headers.get('allow') ?? '';
    for (const method of ['GET', 'PATCH', 'PUT']) assert.match(allow, new RegExp(method));
  });
});
