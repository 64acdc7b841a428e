import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_URL } from '../helpers/server.ts';
import {
  PASSWORD,
  VERIFY_SUBJECT,
  logIn,
  mailsTo,
  register,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  waitForMail,
  type MailedServer,
} from './account-flows.ts';

describe('POST /auth/register/', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  test('creates the account: 201 {id, email, first_name, last_name}, Location, a verification e-mail with a key link', async () => {
    const { server, sink } = mailed;
    const email = uniqueEmail('new');
    const response = await register(server, email, PASSWORD, { first_name: 'Grace', last_name: 'Hopper' });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body).sort(), ['email', 'first_name', 'id', 'language', 'last_name']);
    assert.equal(response.body.email, email);
    assert.equal(response.body.first_name, 'Grace');
    assert.equal(response.body.last_name, 'Hopper');
    assert.ok(Number.isInteger(response.body.id) && response.body.id > 0);
    assert.equal(response.headers.get('location'), `${PUBLIC_URL}/account/profile/`);
    assert.equal(response.body.token, undefined, 'registration does not log in');

    const mail = await waitForMail(sink, email, VERIFY_SUBJECT);
    assert.match(mail.decoded, /http:\/\/api\.test\/verify-email\?key=[A-Za-z0-9_-]{32,}/);
  });

  test('names are optional and default to ""; strings are trimmed (not the password)', async () => {
    const email = uniqueEmail('plain');
    const response = await mailed.server.request('POST', '/auth/register/', { body: { email: `  ${email} `, password: ` ${PASSWORD} ` } });
    assert.equal(response.status, 201);
    assert.equal(response.body.email, email);
    assert.equal(response.body.first_name, '');
    assert.equal(response.body.last_name, '');
    // Verify with the password as sent (spaces included): it was kept exactly.
    const key = await verificationKey(mailed.sink, email);
    const wrong = await mailed.server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } });
    assert.equal(wrong.status, 400);
    const right = await mailed.server.request('POST', '/account/verify-email/', { body: { key, password: ` ${PASSWORD} ` } });
    assert.equal(right.status, 200);
  });

  test('an authenticated caller gets 403 {"detail"}; a bad token 401', async () => {
    const { server } = mailed;
    const email = uniqueEmail('owner');
    assert.equal((await register(server, email)).status, 201);
    const key = await verificationKey(mailed.sink, email);
    await server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } });
    const token = await logIn(server, email);
    const response = await server.request('POST', '/auth/register/', { token, body: { email: uniqueEmail(), password: PASSWORD } });
    assert.equal(response.status, 403);
    assert.equal(typeof response.body.detail, 'string');
    // Refused as authenticated before the body is looked at: an empty or foreign body is 403 too.
    for (const options of [{ body: {} }, { raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }]) {
      assert.equal((await server.request('POST', '/auth/register/', { token, ...options })).status, 403);
    }
    const bad = await server.request('POST', '/auth/register/', {
      token: 'not-a-token',
      body: { email: uniqueEmail(), password: PASSWORD },
    });
    assert.equal(bad.status, 401);
    assert.equal(bad.headers.get('www-authenticate'), 'Token');
  });

  test('an address already in use, in any case, is 400 under email, and no second account is made', async () => {
    const { server } = mailed;
    const email = uniqueEmail('dup');
    assert.equal((await register(server, email)).status, 201);
    for (const variant of [email, email.toUpperCase(), `  ${email.replace('dup', 'DUP')}`]) {
      const response = await register(server, variant);
      assert.equal(response.status, 400);
      assert.deepEqual(Object.keys(response.body), ['email']);
      assert.match(response.body.email[0], /already in use/);
    }
    const rows = await server.server.ctx.db.kysely.selectFrom('email_addresses').select('id').where('email_lower', '=', email).execute();
    assert.equal(rows.length, 1);
  });

  test('password validators: 400 under password, with every reason', async () => {
    const { server } = mailed;
    const email = uniqueEmail('weak');
    const cases: Array<[string, RegExp]> = [
      ['short1', /too short/],
      ['1234567890123', /entirely numeric/],
      ['password123', /too common/],
      [email, /too similar to the email address/],
      ['x'.repeat(129), /too long/],
    ];
    for (const [password, message] of cases) {
      const response = await register(server, email, password);
      assert.equal(response.status, 400, password);
      assert.deepEqual(Object.keys(response.body), ['password']);
      assert.ok(
        response.body.password.some((m: string) => message.test(m)),
        `${password}: ${JSON.stringify(response.body)}`,
      );
    }
    const similar = await register(server, email, 'Margaretha1', { first_name: 'Margaretha' });
    assert.equal(similar.status, 400);
    assert.match(similar.body.password.join(' '), /first name/);
    assert.equal(mailsTo(mailed.sink, email).length, 0);
  });

  test('duplicate address and weak password are reported together', async () => {
    const email = uniqueEmail('both');
    assert.equal((await register(mailed.server, email)).status, 201);
    const response = await register(mailed.server, email, '123');
    assert.equal(response.status, 400);
    assert.deepEqual(Object.keys(response.body).sort(), ['email', 'password']);
  });

  test('missing and wrongly typed fields: field-keyed 400', async () => {
    const { server } = mailed;
    const missing = await server.request('POST', '/auth/register/', { body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { email: ['This field is required.'], password: ['This field is required.'] });

    const typed = await server.request('POST', '/auth/register/', { body: { email: true, password: 123, first_name: 5 } });
    assert.equal(typed.status, 400);
    assert.deepEqual(typed.body, {
      email: ['Not a valid string.'],
      password: ['Not a valid string.'],
      first_name: ['Not a valid string.'],
    });

    const invalid = await server.request('POST', '/auth/register/', { body: { email: 'not-an-address', password: PASSWORD } });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.body, { email: ['Enter a valid email address.'] });

    const long = await server.request('POST', '/auth/register/', {
      body: { email: uniqueEmail(), password: PASSWORD, last_name: 'x'.repeat(151) },
    });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body, { last_name: ['Ensure this field has no more than 150 characters.'] });

    const notObject = await server.request('POST', '/auth/register/', { body: ['a'] });
    assert.equal(notObject.status, 400);
    assert.ok(notObject.body.non_field_errors);
  });

  test('unknown fields are ignored', async () => {
    const email = uniqueEmail('extra');
    const response = await mailed.server.request('POST', '/auth/register/', { body: { email, password: PASSWORD, is_staff: true, id: 1 } });
    assert.equal(response.status, 201);
    assert.notEqual(response.body.id, 1);
  });

  test('malformed JSON 400, text/plain 415, a body over 1 MiB 413', async () => {
    const { server } = mailed;
    const malformed = await server.request('POST', '/auth/register/', {
      raw: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(typeof malformed.body.detail, 'string');

    const text = await server.request('POST', '/auth/register/', { raw: 'email=a@b.c', headers: { 'content-type': 'text/plain' } });
    assert.equal(text.status, 415);
    assert.equal(typeof text.body.detail, 'string');

    const huge = JSON.stringify({ email: uniqueEmail(), password: PASSWORD, first_name: 'x'.repeat(1024 * 1024 + 10) });
    const large = await server.request('POST', '/auth/register/', { raw: huge, headers: { 'content-type': 'application/json' } });
    assert.equal(large.status, 413);
    assert.equal(typeof large.body.detail, 'string');
  });

  test('concurrent registrations of one address: one 201 and the others 400, never a 500', async () => {
    const { server } = mailed;
    const email = uniqueEmail('race');
    const responses = await Promise.all([
      register(server, email),
      register(server, email.toUpperCase()),
      register(server, email),
      register(server, email),
    ]);
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 400, 400, 400], JSON.stringify(responses.map((r) => r.body)));
    for (const response of responses.filter((r) => r.status === 400)) {
      assert.deepEqual(Object.keys(response.body), ['email']);
    }
    const accounts = await server.server.ctx.db.kysely
      .selectFrom('email_addresses')
      .select('account_id')
      .where('email_lower', '=', email)
      .execute();
    assert.equal(accounts.length, 1);
  });

  test('wrong methods: 405 with Allow', async () => {
    const response = await mailed.server.request('GET', '/auth/register/');
    assert.equal(response.status, 405);
    assert.match(response.headers.get('allow') ?? '', /POST/);
  });
});
