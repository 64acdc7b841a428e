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

const INVALID = /invalid/;
const EXPIRED = /expired/;

describe('POST /account/verify-email/', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  function verify(key: unknown, password: unknown = PASSWORD) {
    return mailed.server.request('POST', '/account/verify-email/', { body: { key, password } });
  }

  async function registered(): Promise<{ email: string; key: string }> {
    const email = uniqueEmail('verify');
    assert.equal((await register(mailed.server, email)).status, 201);
    return { email, key: await verificationKey(mailed.sink, email) };
  }

  test('success: 200 {}, the address is verified and logs in; needs no token', async () => {
    const { email, key } = await registered();
    const response = await verify(key);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {});
    const token = await logIn(mailed.server, email);
    const list = await mailed.server.request('GET', '/account/emails/', { token });
    assert.equal(list.body[0].verified, true);
  });

  test('an unknown key: 400 under key, "invalid"', async () => {
    const response = await verify('x'.repeat(43));
    assert.equal(response.status, 400);
    assert.deepEqual(Object.keys(response.body), ['key']);
    assert.match(response.body.key[0], INVALID);
  });

  test('a key works once', async () => {
    const { key } = await registered();
    assert.equal((await verify(key)).status, 200);
    const again = await verify(key);
    assert.equal(again.status, 400);
    assert.match(again.body.key[0], INVALID);
  });

  test('an expired key: 400 under key with a different, "expired" message; unexpired just before', async () => {
    const { server } = mailed;
    const early = await registered();
    const late = await registered();
    const ttl = server.server.ctx.config.emailVerificationTtlMs;
    server.clock.advance(ttl - 1000);
    assert.equal((await verify(early.key)).status, 200);
    server.clock.advance(2000);
    const response = await verify(late.key);
    assert.equal(response.status, 400);
    assert.deepEqual(Object.keys(response.body), ['key']);
    assert.match(response.body.key[0], EXPIRED);
    assert.doesNotMatch(response.body.key[0], INVALID);
  });

  test('a wrong password: 400 non_field_errors, and the key is not used up', async () => {
    const { email, key } = await registered();
    const wrong = await verify(key, 'not-my-password-42');
    assert.equal(wrong.status, 400);
    assert.deepEqual(Object.keys(wrong.body), ['non_field_errors']);
    assert.equal((await verify(key, PASSWORD.toUpperCase())).status, 400);
    assert.equal((await verify(key)).status, 200, 'the key still works');
    await logIn(mailed.server, email);
  });

  test('bad bodies: field-keyed 400', async () => {
    const missing = await mailed.server.request('POST', '/account/verify-email/', { body: {} });
    assert.deepEqual(missing.body, { password: ['This field is required.'] });
    // The key may give way to an e-mailed code (email-codes.test.ts); with neither, it is the key that is missing.
    const noKey = await mailed.server.request('POST', '/account/verify-email/', { body: { password: PASSWORD } });
    assert.deepEqual(noKey.body, { key: ['This field is required.'] });
    const typed = await verify(123, true);
    assert.deepEqual(typed.body, { key: ['Not a valid string.'], password: ['Not a valid string.'] });
    const blank = await verify('  ', PASSWORD);
    assert.deepEqual(blank.body, { key: ['This field may not be blank.'] });
  });

  test('verified_action 2: the address becomes primary and the old primary address is deleted', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const other = uniqueEmail('other');
    await server.request('POST', '/account/emails/', { token: account.token, body: { email: other } });
    const replacement = uniqueEmail('replacement');
    const added = await server.request('POST', '/account/emails/', {
      token: account.token,
      body: { email: replacement, verified_action: 2 },
    });
    assert.equal(added.status, 201);
    assert.equal((await verify(await verificationKey(sink, replacement))).status, 200);

    const list = await server.request('GET', '/account/emails/', { token: account.token });
    assert.deepEqual(
      list.body.map((a: { email: string; primary: boolean; verified: boolean }) => [a.email, a.primary, a.verified]),
      [
        [other, false, false],
        [replacement, true, true],
      ],
    );
    const profile = await server.request('GET', '/account/profile/', { token: account.token });
    assert.equal(profile.body.email, replacement);
    const oldLogin = await server.request('POST', '/auth/login/', { body: { username: account.email, password: PASSWORD } });
    assert.equal(oldLogin.status, 400, 'the old primary address is gone');
    await logIn(server, replacement);
    // The old address is free for anyone now.
    assert.equal((await register(server, account.email)).status, 201);
  });

  test('verified_action 1 leaves the primary address alone', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const extra = uniqueEmail('noop');
    await server.request('POST', '/account/emails/', { token: account.token, body: { email: extra, verified_action: 1 } });
    assert.equal((await verify(await verificationKey(sink, extra))).status, 200);
    const profile = await server.request('GET', '/account/profile/', { token: account.token });
    assert.equal(profile.body.email, account.email);
  });

  test('the key of a deleted address is invalid', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const extra = uniqueEmail('gone');
    const added = await server.request('POST', '/account/emails/', { token: account.token, body: { email: extra } });
    const key = await verificationKey(sink, extra);
    await server.request('DELETE', `/account/emails/${added.body.id}/`, { token: account.token });
    const response = await verify(key);
    assert.equal(response.status, 400);
    assert.match(response.body.key[0], INVALID);
  });

  test('concurrent uses of one key: one 200, the other 400', async () => {
    const { key } = await registered();
    const responses = await Promise.all([verify(key), verify(key), verify(key)]);
    assert.deepEqual(responses.map((r) => r.status).sort(), [200, 400, 400]);
  });
});
