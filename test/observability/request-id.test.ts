// X-Request-Id (docs/production.md): on every answer, errors included; a sane incoming id is kept,
// any other replaced; and it is the reqId of every log line of the request.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { createAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createAppUser, download, png, storageKeyOf, upload } from '../media/media-fixtures.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A request sent as written (fetch refuses some of the header values tried here), answering the X-Request-Id. */
function rawRequestId(url: string, path: string, headers: Record<string, string>): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.headers['x-request-id'] as string | undefined));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('X-Request-Id', () => {
  let server: TestServer;
  const lines: Array<Record<string, unknown>> = [];

  before(async () => {
    // A logger of the test's own, so that the log lines can be read.
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    server = await startTestServer({}, { log: log as FastifyBaseLogger });
  });
  after(() => server.close());

  test('every answer carries one, a new one each time, errors included', async () => {
    const answers = {
      200: await server.request('GET', '/health'),
      400: await server.request('POST', '/auth/login/', { raw: '{"username": ', headers: { 'content-type': 'application/json' } }),
      401: await server.request('GET', '/account/profile/'),
      404: await server.request('GET', '/no/such/path/'),
      405: await server.request('DELETE', '/health'),
      413: await server.request('POST', '/auth/login/', {
        raw: JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      }),
      415: await server.request('POST', '/auth/login/', { raw: 'hello', headers: { 'content-type': 'text/plain' } }),
      // A path the router cannot decode, answered before any hook runs.
      '400 (malformed URL)': await server.request('GET', '/app/profiles/%E0%A4%A/'),
    };
    const ids = new Set<string>();
    for (const [expected, response] of Object.entries(answers)) {
      assert.equal(response.status, Number.parseInt(expected, 10), `${expected}: ${response.text}`);
      const id = response.headers.get('x-request-id');
      assert.match(id ?? '', UUID, `${expected}: ${id}`);
      ids.add(id!);
    }
    assert.equal(ids.size, Object.keys(answers).length, 'each request has an id of its own');
    assert.deepEqual(answers['400 (malformed URL)'].body, { detail: 'Malformed URL.' });
  });

  test('a sane incoming id is kept', async () => {
    for (const id of ['abc-123', 'trace:7f3a.b_c-d', 'a', 'x'.repeat(128)]) {
      const response = await server.request('GET', '/health', { headers: { 'x-request-id': id } });
      assert.equal(response.headers.get('x-request-id'), id);
    }
    const notFound = await server.request('GET', '/no/such/path/', { headers: { 'x-request-id': 'kept-on-404' } });
    assert.equal(notFound.status, 404);
    assert.equal(notFound.headers.get('x-request-id'), 'kept-on-404');
  });

  test('any other incoming id is replaced by a new one', async () => {
    const insane = ['x'.repeat(129), 'has space', 'tab\there', 'semi;colon', 'quote"d', 'slash/ed', 'ünïcode', ''];
    for (const id of insane) {
      const answered = await rawRequestId(server.url, '/health', { 'x-request-id': id });
      assert.match(answered ?? '', UUID, `${JSON.stringify(id)} gave ${answered}`);
    }
    // The header twice: Node joins them with ", ", which is not an id.
    const twice = await new Promise<string | undefined>((resolve, reject) => {
      const req = httpRequest(`${server.url}/health`, (response) => {
        response.resume();
        response.on('end', () => resolve(response.headers['x-request-id'] as string | undefined));
      });
      req.setHeader('x-request-id', ['one', 'two']);
      req.on('error', reject);
      req.end();
    });
    assert.match(twice ?? '', UUID);
  });

  test("the id is the reqId of the request's log lines", async () => {
    const kept = await server.request('GET', '/account/profile/', { headers: { 'x-request-id': 'find-me-in-the-logs' } });
    assert.equal(kept.status, 401);
    const made = await server.request('GET', '/no/such/path/');
    const madeId = made.headers.get('x-request-id')!;
    // The completion line is written as the answer ends: it may come just after the client has it.
    const linesOf = async (id: string) => {
      for (let wait = 0; wait < 100 && !lines.some((l) => l.reqId === id && l.msg === 'request completed'); wait++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return lines.filter((line) => line.reqId === id);
    };
    for (const id of ['find-me-in-the-logs', madeId]) {
      const own = await linesOf(id);
      assert.deepEqual(
        own.map((line) => line.msg),
        ['incoming request', 'request completed'],
        `${id}: ${JSON.stringify(own)}`,
      );
    }
    // Every line about a request has an id.
    for (const line of lines.filter((l) => l.req !== undefined || l.res !== undefined)) assert.ok(line.reqId, JSON.stringify(line));
  });
});

describe('X-Request-Id on answers of the limits', () => {
  test('429', async () => {
    const server = await startTestServer({ RATE_LIMITS: 'on', RATE_LIMIT_REGISTER: '1/1h' });
    try {
      const register = (email: string) =>
        server.request('POST', '/auth/register/', { body: { email, password: 'a long and unusual passphrase' } });
      assert.equal((await register('first@example.com')).status, 201);
      const limited = await register('second@example.com');
      assert.equal(limited.status, 429, limited.text);
      assert.match(limited.headers.get('x-request-id') ?? '', UUID);
    } finally {
      await server.close();
    }
  });
});

describe('X-Request-Id in the lines the service writes while handling a request', () => {
  test('a reset e-mail held back by its per-address cooldown is logged with the request id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const server = await startTestServer({ RATE_LIMITS: 'on', RATE_LIMIT_EMAIL_PER_ADDRESS: '1/1h' }, { log: log as FastifyBaseLogger });
    try {
      const account = await createAccount(server, { email: 'cooldown@example.com' });
      const reset = (id: string) =>
        server.request('POST', '/account/reset-password/', { body: { email: account.email }, headers: { 'x-request-id': id } });
      assert.equal((await reset('first-reset')).status, 200);
      // The second, within the cooldown, sends nothing and says so in the log.
      assert.equal((await reset('second-reset')).status, 200);
      const held = lines.find((line) => line.msg === 'password reset e-mail not sent: per-address cooldown');
      assert.equal(held?.reqId, 'second-reset', JSON.stringify(held));
    } finally {
      await server.close();
    }
  });
});

describe('X-Request-Id with a logger that writes warnings and errors only', () => {
  test("a line written while handling a request has the request's id; nothing is written at info", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const server = await startTestServer({}, { log: log as FastifyBaseLogger });
    try {
      const account = await createAccount(server);
      const appUserId = await createAppUser(server, account);
      const uploaded = await upload(server, account.token, appUserId, { name: 'photo', file: png() });
      assert.equal(uploaded.status, 201, uploaded.text);
      const file = (uploaded.body as { file: string }).file;
      // A stored file gone missing is logged as an error by the request that finds out.
      await server.server.ctx.media.remove(storageKeyOf(file));
      const response = await download(server, file, { headers: { 'x-request-id': 'the-missing-file' } });
      assert.equal(response.status, 404);
      const line = lines.find((l) => l.msg === 'a media resource has no stored file');
      assert.equal(line?.reqId, 'the-missing-file', JSON.stringify(lines));
      assert.equal(line?.level, 50);
      assert.deepEqual(
        lines.filter((l) => (l.level as number) < 40),
        [],
      );
    } finally {
      await server.close();
    }
  });
});
