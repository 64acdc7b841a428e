import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SmtpSink } from '../helpers/smtp-sink.ts';
import {
  CHANGED_SUBJECT,
  PASSWORD,
  RESET_SUBJECT,
  logIn,
  mailsTo,
  register,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  waitForMail,
  type MailedServer,
} from './account-flows.ts';

const NEW_PASSWORD = 'amber-otter-93-compass';

/** Lets the outbox worker run a pass or two, so a wrongly queued e-mail would have arrived. */
async function settle(mailed: MailedServer): Promise<void> {
  await mailed.server.server.worker.runOnce();
  await new Promise((resolve) => setTimeout(resolve, 300));
}

describe('POST /account/reset-password/', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  function reset(email: unknown) {
    return mailed.server.request('POST', '/account/reset-password/', { body: { email } });
  }

  test('a verified address: 200 {"email": as sent}, a reset e-mail with a key link to that address; needs no token', async () => {
    const account = await registerVerified(mailed);
    const sent = account.email.toUpperCase();
    const response = await reset(sent);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { email: sent });
    const mail = await waitForMail(mailed.sink, account.email, RESET_SUBJECT);
    assert.match(mail.decoded, /http:\/\/api\.test\/reset-password\?key=[A-Za-z0-9_-]{32,}/);
  });

  test('an unknown or unverified address: the same 200, and no e-mail', async () => {
    const unknown = uniqueEmail('unknown');
    const unverified = uniqueEmail('unverified');
    await register(mailed.server, unverified);
    for (const email of [unknown, unverified]) {
      const response = await reset(email);
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { email });
    }
    await settle(mailed);
    assert.equal(mailsTo(mailed.sink, unknown).length, 0);
    assert.equal(mailsTo(mailed.sink, unverified, RESET_SUBJECT).length, 0);
  });

  test('a verified secondary address gets the key, to that address', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const second = uniqueEmail('second');
    await server.request('POST', '/account/emails/', { token: account.token, body: { email: second } });
    const key = SmtpSink.keyIn(await waitForMail(sink, second, 'Confirm your e-mail address'));
    await server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } });
    assert.equal((await reset(second)).status, 200);
    await waitForMail(sink, second, RESET_SUBJECT);
  });

  test('an invalid address: 400 under email', async () => {
    for (const email of ['not-an-address', '', 42]) {
      const response = await reset(email);
      assert.equal(response.status, 400);
      assert.deepEqual(Object.keys(response.body), ['email']);
    }
    const missing = await mailed.server.request('POST', '/account/reset-password/', { body: {} });
    assert.deepEqual(missing.body, { email: ['This field is required.'] });
  });

  test('a reset request revokes nothing: the tokens and the old password still work', async () => {
    const account = await registerVerified(mailed);
    assert.equal((await reset(account.email)).status, 200);
    await waitForMail(mailed.sink, account.email, RESET_SUBJECT);
    assert.equal((await mailed.server.request('GET', '/account/profile/', { token: account.token })).status, 200);
    await logIn(mailed.server, account.email);
  });
});

