// The request log keeps where each request went, never a secret its URL carries: an emergency
// link's token (its page and its API path, 404 and 405 included), the key of a reset or
// verification page, a signed media URL's signature, a provider's code and state.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { createOwner } from '../app-data/fixtures.ts';
import { createLink } from '../emergency/emergency-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { loggableUrl } from '../../src/observability/request-log.ts';

/** A secret no other line of the log could hold by chance. */
const secret = () => randomBytes(16).toString('base64url');

describe('the request log', () => {
  let server: TestServer;
  const lines: string[] = [];

  before(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    server = await startTestServer({}, { log: pino({ level: 'info' }, sink) as FastifyBaseLogger });
  });
  after(() => server?.close());

  /** The URLs of the log's request lines, and the whole log, after `requests` ran. */
  async function logOf(requests: () => Promise<unknown>): Promise<{ urls: string[]; text: string }> {
    lines.length = 0;
    await requests();
    const text = lines.join('');
    const urls = lines.map((line) => JSON.parse(line).req?.url).filter((url): url is string => typeof url === 'string');
    return { urls, text };
  }

  test("an emergency link's token: its page and its API, every method, 404 and 405", async () => {
    const owner = await createOwner(server);
    const { token } = await createLink(server, owner);
    const statuses: number[] = [];
    const { urls, text } = await logOf(async () => {
      for (const [method, path] of [
        ['GET', `/emergency/${token}`],
        ['GET', `/emergency/${token}`],
        ['POST', `/emergency/${token}`],
        ['GET', `/public/emergency/${token}/`],
        ['HEAD', `/public/emergency/${token}/`],
        ['POST', `/public/emergency/${token}/`],
        ['DELETE', `/public/emergency/${token}/`],
        ['GET', `/public/emergency/${token}/more/`],
        ['GET', `//public//emergency/${token}?x=1`],
      ] as const) {
        statuses.push((await server.request(method, path, method === 'POST' ? { body: { pin: '1234' } } : {})).status);
      }
    });
    // The page (or the 503 of a client not built), its 405; the API's 200s, the PIN on a link without one, 405, 404.
    assert.deepEqual(statuses.slice(3), [200, 200, 200, 405, 404, 200]);
    assert.equal(statuses[2], 405);
    assert.ok(!text.includes(token), 'the token is in the log');
    for (const url of ['/emergency/<token>', '/public/emergency/<token>/', '/public/emergency/<token>/more/']) {
      assert.ok(urls.includes(url), `${url} is not in the log: ${urls.join(' ')}`);
    }
  });

  test('the keys of the reset and verification pages, a signed URL’s signature, a provider’s code and state', async () => {
    const secrets = Array.from({ length: 7 }, secret);
    const [resetKey, verifyKey, signature, code, state, idToken, apiKey] = secrets;
    const { urls, text } = await logOf(async () => {
      await server.request('GET', `/reset-password?key=${resetKey}`);
      await server.request('GET', `/verify-email?lang=en&key=${verifyKey}`);
      await server.request('GET', `/media/files/0123456789abcdef0123456789abcdef.png?expires=4102444800&signature=${signature}`);
      await server.request('GET', `/auth/oidc/nowhere/callback/?code=${code}&state=${state}`);
      await server.request('POST', `/auth/oidc/nowhere/callback/?id_token=${idToken}`);
      // Unknown paths and methods too, and a parameter name spelled otherwise.
      await server.request('PUT', `/reset-password?KEY=${apiKey}`);
    });
    for (const value of secrets) assert.ok(!text.includes(value), `a secret is in the log: ${value}`);
    for (const url of [
      '/reset-password?key=<redacted>',
      '/verify-email?lang=en&key=<redacted>',
      '/media/files/0123456789abcdef0123456789abcdef.png?expires=4102444800&signature=<redacted>',
      '/auth/oidc/nowhere/callback/?code=<redacted>&state=<redacted>',
      '/auth/oidc/nowhere/callback/?id_token=<redacted>',
      '/reset-password?KEY=<redacted>',
    ]) {
      assert.ok(urls.includes(url), `${url} is not in the log: ${urls.join(' ')}`);
    }
  });
});

describe('loggableUrl', () => {
  test('keeps everything but the secrets', () => {
    assert.equal(loggableUrl('/app/users/1/profiles/?limit=5'), '/app/users/1/profiles/?limit=5');
    assert.equal(loggableUrl('/Emergency/abc'), '/Emergency/<token>');
    assert.equal(loggableUrl('/public/emergency/abc/?pin=1'), '/public/emergency/<token>/?pin=<redacted>');
    assert.equal(loggableUrl('/x?%6Bey=1&a&signature'), '/x?%6Bey=<redacted>&a&signature=<redacted>');
    assert.equal(loggableUrl('/x?%E0%A4%A=1'), '/x?%E0%A4%A=1');
  });
});
