// The development inbox: on with e-mail written to files and the service on this machine
// (a loopback listener and PUBLIC_URL, not production, no proxy trusted) or DEV_INBOX=on,
// where it lists what was written, newest first, with the links that do what the e-mail asks;
// a plain 404 in every other configuration, and to a request whose Host is not a loopback name.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { devInboxEnabled } from '../../src/mail/dev-inbox.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { WAIT_MS } from '../helpers/wait.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** GET `path` with this Host header (fetch would send the URL's own). */
function getWithHost(server: TestServer, path: string, host: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = httpGet(`${server.url}${path}`, { headers: { ...headers, host } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
  });
}

async function inboxOf(server: TestServer, count: number) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const answer = await server.request('GET', '/dev/mail/messages/');
    assert.equal(answer.status, 200, answer.text);
    if (answer.body.length >= count) return answer.body as Array<{ to: string; subject: string; text: string; links: string[] }>;
    assert.ok(Date.now() < deadline, `${answer.body.length} e-mails in the inbox, waited for ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A web client build of one page, whose <head> shows what the service adds to it. */
function webClient(): string {
  const dir = tempDir('dev-inbox-web-');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
  return dir;
}

describe('development inbox', () => {
  test('on: e-mails newest first, each with its links; the verification link verifies', async () => {
    const server = await startTestServer({ PUBLIC_URL: 'http://localhost:8000', WEB_CLIENT_DIR: webClient() });
    try {
      const password = 'a long and unusual passphrase';
      assert.equal((await server.request('POST', '/auth/register/', { body: { email: 'first@example.com', password } })).status, 201);
      await inboxOf(server, 1);
      assert.equal((await server.request('POST', '/auth/register/', { body: { email: 'second@example.com', password } })).status, 201);
      const mails = await inboxOf(server, 2);
      assert.deepEqual(
        mails.map((mail) => mail.to),
        ['second@example.com', 'first@example.com'],
      );
      const link = mails[1]!.links.find((url) => url.startsWith('http://localhost:8000/verify-email?key='));
      assert.ok(link, `a verification link in ${mails[1]!.text}`);
      assert.ok(mails[1]!.text.includes(link));
      const key = new URL(link).searchParams.get('key');
      const verified = await server.request('POST', '/account/verify-email/', { body: { key, password } });
      assert.equal(verified.status, 200, verified.text);
      // The page is served, and every page tells the client (the sign-up page links to it).
      const page = await fetch(`${server.url}/dev/mail`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<meta name="dev-inbox" content="\/dev\/mail"><\/head>/);
      assert.match(await (await fetch(`${server.url}/sign-up`)).text(), /<meta name="dev-inbox"/);
      // Not part of the API's document.
      const openapi = await server.request('GET', '/openapi.json');
      assert.ok(!Object.keys(openapi.body.paths).some((path) => path.startsWith('/dev/')));
    } finally {
      await server.close();
    }
  });

  const off: Array<[string, Record<string, string>]> = [
    ['e-mail goes over SMTP', { PUBLIC_URL: 'http://localhost:8000', SMTP_URL: 'smtp://127.0.0.1:1' }],
    ['PUBLIC_URL is not this machine (a reverse proxy would expose it)', { PUBLIC_URL: 'https://profiles.example.com' }],
    ['it runs in production (NODE_ENV), not opted in', { PUBLIC_URL: 'http://localhost:8000', NODE_ENV: 'production' }],
    ['a proxy is trusted (TRUST_PROXY), not opted in', { PUBLIC_URL: 'http://localhost:8000', TRUST_PROXY: '127.0.0.1' }],
    ['DEV_INBOX=off', { PUBLIC_URL: 'http://localhost:8000', DEV_INBOX: 'off' }],
  ];
  for (const [why, env] of off) {
    test(`off when ${why}: 404 for the list and the page`, async () => {
      const server = await startTestServer({ WEB_CLIENT_DIR: webClient(), ...env });
      try {
        const list = await server.request('GET', '/dev/mail/messages/');
        assert.equal(list.status, 404);
        assert.deepEqual(list.body, { detail: 'Not found.' });
        assert.equal((await fetch(`${server.url}/dev/mail`)).status, 404);
        const signUp = await fetch(`${server.url}/sign-up`);
        assert.equal(signUp.status, 200);
        assert.doesNotMatch(await signUp.text(), /dev-inbox/);
      } finally {
        await server.close();
      }
    });
  }

  test('to a Host that is not a loopback name: 404 for the list and the page, and no page says it is there', async () => {
    const server = await startTestServer({ PUBLIC_URL: 'http://localhost:8000', WEB_CLIENT_DIR: webClient() });
    try {
      for (const host of ['localhost:8000', '127.0.0.1', '[::1]:8000']) {
        assert.equal((await getWithHost(server, '/dev/mail/messages/', host)).status, 200, host);
        assert.equal((await getWithHost(server, '/dev/mail', host)).status, 200, host);
      }
      // A hostile page's name made to point at 127.0.0.1 (DNS rebinding), or a proxy's.
      for (const host of ['evil.example', 'evil.example:8000', 'localhost.evil.example', '127.0.0.1.nip.io', '10.0.0.1']) {
        const list = await getWithHost(server, '/dev/mail/messages/', host);
        assert.deepEqual([list.status, list.text], [404, '{"detail":"Not found."}'], host);
        const page = await getWithHost(server, '/dev/mail', host);
        assert.deepEqual([page.status, page.text], [404, '{"detail":"Not found."}'], host);
        const signUp = await getWithHost(server, '/sign-up', host);
        assert.equal(signUp.status, 200);
        assert.doesNotMatch(signUp.text, /dev-inbox/);
      }
    } finally {
      await server.close();
    }
  });

  test('DEV_INBOX=on behind a proxy in production: on, to loopback Hosts only, forwarded ones too', async () => {
    const server = await startTestServer({
      PUBLIC_URL: 'https://profiles.example.com',
      NODE_ENV: 'production',
      TRUST_PROXY: '127.0.0.1',
      DEV_INBOX: 'on',
      WEB_CLIENT_DIR: webClient(),
    });
    try {
      assert.equal((await getWithHost(server, '/dev/mail/messages/', 'localhost')).status, 200);
      assert.equal((await getWithHost(server, '/dev/mail', 'localhost')).status, 200);
      // The proxy's own request to the service names localhost; the browser's asked for another host.
      const forwarded = await getWithHost(server, '/dev/mail/messages/', 'localhost', { 'x-forwarded-host': 'profiles.example.com' });
      assert.equal(forwarded.status, 404);
      assert.equal((await getWithHost(server, '/dev/mail/messages/', 'profiles.example.com')).status, 404);
    } finally {
      await server.close();
    }
  });

  test('on only with SMTP_URL unset, a loopback HOST and a loopback PUBLIC_URL', () => {
    const on = (env: Record<string, string>) => devInboxEnabled(loadConfig(env));
    assert.equal(on({}), true, 'the defaults: 127.0.0.1, http://localhost:8000, files');
    assert.equal(on({ HOST: '::1' }), true);
    assert.equal(on({ HOST: '127.0.0.2', PUBLIC_URL: 'http://127.0.0.1:8000' }), true);
    assert.equal(on({ HOST: '0.0.0.0' }), false);
    assert.equal(on({ HOST: '192.168.1.10' }), false);
    assert.equal(on({ PUBLIC_URL: 'https://profiles.example.com' }), false);
    assert.equal(on({ SMTP_URL: 'smtp://mail.example:587' }), false);
    // Not production, no proxy in front, or else an explicit DEV_INBOX=on.
    assert.equal(on({ NODE_ENV: 'production' }), false);
    assert.equal(on({ NODE_ENV: 'development' }), true);
    assert.equal(on({ TRUST_PROXY: 'true' }), false);
    assert.equal(on({ TRUST_PROXY: '127.0.0.1' }), false);
    assert.equal(on({ DEV_INBOX: 'off' }), false);
    assert.equal(on({ DEV_INBOX: 'auto', NODE_ENV: 'production' }), false);
    assert.equal(on({ DEV_INBOX: 'on', NODE_ENV: 'production', TRUST_PROXY: 'true', HOST: '0.0.0.0' }), true);
    assert.throws(() => loadConfig({ DEV_INBOX: 'on', SMTP_URL: 'smtp://mail.example:587' }), /DEV_INBOX=on needs SMTP_URL unset/);
    assert.throws(() => loadConfig({ DEV_INBOX: 'yes' }), /DEV_INBOX must be "auto", "on" or "off"/);
  });
});
