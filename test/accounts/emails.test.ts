import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_URL } from '../helpers/server.ts';
import {
  ADDED_SUBJECT,
  PASSWORD,
  VERIFY_SUBJECT,
  logIn,
  mailsTo,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  waitForMail,
  type MailedServer,
  type RegisteredAccount,
} from './account-flows.ts';

const FIELDS = ['email', 'id', 'primary', 'url', 'verified', 'verified_action'];

describe('/account/emails/', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ QUOTA_EMAILS_PER_ACCOUNT: '4' });
  });
  after(() => mailed.close());

  async function addAddress(account: RegisteredAccount, body: object) {
    return mailed.server.request('POST', '/account/emails/', { token: account.token, body });
  }

  async function addVerified(account: RegisteredAccount, email = uniqueEmail('extra'), verifiedAction = 1) {
    const added = await addAddress(account, { email, verified_action: verifiedAction });
    assert.equal(added.status, 201, added.text);
    const key = await verificationKey(mailed.sink, email);
    const verified = await mailed.server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } });
    assert.equal(verified.status, 200, verified.text);
    return added.body as { id: number; email: string };
  }

  test("GET lists the caller's addresses, ordered by id, with url", async () => {
    const account = await registerVerified(mailed);
    const response = await mailed.server.request('GET', '/account/emails/', { token: account.token });
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 1);
    const [primary] = response.body;
    assert.deepEqual(Object.keys(primary).sort(), FIELDS);
    assert.deepEqual(
      { ...primary, id: 0 },
      {
        id: 0,
        url: `${PUBLIC_URL}/account/emails/${primary.id}/`,
        email: account.email,
        verified: true,
        verified_action: 1,
        primary: true,
      },
    );
    await addAddress(account, { email: uniqueEmail() });
    await addAddress(account, { email: uniqueEmail() });
    const list = await mailed.server.request('GET', '/account/emails/', { token: account.token });
    const ids = list.body.map((a: { id: number }) => a.id);
    assert.equal(ids.length, 3);
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => a - b),
    );
  });

  test('POST: 201, Location = absolute url, unverified; a key to the new address and a notice to the primary one', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const email = uniqueEmail('added');
    const response = await addAddress(account, { email, verified_action: 2 });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body).sort(), FIELDS);
    assert.equal(response.body.url, `${PUBLIC_URL}/account/emails/${response.body.id}/`);
    assert.equal(response.headers.get('location'), response.body.url);
    assert.equal(response.body.email, email);
    assert.equal(response.body.verified, false);
    assert.equal(response.body.primary, false);
    assert.equal(response.body.verified_action, 2);

    await verificationKey(sink, email);
    const notice = await waitForMail(sink, account.email, ADDED_SUBJECT);
    assert.ok(notice.decoded.includes(email));
    const detail = await server.request('GET', `/account/emails/${response.body.id}/`, { token: account.token });
    assert.deepEqual(detail.body, response.body);
    const defaultAction = await addAddress(account, { email: uniqueEmail() });
    assert.equal(defaultAction.body.verified_action, 1);
  });

  test('POST errors: primary:true, an address in use (any account, any case), bad verified_action, bad types', async () => {
    const account = await registerVerified(mailed);
    const other = await registerVerified(mailed);
    const primary = await addAddress(account, { email: uniqueEmail(), primary: true });
    assert.equal(primary.status, 400);
    assert.deepEqual(Object.keys(primary.body), ['primary']);
    for (const email of [account.email, other.email.toUpperCase()]) {
      const taken = await addAddress(account, { email });
      assert.equal(taken.status, 400);
      assert.deepEqual(Object.keys(taken.body), ['email']);
    }
    for (const verified_action of [3, 0, '2', null]) {
      const bad = await addAddress(account, { email: uniqueEmail(), verified_action });
      assert.equal(bad.status, 400, String(verified_action));
      assert.deepEqual(Object.keys(bad.body), ['verified_action']);
    }
    const invalid = await addAddress(account, { email: 'nope' });
    assert.deepEqual(invalid.body, { email: ['Enter a valid email address.'] });
    const typed = await addAddress(account, { email: 7 });
    assert.deepEqual(typed.body, { email: ['Not a valid string.'] });
    const missing = await addAddress(account, {});
    assert.deepEqual(missing.body, { email: ['This field is required.'] });
    const list = await mailed.server.request('GET', '/account/emails/', { token: account.token });
    assert.equal(list.body.length, 1, 'nothing was added');
  });

  test('POST beyond QUOTA_EMAILS_PER_ACCOUNT: 400 non_field_errors', async () => {
    const account = await registerVerified(mailed);
    for (let i = 0; i < 3; i++) assert.equal((await addAddress(account, { email: uniqueEmail() })).status, 201);
    const over = await addAddress(account, { email: uniqueEmail() });
    assert.equal(over.status, 400);
    assert.match(over.body.non_field_errors[0], /at most 4/);
  });

  test('concurrent adds of one address: one 201, the rest 400', async () => {
    const a = await registerVerified(mailed);
    const b = await registerVerified(mailed);
    const email = uniqueEmail('contested');
    const responses = await Promise.all([
      addAddress(a, { email }),
      addAddress(b, { email }),
      addAddress(a, { email: email.toUpperCase() }),
    ]);
    assert.deepEqual(responses.map((r) => r.status).sort(), [201, 400, 400], JSON.stringify(responses.map((r) => r.body)));
  });

  test('another account\'s address and bad ids are 404 {"detail": "Not found."} for every method', async () => {
    const { server } = mailed;
    const owner = await registerVerified(mailed);
    const stranger = await registerVerified(mailed);
    const added = await addAddress(owner, { email: uniqueEmail() });
    const paths = [
      `/account/emails/${added.body.id}/`,
      '/account/emails/999999/',
      '/account/emails/0/',
      '/account/emails/abc/',
      '/account/emails/-1/',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const response = await server.request(method, path, {
          token: stranger.token,
          body: method === 'PATCH' ? { primary: true } : undefined,
        });
        assert.equal(response.status, 404, `${method} ${path}`);
        assert.deepEqual(response.body, { detail: 'Not found.' });
      }
      const resend = await server.request('POST', `${path}resend-verification/`, { token: stranger.token });
      assert.equal(resend.status, 404);
    }
    assert.equal((await server.request('GET', `/account/emails/${added.body.id}/`, { token: owner.token })).status, 200, 'still there');
  });

  test('anonymous: 401', async () => {
    for (const [method, path] of [
      ['GET', '/account/emails/'],
      ['POST', '/account/emails/'],
      ['GET', '/account/emails/1/'],
      ['DELETE', '/account/emails/1/'],
    ]) {
      assert.equal((await mailed.server.request(method!, path!)).status, 401, `${method} ${path}`);
    }
  });

  test('PATCH primary:true on an unverified address: 400, nothing changes', async () => {
    const account = await registerVerified(mailed);
    const added = await addAddress(account, { email: uniqueEmail() });
    const response = await mailed.server.request('PATCH', added.body.url.replace(PUBLIC_URL, ''), {
      token: account.token,
      body: { primary: true },
    });
    assert.equal(response.status, 400);
    assert.deepEqual(Object.keys(response.body), ['primary']);
    const profile = await mailed.server.request('GET', '/account/profile/', { token: account.token });
    assert.equal(profile.body.email, account.email);
  });

  test('PATCH primary:true on a verified address: it becomes primary, the old one stays unprimaried', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const second = await addVerified(account);
    const response = await server.request('PATCH', `/account/emails/${second.id}/`, { token: account.token, body: { primary: true } });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), FIELDS);
    assert.equal(response.body.primary, true);
    assert.equal(response.body.verified, true);
    const list = await server.request('GET', '/account/emails/', { token: account.token });
    assert.deepEqual(
      list.body.map((a: { email: string; primary: boolean }) => [a.email, a.primary]),
      [
        [account.email, false],
        [second.email, true],
      ],
    );
    const profile = await server.request('GET', '/account/profile/', { token: account.token });
    assert.equal(profile.body.email, second.email);
    // Again: no change, still 200; the old primary can be made primary again.
    assert.equal(
      (await server.request('PATCH', `/account/emails/${second.id}/`, { token: account.token, body: { primary: true } })).status,
      200,
    );
    const back = await server.request('PATCH', `/account/emails/${list.body[0].id}/`, { token: account.token, body: { primary: true } });
    assert.equal(back.body.primary, true);
    assert.equal((await server.request('GET', '/account/profile/', { token: account.token })).body.email, account.email);
  });

  test('concurrent primary changes leave exactly one primary', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const b = await addVerified(account);
    const c = await addVerified(account);
    const responses = await Promise.all(
      [b, c, b, c].map((a) => server.request('PATCH', `/account/emails/${a.id}/`, { token: account.token, body: { primary: true } })),
    );
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 200, 200, 200],
    );
    const list = await server.request('GET', '/account/emails/', { token: account.token });
    assert.equal(list.body.filter((a: { primary: boolean }) => a.primary).length, 1);
  });

  test('PATCH cannot change email or verified_action (400); sending them unchanged is fine; primary:false on the primary is 400', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const added = await addAddress(account, { email: uniqueEmail() });
    const path = `/account/emails/${added.body.id}/`;
    const email = await server.request('PATCH', path, { token: account.token, body: { email: uniqueEmail() } });
    assert.equal(email.status, 400);
    assert.deepEqual(Object.keys(email.body), ['email']);
    const action = await server.request('PATCH', path, { token: account.token, body: { verified_action: 2 } });
    assert.equal(action.status, 400);
    assert.deepEqual(Object.keys(action.body), ['verified_action']);
    const same = await server.request('PATCH', path, { token: account.token, body: { ...added.body } });
    assert.equal(same.status, 200);
    assert.deepEqual(same.body, added.body);
    const typed = await server.request('PATCH', path, { token: account.token, body: { primary: 'yes' } });
    assert.deepEqual(typed.body, { primary: ['Must be a valid boolean.'] });
    const list = await server.request('GET', '/account/emails/', { token: account.token });
    const primary = list.body.find((a: { primary: boolean }) => a.primary);
    const unset = await server.request('PATCH', `/account/emails/${primary.id}/`, { token: account.token, body: { primary: false } });
    assert.equal(unset.status, 400);
  });

  test('PUT is PATCH with the address required: missing 400 under email, another address 400, the same one 200', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const added = await addVerified(account);
    const path = `/account/emails/${added.id}/`;
    const missing = await server.request('PUT', path, { token: account.token, body: { primary: true } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { email: ['This field is required.'] });
    const other = await server.request('PUT', path, { token: account.token, body: { email: uniqueEmail(), primary: true } });
    assert.equal(other.status, 400);
    assert.deepEqual(Object.keys(other.body), ['email']);
    const primary = await server.request('PUT', path, { token: account.token, body: { email: added.email.toUpperCase(), primary: true } });
    assert.equal(primary.status, 200, primary.text);
    assert.equal(primary.body.primary, true);
    const stranger = await registerVerified(mailed);
    assert.equal((await server.request('PUT', path, { token: stranger.token, body: { email: added.email } })).status, 404);
  });

  test('DELETE: the primary address 409 {"detail"} and kept; another address 204 and gone', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const added = await addAddress(account, { email: uniqueEmail() });
    const list = await server.request('GET', '/account/emails/', { token: account.token });
    const primary = list.body.find((a: { primary: boolean }) => a.primary);
    const refused = await server.request('DELETE', `/account/emails/${primary.id}/`, { token: account.token });
    assert.equal(refused.status, 409);
    assert.equal(typeof refused.body.detail, 'string');
    const deleted = await server.request('DELETE', `/account/emails/${added.body.id}/`, { token: account.token });
    assert.equal(deleted.status, 204);
    assert.equal((await server.request('GET', `/account/emails/${added.body.id}/`, { token: account.token })).status, 404);
    assert.equal((await server.request('DELETE', `/account/emails/${added.body.id}/`, { token: account.token })).status, 404);
    const after = await server.request('GET', '/account/emails/', { token: account.token });
    assert.deepEqual(
      after.body.map((a: { id: number }) => a.id),
      [primary.id],
    );
    // The address is free again.
    assert.equal((await addAddress(account, { email: added.body.email })).status, 201);
  });

  test('a deleted verified address no longer logs in', async () => {
    const account = await registerVerified(mailed);
    const second = await addVerified(account);
    await logIn(mailed.server, second.email);
    assert.equal((await mailed.server.request('DELETE', `/account/emails/${second.id}/`, { token: account.token })).status, 204);
    const response = await mailed.server.request('POST', '/auth/login/', { body: { username: second.email, password: PASSWORD } });
    assert.equal(response.status, 400);
  });

  test('GET /account/emails/actions/ needs no token', async () => {
    const response = await mailed.server.request('GET', '/account/emails/actions/');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [
      { id: 1, label: 'noop' },
      { id: 2, label: 'replace primary email' },
    ]);
  });

  test('resend-verification: 204 and a fresh key (the older key still works); 400 once verified', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const email = uniqueEmail('resend');
    const added = await addAddress(account, { email });
    const first = await verificationKey(sink, email);
    const response = await server.request('POST', `/account/emails/${added.body.id}/resend-verification/`, { token: account.token });
    assert.equal(response.status, 204);
    const second = await verificationKey(sink, email, 2);
    assert.notEqual(first, second);
    assert.equal((await server.request('POST', '/account/verify-email/', { body: { key: first, password: PASSWORD } })).status, 200);
    const again = await server.request('POST', `/account/emails/${added.body.id}/resend-verification/`, { token: account.token });
    assert.equal(again.status, 400);
    assert.match(again.body.non_field_errors[0], /already verified/);
    const stale = await server.request('POST', '/account/verify-email/', { body: { key: second, password: PASSWORD } });
    assert.equal(stale.status, 400, 'keys of a verified address are used up');
    assert.equal(mailsTo(sink, email, VERIFY_SUBJECT).length, 2);
  });
});

