// Every API response is marked not to be cached, sniffed or framed (a login answer holds a
// token); the documentation pages carry a content security policy and refuse framing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { download, png, upload } from '../media/media-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

function assertApiHeaders(headers: Headers, what: string): void {
  assert.equal(headers.get('cache-control'), 'no-store', what);
  assert.equal(headers.get('x-content-type-options'), 'nosniff', what);
  assert.equal(headers.get('x-frame-options'), 'DENY', what);
  assert.match(headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, what);
}

describe('security headers', () => {
  let server: TestServer;
  let owner: Owner;
  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
  });
  after(() => server.close());

  test('API answers, successes and errors alike, are no-store, nosniff and unframeable', async () => {
    const login = await server.request('POST', '/auth/login/', { body: { username: owner.email, password: owner.password } });
    assert.equal(login.status, 200);
    assertApiHeaders(login.headers, 'login');
    assertApiHeaders((await server.request('GET', `/app/users/${owner.appUserId}/`, { token: owner.token })).headers, 'read');
    assertApiHeaders((await server.request('GET', '/app/users/999999/', { token: owner.token })).headers, '404');
    assertApiHeaders(
      (await server.request('POST', '/auth/login/', { raw: '{', headers: { 'content-type': 'application/json' } })).headers,
      '400',
    );
    assertApiHeaders((await server.request('GET', '/no/such/path')).headers, 'unknown path');
    assert.equal((await server.request('GET', '/health')).headers.get('strict-transport-security'), null, 'no HSTS over plain HTTP');
  });

  test('a signed media file keeps its own private caching and is not sniffed', async () => {
    const uploaded = await upload(server, owner.token, owner.appUserId, { name: 'p.png', file: png() });
    assert.equal(uploaded.status, 201, uploaded.text);
    const file = await download(server, uploaded.body.file);
    assert.equal(file.status, 200);
    assert.match(file.headers.get('cache-control') ?? '', /^private, max-age=\d+$/);
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
  });

  test('/docs: a content security policy that allows its own scripts only, and no framing', async () => {
    const page = await fetch(`${server.url}/docs/static/index.html`);
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'self'/);
    assert.doesNotMatch(csp, /upgrade-insecure-requests/, 'a plain-HTTP run keeps its own files on HTTP');
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  });

  test('behind TLS (an https PUBLIC_URL), HSTS is sent', async () => {
    const tls = await startTestServer({ PUBLIC_URL: 'https://api.example' });
    try {
      assert.match((await tls.request('GET', '/health')).headers.get('strict-transport-security') ?? '', /max-age=\d+/);
    } finally {
      await tls.close();
    }
  });
});
