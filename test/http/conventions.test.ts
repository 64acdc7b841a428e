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

describe('a path parameter longer than 100 characters', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test("answers the route's 404, or its 405, as any parameter that names nothing", async () => {
    const { token } = await createAccount(server);
    const id = '9'.repeat(300);
    const linkToken = 'A'.repeat(400);
    const cases: [method: string, path: string, status: number, allow?: string][] = [
      ['GET', `/app/users/${id}/`, 404],
      ['HEAD', `/app/users/${id}/`, 404],
      ['DELETE', `/app/users/${id}/`, 404],
      ['PUT', `/app/users/${id}/`, 404],
      ['GET', `/app/users/${id}/profiles/`, 404],
      ['PATCH', `/app/profiles/${id}/`, 404],
      ['GET', `/app/profiles/${id}/topics/`, 404],
      ['POST', `/app/users/${id}/emergency-links/`, 404],
      ['GET', `/public/emergency/${linkToken}/`, 404],
      ['HEAD', `/public/emergency/${linkToken}/`, 404],
      ['POST', `/public/emergency/${linkToken}/`, 404],
      ['PUT', `/public/emergency/${linkToken}/`, 405, 'GET, POST, HEAD'],
      ['GET', `/media/files/${'a'.repeat(200)}.png?expires=1&signature=x`, 404],
      // A provider's name has a length limit of its own, checked as any field's.
      ['GET', `/auth/oidc/${'x'.repeat(200)}/start/`, 400],
    ];
    const send = (method: string, path: string) =>
      server.request(method, path, { token, ...(['POST', 'PATCH'].includes(method) ? { body: { pin: '1234' } } : {}) });
    for (const [method, path, status, allow] of cases) {
      const response = await send(method, path);
      const what = `${method} ${path}`;
      assert.equal(response.status, status, what);
      assert.equal(response.headers.get('allow'), allow ?? null, what);
      // The same as for a short parameter that names nothing.
      const short = await send(method, path.replace(/([a-zA-Z0-9])\1{99,}/, '$1$1$1'));
      if (status !== 400) assert.deepEqual([short.status, short.text], [response.status, response.text], what);
      if (method === 'HEAD') continue;
      const body =
        status === 405
          ? { detail: `Method "${method}" not allowed.` }
          : status === 400
            ? { name: ['Ensure this field has no more than 30 characters.'] }
            : { detail: 'Not found.' };
      assert.deepEqual(response.body, body, what);
      // The public link's 404 keeps its headers: never stored, sent on or indexed.
      if (path.startsWith('/public/') && status === 404) assert.equal(response.headers.get('x-robots-tag'), 'noindex', what);
    }
    // Longer than the router takes: Node refuses the request line itself.
    assert.equal((await send('GET', `/app/users/${'9'.repeat(17_000)}/`)).status, 431);
  });
});