describe('per-address verification e-mail cooldown (RATE_LIMITS=on)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({
      RATE_LIMITS: 'on',
      RATE_LIMIT_REGISTER: '100/1h',
      RATE_LIMIT_VERIFY_EMAIL: '100/1h',
      RATE_LIMIT_EMAIL_PER_ADDRESS: '1/1m',
    });
  });
  after(() => mailed.close());

  test('a resend within a minute of the last key: 429 with Retry-After, no e-mail; after the minute: 204', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const email = uniqueEmail('cool');
    const added = await server.request('POST', '/account/emails/', { token: account.token, body: { email } });
    await verificationKey(sink, email);
    const path = `/account/emails/${added.body.id}/resend-verification/`;
    const early = await server.request('POST', path, { token: account.token });
    assert.equal(early.status, 429);
    assert.equal(typeof early.body.detail, 'string');
    const retryAfter = Number(early.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    server.clock.advance(30_000);
    assert.equal((await server.request('POST', path, { token: account.token })).status, 429);
    server.clock.advance(31_000);
    assert.equal((await server.request('POST', path, { token: account.token })).status, 204);
    await verificationKey(sink, email, 2);
    assert.equal((await server.request('POST', path, { token: account.token })).status, 429);
    assert.equal(mailsTo(sink, email, VERIFY_SUBJECT).length, 2);
  });
});