describe('POST /account/change-password/', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  function change(body: object, token?: string) {
    return mailed.server.request('POST', '/account/change-password/', { body, token });
  }

  async function resetKey(email: string, count = 1): Promise<string> {
    assert.equal((await mailed.server.request('POST', '/account/reset-password/', { body: { email } })).status, 200);
    return SmtpSink.keyIn(await waitForMail(mailed.sink, email, RESET_SUBJECT, count));
  }

  async function status(token: string): Promise<number> {
    return (await mailed.server.request('GET', '/account/profile/', { token })).status;
  }

  test("old_password: 200 {}; the caller's token kept, the others revoked; a notice to the primary address; the new password logs in", async () => {
    const account = await registerVerified(mailed);
    const other = await logIn(mailed.server, account.email);
    assert.equal(await status(other), 200);
    const response = await change({ old_password: PASSWORD, new_password: NEW_PASSWORD }, account.token);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {});
    assert.equal(await status(account.token), 200);
    assert.equal(await status(other), 401);
    await waitForMail(mailed.sink, account.email, CHANGED_SUBJECT);
    const oldLogin = await mailed.server.request('POST', '/auth/login/', { body: { username: account.email, password: PASSWORD } });
    assert.equal(oldLogin.status, 400);
    await logIn(mailed.server, account.email, NEW_PASSWORD);
  });

  test('old_password without a token: 401', async () => {
    const response = await change({ old_password: PASSWORD, new_password: NEW_PASSWORD });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Token');
  });

  test('a wrong old_password: 400 under old_password, nothing changes', async () => {
    const account = await registerVerified(mailed);
    const response = await change({ old_password: 'wrong-password-77', new_password: NEW_PASSWORD }, account.token);
    assert.equal(response.status, 400);
    assert.deepEqual(Object.keys(response.body), ['old_password']);
    await logIn(mailed.server, account.email);
  });

  test('exactly one of key and old_password: 400 non_field_errors otherwise', async () => {
    const account = await registerVerified(mailed);
    const neither = await change({ new_password: NEW_PASSWORD }, account.token);
    assert.equal(neither.status, 400);
    assert.deepEqual(Object.keys(neither.body), ['non_field_errors']);
    const both = await change({ key: 'k'.repeat(43), old_password: PASSWORD, new_password: NEW_PASSWORD }, account.token);
    assert.equal(both.status, 400);
    assert.deepEqual(Object.keys(both.body), ['non_field_errors']);
  });

  test('the new password runs the validators and must differ from the old: 400 under new_password', async () => {
    const account = await registerVerified(mailed);
    for (const newPassword of ['short', '123456789012', 'qwerty123', account.email, PASSWORD]) {
      const response = await change({ old_password: PASSWORD, new_password: newPassword }, account.token);
      assert.equal(response.status, 400, newPassword);
      assert.deepEqual(Object.keys(response.body), ['new_password'], newPassword);
    }
    const key = await resetKey(account.email);
    const sameByKey = await change({ key, new_password: PASSWORD });
    assert.equal(sameByKey.status, 400);
    assert.match(sameByKey.body.new_password[0], /different/);
    assert.equal((await change({ key, new_password: NEW_PASSWORD })).status, 200, 'the refused attempts did not use the key');
  });

  test('bad bodies: field-keyed 400', async () => {
    const account = await registerVerified(mailed);
    const missing = await change({ old_password: PASSWORD }, account.token);
    assert.deepEqual(missing.body, { new_password: ['This field is required.'] });
    const typed = await change({ old_password: 1, new_password: false }, account.token);
    assert.deepEqual(typed.body, { old_password: ['Not a valid string.'], new_password: ['Not a valid string.'] });
  });

  test('key (forgotten password): works anonymously; revokes every token; notice sent; the key works once', async () => {
    const account = await registerVerified(mailed);
    const other = await logIn(mailed.server, account.email);
    assert.equal(await status(other), 200);
    assert.equal(await status(account.token), 200);
    const key = await resetKey(account.email);
    const response = await change({ key, new_password: NEW_PASSWORD });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {});
    assert.equal(await status(account.token), 401);
    assert.equal(await status(other), 401);
    await waitForMail(mailed.sink, account.email, CHANGED_SUBJECT);
    await logIn(mailed.server, account.email, NEW_PASSWORD);
    const reuse = await change({ key, new_password: 'yet-another-good-one-5' });
    assert.equal(reuse.status, 400);
    assert.deepEqual(Object.keys(reuse.body), ['key']);
    assert.match(reuse.body.key[0], /invalid/);
  });

  test('a password change ends every outstanding reset key', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const key = await resetKey(account.email);
    assert.equal((await change({ old_password: PASSWORD, new_password: NEW_PASSWORD }, account.token)).status, 200);
    const response = await change({ key, new_password: 'yet-another-good-one-5' });
    assert.equal(response.status, 400);
    assert.match(response.body.key[0], /invalid/);
    await logIn(server, account.email, NEW_PASSWORD);
  });

  test('an unknown key: 400 "invalid"; an expired key: 400 "expired"', async () => {
    const { server } = mailed;
    const unknown = await change({ key: 'z'.repeat(43), new_password: NEW_PASSWORD });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.key[0], /invalid/);
    const account = await registerVerified(mailed);
    const key = await resetKey(account.email);
    server.clock.advance(server.server.ctx.config.passwordResetTtlMs + 1000);
    const expired = await change({ key, new_password: NEW_PASSWORD });
    assert.equal(expired.status, 400);
    assert.deepEqual(Object.keys(expired.body), ['key']);
    assert.match(expired.body.key[0], /expired/);
    await logIn(server, account.email);
  });

  test("a logged-in caller cannot use another account's key", async () => {
    const victim = await registerVerified(mailed);
    const caller = await registerVerified(mailed);
    const key = await resetKey(victim.email);
    const response = await change({ key, new_password: NEW_PASSWORD }, caller.token);
    assert.equal(response.status, 400);
    assert.deepEqual(Object.keys(response.body), ['key']);
    await logIn(mailed.server, victim.email);
  });
});

describe('reset e-mail cooldown per address (RATE_LIMITS=on)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({
      RATE_LIMITS: 'on',
      RATE_LIMIT_REGISTER: '100/1h',
      RATE_LIMIT_RESET_PASSWORD: '100/1h',
      RATE_LIMIT_VERIFY_EMAIL: '100/1h',
      RATE_LIMIT_EMAIL_PER_ADDRESS: '1/1m',
    });
  });
  after(() => mailed.close());

  test('a repeated request within the minute answers 200 but sends nothing; after it, a new key is sent', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const reset = () => server.request('POST', '/account/reset-password/', { body: { email: account.email } });
    assert.equal((await reset()).status, 200);
    await waitForMail(sink, account.email, RESET_SUBJECT);
    const repeated = await reset();
    assert.equal(repeated.status, 200);
    assert.deepEqual(repeated.body, { email: account.email });
    await settle(mailed);
    assert.equal(mailsTo(sink, account.email, RESET_SUBJECT).length, 1);
    server.clock.advance(61_000);
    assert.equal((await reset()).status, 200);
    await waitForMail(sink, account.email, RESET_SUBJECT, 2);
  });
});
