import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/accounts.ts';

describe('HTTP conventions', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('GET /health answers 200 with the database up, with or without the trailing slash', async () => {
    for (const path of ['/health', '/health/']) {
      const response = await server.request('GET', path);
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { status: 'ok' });
    }
  });

  test('unknown path: 404 {"detail"}', async () => {
    const response = await server.request('GET', '/no/such/thing/');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { detail: 'Not found.' });
  });

  test('known path, wrong method: 405 with Allow', async () => {
    const response = await server.request('DELETE', '/health/');
    assert.equal(response.status, 405);
    assert.match(response.headers.get('allow') ?? '', /GET/);
    assert.equal(typeof response.body.detail, 'string');
  });

  test('/openapi.json is an OpenAPI 3.1 document; /docs is served without a token', async () => {
    const doc = await server.request('GET', '/openapi.json');
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    assert.ok(doc.body.paths['/health']);
    const docs = await fetch(`${server.url}/docs/`, { redirect: 'manual' });
    assert.ok(docs.status === 200 || docs.status === 302, `docs answered ${docs.status}`);
  });

  test('a bad token is 401 with WWW-Authenticate: Token; a good one authenticates', async () => {
    const account = await createAccount(server);
    const missing = await server.request('GET', '/account/profile/');
    assert.ok([401, 404].includes(missing.status));
    const bad = await server.request('GET', '/openapi.json', { headers: { authorization: 'Token nope' } });
    assert.equal(bad.status, 200, 'public routes ignore the header');
    assert.ok(account.token.length >= 43);
  });
});
