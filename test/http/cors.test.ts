// docs/web-client.md: CORS_ORIGINS lets pages of those origins call the API from a browser, preflight
// included; other origins get no CORS header; unset, nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const APP = 'https://app.example.com';

function preflight(server: TestServer, path: string, origin: string, method = 'POST', headers = 'authorization, content-type') {
  return fetch(`${server.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

describe('CORS with CORS_ORIGINS set', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ CORS_ORIGINS: `${APP}, http://localhost:5173` });
  });
  after(() => server.close());

  test('a preflight from an allowed origin: 204 with the methods, headers and how long to keep it; no token needed', async () => {
    const response = await preflight(server, '/app/users/', APP);
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), APP);
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /PATCH/);
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /Authorization/i);
    assert.equal(response.headers.get('access-control-max-age'), '600');
    assert.equal(response.headers.get('access-control-allow-credentials'), null, 'no cookies are involved');
  });

  test('the answer to an allowed origin carries its origin and exposes Location, Retry-After and X-Request-Id; errors too', async () => {
    const account = await createAccount(server);
    const created = await fetch(`${server.url}/app/users/`, {
      method: 'POST',
      headers: { origin: 'http://localhost:5173', authorization: `Token ${account.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    assert.match(created.headers.get('vary') ?? '', /Origin/i);
    const exposed = (created.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const header of ['location', 'retry-after', 'x-request-id']) assert.ok(exposed.includes(header), exposed);
    const refused = await fetch(`${server.url}/app/users/`, { headers: { origin: APP } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), APP, 'the page can read why it was refused');
  });

  test('another origin gets no CORS header, on the preflight or the request', async () => {
    const response = await preflight(server, '/app/users/', 'https://evil.example');
    assert.equal(response.headers.get('access-control-allow-origin'), null);
    const get = await fetch(`${server.url}/health`, { headers: { origin: 'https://evil.example' } });
    assert.equal(get.status, 200);
    assert.equal(get.headers.get('access-control-allow-origin'), null);
  });

  test('OPTIONS that is no preflight still answers 405 with Allow', async () => {
    const response = await fetch(`${server.url}/app/users/`, { method: 'OPTIONS' });
    assert.equal(response.status, 405);
    assert.match(response.headers.get('allow') ?? '', /GET/);
  });
});

describe('CORS with CORS_ORIGINS unset', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('no cross-origin access: the preflight is 405, answers carry no CORS header', async () => {
    const response = await preflight(server, '/auth/login/', APP);
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
    const get = await fetch(`${server.url}/health`, { headers: { origin: APP } });
    assert.equal(get.headers.get('access-control-allow-origin'), null);
  });
});
