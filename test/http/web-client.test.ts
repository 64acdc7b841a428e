// The web client as the service serves it (docs/web-client.md): its pages answer index.html with a
// policy of their own and revalidation, its hashed files are cached for good, and the API's
// paths — unknown ones included — keep their JSON answers and strict headers. The client is
// built for real (Vite, scripts/build-web.ts) into a temporary folder once.
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildWeb } from '../../scripts/build-web.ts';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const PAGES = [
  '/',
  '/sign-up',
  '/sign-in',
  '/verify-email?key=x',
  '/forgot-password',
  '/reset-password?key=x',
  '/settings/mfa',
  '/data/topics/7',
  '/data/emergency/links',
  '/emergency/AAAAAAAAAAAAAAAAAAAAAA',
];

describe('web client', () => {
  let dir: string;
  let server: TestServer;
  let initialGzipped: number;
  before(async () => {
    dir = tempDir('profile-service-web-');
    initialGzipped = await buildWeb(join(dir, 'web'), () => {});
    server = await startTestServer({ WEB_CLIENT_DIR: join(dir, 'web') });
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the build stays within the initial JavaScript budget', () => {
    assert.ok(initialGzipped > 1000 && initialGzipped <= 80 * 1024, `${initialGzipped} bytes gzipped`);
  });

  test('every page answers the client, revalidated, with the pages policy', async () => {
    for (const path of PAGES) {
      const response = await server.request('GET', path);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/, path);
      assert.match(response.text, /<div id="app"><\/div>/, path);
      // An emergency link's page is never stored (its address is the link's token).
      assert.equal(response.headers.get('cache-control'), path.startsWith('/emergency/') ? 'no-store' : 'no-cache', path);
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.match(csp, /style-src 'self'(;|$)/, path);
      assert.match(csp, /connect-src 'self'(;|$)/, path);
      assert.match(csp, new RegExp(`img-src 'self' data: blob: ${PUBLIC_URL}(;|$)`), path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
    }
  });

  test('the page has no inline script, and its files are immutable', async () => {
    const page = await server.request('GET', '/');
    assert.doesNotMatch(page.text, /<script(?![^>]*\bsrc=)[^>]*>/, 'every script is a file');
    const files = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    assert.ok(files.some((file) => file.endsWith('.js')) && files.some((file) => file.endsWith('.css')), files.join());
    for (const file of files) {
      const response = await server.request('GET', file);
      assert.equal(response.status, 200, file);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable', file);
      assert.match(response.headers.get('content-type') ?? '', file.endsWith('.js') ? /javascript/ : /text\/css/, file);
    }
    // A lazily loaded page's file too.
    const lazy = readdirSync(join(dir, 'web/assets')).find((name) => name.startsWith('gallery-') && name.endsWith('.js'));
    assert.ok(lazy);
    assert.equal((await server.request('GET', `/assets/${lazy}`)).status, 200);
  });

  test('a missing file and unknown API paths keep the JSON 404', async () => {
    for (const path of [
      '/assets/nope.js',
      '/assets/..%2Findex.html',
      '/assets/.vite',
      '/app/nope/',
      '/account/nope/',
      '/auth/nope/',
      '/media/nope',
      '/public/nope',
      '/nope',
    ]) {
      const response = await server.request('GET', path);
      assert.equal(response.status, 404, path);
      assert.deepEqual(response.body, { detail: 'Not found.' }, path);
      assert.equal(response.headers.get('cache-control'), 'no-store', path);
      assert.equal(response.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'", path);
    }
  });

  test('the API is unaffected: its answers, headers and token checks', async () => {
    const health = await server.request('GET', '/health');
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok' });
    assert.equal(health.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
    assert.equal((await server.request('GET', '/app/users/')).status, 401);
    assert.equal((await server.request('GET', '/account/profile/')).status, 401);
    const document = await server.request('GET', '/openapi.json');
    assert.equal(document.status, 200);
    const paths = Object.keys(document.body.paths);
    assert.ok(
      !paths.some((path) => path === '/' || path.startsWith('/assets') || path.startsWith('/sign-')),
      'pages are not API operations',
    );
    // A page path answers GET only.
    const post = await server.request('POST', '/sign-in', { body: {} });
    assert.equal(post.status, 405);
    assert.match(post.headers.get('allow') ?? '', /GET/);
  });
});

describe('web client not built', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    dir = tempDir('profile-service-no-web-');
    server = await startTestServer({ WEB_CLIENT_DIR: dir });
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a page says how to build it, and the API works', async () => {
    const page = await server.request('GET', '/');
    assert.equal(page.status, 503);
    assert.match(page.text, /npm run build/);
    assert.equal((await server.request('GET', '/assets/index.js')).status, 404);
    assert.equal((await server.request('GET', '/health')).status, 200);
  });
});
