import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  PASSWORD,
  logIn,
  register,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  type MailedServer,
} from './account-flows.ts';

const INVALID = /^Invalid credentials/;

describe('POST /auth/login/', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  test('before verification: 400 saying the address must be verified first; after it: 200 {"token"}', async () => {
    const { server, sink } = mailed;
    const email = uniqueEmail('fresh');
    assert.equal((await register(server, email)).status, 201);
    const early = await server.request('POST', '/auth/login/', { body: { username: email, password: PASSWORD } });
    assert.equal(early.status, 400);
    assert.deepEqual(Object.keys(early.body), ['non_field_errors']);
    assert.match(early.body.non_field_errors[0], /not verified/);

    const key = await verificationKey(sink, email);
    assert.equal((await server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } })).status, 200);
    const response = await server.request('POST', '/auth/login/', { body: { username: email, password: PASSWORD } });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), ['token']);
    assert.ok(response.body.token.length >= 43);
    const profile = await server.request('GET', '/account/profile/', { token: response.body.token });
    assert.equal(profile.status, 200);
    assert.equal(profile.body.email, email);
  });

  test('`email` works like `username` (v1 clients); the address matches in any case', async () => {
    const account = await registerVerified(mailed);
    const byEmail = await mailed.server.request('POST', '/auth/login/', { body: { email: account.email, password: PASSWORD } });
    assert.equal(byEmail.status, 200);
    const upper = await mailed.server.request('POST', '/auth/login/', {
      body: { username: account.email.toUpperCase(), password: PASSWORD },
    });
    assert.equal(upper.status, 200);
  });

  test('each login issues a new token; both work', async () => {
    const account = await registerVerified(mailed);
    const second = await logIn(mailed.server, account.email);
    assert.notEqual(second, account.token);
    for (const token of [account.token, second]) {
      assert.equal((await mailed.server.request('GET', '/account/profile/', { token })).status, 200);
    }
  });

  test('a wrong password and an unknown address answer alike: 400 "Invalid credentials…"', async () => {
    const account = await registerVerified(mailed);
    const wrong = await mailed.server.request('POST', '/auth/login/', {
      body: { username: account.email, password: 'not-the-password-1' },
    });
    const unknown = await mailed.server.request('POST', '/auth/login/', { body: { username: uniqueEmail('nobody'), password: PASSWORD } });
    assert.equal(wrong.status, 400);
    assert.equal(unknown.status, 400);
    assert.deepEqual(wrong.body, unknown.body);
    assert.match(wrong.body.non_field_errors[0], INVALID);
    // An unverified address with a wrong password says nothing about verification either.
    const email = uniqueEmail('unverified');
    await register(mailed.server, email);
    const unverifiedWrong = await mailed.server.request('POST', '/auth/login/', {
      body: { username: email, password: 'not-the-password-1' },
    });
    assert.deepEqual(unverifiedWrong.body, wrong.body);
  });

  test('a password over 128 characters is refused as invalid credentials', async () => {
    const account = await registerVerified(mailed);
    const response = await mailed.server.request('POST', '/auth/login/', {
      body: { username: account.email, password: PASSWORD + 'x'.repeat(200) },
    });
    assert.equal(response.status, 400);
    assert.match(response.body.non_field_errors[0], INVALID);
  });

  test('bad bodies: field-keyed 400', async () => {
    const { server } = mailed;
    const none = await server.request('POST', '/auth/login/', { body: { password: PASSWORD } });
    assert.equal(none.status, 400);
    assert.ok(none.body.non_field_errors[0].includes('username'));
    const noPassword = await server.request('POST', '/auth/login/', { body: { username: 'a@example.com' } });
    assert.deepEqual(noPassword.body, { password: ['This field is required.'] });
    const typed = await server.request('POST', '/auth/login/', { body: { username: true, password: 123 } });
    assert.equal(typed.status, 400);
    assert.deepEqual(typed.body, { username: ['Not a valid string.'], password: ['Not a valid string.'] });
    const malformed = await server.request('POST', '/auth/login/', { raw: '{', headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);
  });

  test('an unverified secondary address cannot log in; once verified it can', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const second = uniqueEmail('second');
    const added = await server.request('POST', '/account/emails/', { token: account.token, body: { email: second } });
    assert.equal(added.status, 201);
    const before = await server.request('POST', '/auth/login/', { body: { username: second, password: PASSWORD } });
    assert.equal(before.status, 400);
    assert.match(before.body.non_field_errors[0], /not verified/);

    const key = await verificationKey(sink, second);
    assert.equal((await server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } })).status, 200);
    const token = await logIn(server, second);
    const profile = await server.request('GET', '/account/profile/', { token });
    assert.equal(profile.body.id, account.id);
    assert.equal(profile.body.email, account.email, 'the primary address is unchanged');
  });
});

describe('logout, logout-all and token expiry', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  test('POST /auth/logout/ revokes the token used (204), not the others', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const other = await logIn(server, account.email);
    const response = await server.request('POST', '/auth/logout/', { token: account.token });
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    const revoked = await server.request('GET', '/account/profile/', { token: account.token });
    assert.equal(revoked.status, 401);
    assert.equal(revoked.headers.get('www-authenticate'), 'Token');
    assert.equal((await server.request('GET', '/account/profile/', { token: other })).status, 200);
    assert.equal((await server.request('POST', '/auth/logout/', { token: account.token })).status, 401);
  });

  test("POST /auth/logout-all/ revokes every token of the account and no one else's", async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const stranger = await registerVerified(mailed);
    const tokens = [account.token, await logIn(server, account.email), await logIn(server, account.email)];
    // Each used once first, so that none is refused only for never having been seen.
    for (const token of tokens) assert.equal((await server.request('GET', '/account/profile/', { token })).status, 200);
    assert.equal((await server.request('POST', '/auth/logout-all/', { token: tokens[1] })).status, 204);
    for (const token of tokens) assert.equal((await server.request('GET', '/account/profile/', { token })).status, 401);
    assert.equal((await server.request('GET', '/account/profile/', { token: stranger.token })).status, 200);
    // Logging in again works.
    assert.equal((await server.request('GET', '/account/profile/', { token: await logIn(server, account.email) })).status, 200);
  });

  test('logout without a token: 401', async () => {
    for (const path of ['/auth/logout/', '/auth/logout-all/']) {
      const response = await mailed.server.request('POST', path);
      assert.equal(response.status, 401);
      assert.equal(typeof response.body.detail, 'string');
    }
  });

  test('a token unused for longer than TOKEN_IDLE_TTL expires; use keeps it alive', async () => {
    const { server } = mailed;
    const idle = await registerVerified(mailed);
    const busy = await logIn(server, idle.email);
    assert.equal((await server.request('GET', '/account/profile/', { token: idle.token })).status, 200);
    const ttl = server.server.ctx.config.tokenIdleTtlMs;
    // Used two hours before the end of the lifetime: its last use moves on (recorded at most once an hour).
    server.clock.advance(ttl - 2 * 3_600_000);
    assert.equal((await server.request('GET', '/account/profile/', { token: busy })).status, 200);
    server.clock.advance(3 * 3_600_000);
    const expired = await server.request('GET', '/account/profile/', { token: idle.token });
    assert.equal(expired.status, 401);
    assert.match(expired.body.detail, /expired/);
    assert.equal((await server.request('GET', '/account/profile/', { token: busy })).status, 200);
    // An expired token stays dead.
    assert.equal((await server.request('GET', '/account/profile/', { token: idle.token })).status, 401);
  });
});
