// docs/accounts.md, sessions: each login is a session the person can list and end.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { USER_AGENT_MAX_LENGTH } from '../../src/http/user-agent.ts';
import { PASSWORD, registerVerified, startMailedServer, type MailedServer, type RegisteredAccount } from './account-flows.ts';

const FIELDS = ['created_at', 'current', 'id', 'ip_address', 'last_used_at', 'sign_in_method', 'user_agent'];

describe('sessions (/auth/sessions/)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ TRUST_PROXY: 'true' });
  });
  after(() => mailed.close());

  async function logIn(account: RegisteredAccount, headers: Record<string, string>): Promise<string> {
    const response = await mailed.server.request('POST', '/auth/login/', {
      body: { username: account.email, password: PASSWORD },
      headers,
    });
    assert.equal(response.status, 200, response.text);
    return response.body.token;
  }

  const sessions = (token: string) => mailed.server.request('GET', '/auth/sessions/', { token });

  test('each login is a session: listed by id with when, from which user agent and address, and which is the current one', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const phone = await logIn(account, { 'user-agent': 'PhoneApp/2.1 (iOS 19)', 'x-forwarded-for': '203.0.113.7' });
    server.clock.advance(60_000);
    const laptop = await logIn(account, { 'user-agent': 'Mozilla/5.0 Laptop', 'x-forwarded-for': '2001:db8::1' });

    const listed = await sessions(laptop);
    assert.equal(listed.status, 200);
    assert.equal(listed.body.length, 3, 'registerVerified logged in once too');
    assert.deepEqual(
      listed.body.map((s: { id: number }) => s.id),
      [...listed.body.map((s: { id: number }) => s.id)].sort((a: number, b: number) => a - b),
    );
    for (const session of listed.body) assert.deepEqual(Object.keys(session).sort(), FIELDS);
    const [, phoneSession, laptopSession] = listed.body;
    assert.deepEqual(
      { ...phoneSession, id: 0 },
      {
        id: 0,
        created_at: phoneSession.created_at,
        last_used_at: phoneSession.last_used_at,
        user_agent: 'PhoneApp/2.1 (iOS 19)',
        ip_address: '203.0.113.7',
        current: false,
        sign_in_method: 'password',
      },
    );
    assert.equal(laptopSession.user_agent, 'Mozilla/5.0 Laptop');
    assert.equal(laptopSession.ip_address, '2001:db8::1');
    assert.equal(laptopSession.current, true);
    assert.equal(Date.parse(laptopSession.created_at) - Date.parse(phoneSession.created_at), 60_000);
    assert.match(phoneSession.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.doesNotMatch(listed.text, new RegExp(`${phone}|${laptop}`), 'no token value appears');
    // From the phone's point of view, the phone's session is the current one.
    assert.deepEqual(
      (await sessions(phone)).body.map((s: { current: boolean }) => s.current),
      [false, true, false],
    );
  });

  test('DELETE ends that session: its token is 401 from the next request; the others keep working', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const phone = await logIn(account, { 'user-agent': 'Phone' });
    const laptop = await logIn(account, { 'user-agent': 'Laptop' });
    // Both tokens have been used (and, on SQLite, are in the token cache) before the revocation.
    assert.equal((await sessions(phone)).status, 200);
    const phoneId = (await sessions(laptop)).body.find((s: { user_agent: string }) => s.user_agent === 'Phone').id;

    const ended = await server.request('DELETE', `/auth/sessions/${phoneId}/`, { token: laptop });
    assert.equal(ended.status, 204);
    assert.equal(ended.text, '');
    const refused = await sessions(phone);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('www-authenticate'), 'Token');
    assert.equal((await sessions(laptop)).status, 200);
    assert.equal((await server.request('DELETE', `/auth/sessions/${phoneId}/`, { token: laptop })).status, 404, 'already ended');
  });

  test('the current session can end itself', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const own = (await sessions(account.token)).body.find((s: { current: boolean }) => s.current);
    assert.equal((await server.request('DELETE', `/auth/sessions/${own.id}`, { token: account.token })).status, 204);
    assert.equal((await sessions(account.token)).status, 401);
  });

  test("another account's session and ids that are no session are 404, and the other session survives", async () => {
    const { server } = mailed;
    const owner = await registerVerified(mailed);
    const stranger = await registerVerified(mailed);
    const strangerSession = (await sessions(stranger.token)).body[0].id;
    const response = await server.request('DELETE', `/auth/sessions/${strangerSession}/`, { token: owner.token });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { detail: 'Not found.' });
    assert.equal((await sessions(stranger.token)).status, 200);
    for (const id of ['0', '-1', 'abc', '99999999999999999999', '1.5']) {
      assert.equal((await server.request('DELETE', `/auth/sessions/${id}/`, { token: owner.token })).status, 404, id);
    }
  });

  test('anonymous: 401; other methods: 405 with Allow', async () => {
    const { server } = mailed;
    assert.equal((await server.request('GET', '/auth/sessions/')).status, 401);
    assert.equal((await server.request('DELETE', '/auth/sessions/1/')).status, 401);
    const account = await registerVerified(mailed);
    const post = await server.request('POST', '/auth/sessions/', { token: account.token, body: {} });
    assert.equal(post.status, 405);
    assert.match(post.headers.get('allow') ?? '', /GET/);
  });

  test('a user agent is stored cleaned and cut to 255 characters; none at all is null', async () => {
    const account = await registerVerified(mailed);
    const long = `Agent\t/${'x'.repeat(400)}`;
    const token = await logIn(account, { 'user-agent': long });
    // node:http sends no User-Agent of its own (fetch would).
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ username: account.email, password: PASSWORD });
      const request = httpRequest(
        `${mailed.server.url}/auth/login/`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    assert.equal(status, 200);
    const agents = (await sessions(token)).body.map((s: { user_agent: string | null }) => s.user_agent);
    assert.ok(agents.includes(`Agent/${'x'.repeat(USER_AGENT_MAX_LENGTH - 'Agent/'.length)}`), JSON.stringify(agents));
    assert.equal(agents.at(-1), null);
  });
});
