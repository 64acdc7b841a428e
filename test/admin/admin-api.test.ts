// docs/operators.md: the operators' API, on a real server with real mail, on SQLite or PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AUDIT_RETENTION_MS } from '../../src/accounts/account-sweeper.ts';
import { ACCOUNT_DISABLED as ACCOUNT_DISABLED_KEY } from '../../src/accounts/sessions/sign-in-token.ts';
import { ALREADY_DELIVERED as ALREADY_DELIVERED_KEY, NOT_ON_YOURSELF as NOT_ON_YOURSELF_KEY } from '../../src/admin/admin-service.ts';
import { SECOND_FACTOR_NEEDED as SECOND_FACTOR_NEEDED_KEY } from '../../src/admin/operator-gate.ts';
import {
  PASSWORD,
  mailsTo,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  waitForMail,
  type MailedServer,
  type RegisteredAccount,
} from '../accounts/account-flows.ts';
import { freshCode, turnOnTotp } from '../accounts/mfa-flows.ts';
import { PUBLIC_URL } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.ts';
import { ACCOUNT_FIELDS, makeOperator, registerOperator, type Operator } from './admin-flows.ts';
import { english } from '../helpers/english.ts';

const ACCOUNT_DISABLED = english(ACCOUNT_DISABLED_KEY);
const ALREADY_DELIVERED = english(ALREADY_DELIVERED_KEY);
const NOT_ON_YOURSELF = english(NOT_ON_YOURSELF_KEY);
const SECOND_FACTOR_NEEDED = english(SECOND_FACTOR_NEEDED_KEY);

const PASSKEY_SITE = { origin: PUBLIC_URL, rpId: new URL(PUBLIC_URL).hostname };

describe('operators (/admin/)', () => {
  let mailed: MailedServer;
  let operator: Operator;
  /** An operator who has not turned a second factor on. */
  let bareOperator: RegisteredAccount;
  let person: RegisteredAccount;

  before(async () => {
    mailed = await startMailedServer();
    operator = await registerOperator(mailed);
    bareOperator = await registerVerified(mailed, uniqueEmail('bare-operator'));
    await makeOperator(mailed.server, bareOperator);
    person = await registerVerified(mailed, uniqueEmail('person'));
  });
  after(() => mailed.close());

  const as = (token: string | undefined) => (method: string, path: string, body?: unknown) =>
    mailed.server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
  const op = (method: string, path: string, body?: unknown) => as(operator.token)(method, path, body);

  const logIn = (email: string) => mailed.server.request('POST', '/auth/login/', { body: { username: email, password: PASSWORD } });

  async function auditNewest() {
    const audit = await op('GET', '/admin/audit/');
    assert.equal(audit.status, 200, audit.text);
    return audit.body[0];
  }

  test('every route answers anyone but an operator as an unknown path does, and changes nothing', async () => {
    const target = await registerVerified(mailed, uniqueEmail('untouched'));
    const unknown = await mailed.server.request('GET', '/admin/no-such-route/');
    assert.equal(unknown.status, 404);
    const routes: [string, string][] = [
      ['GET', '/admin/accounts/?email=example'],
      ['GET', `/admin/accounts/${target.id}/`],
      ['POST', `/admin/accounts/${target.id}/disable/`],
      ['POST', `/admin/accounts/${target.id}/enable/`],
      ['POST', `/admin/accounts/${target.id}/mfa-off/`],
      ['POST', `/admin/accounts/${target.id}/resend-verification/`],
      ['POST', `/admin/accounts/${target.id}/sessions-end/`],
      ['DELETE', `/admin/accounts/${target.id}/`],
      ['GET', '/admin/outbox/'],
      ['POST', '/admin/outbox/1/retry/'],
      ['GET', '/admin/audit/'],
    ];
    const callers: [string, Record<string, string>][] = [
      ['anonymous', {}],
      ['a bad token', { authorization: 'Token not-a-token' }],
      ['a malformed header', { authorization: 'Bearer x' }],
      ['an account that is no operator', { authorization: `Token ${person.token}` }],
    ];
    for (const [method, path] of routes) {
      for (const [who, headers] of callers) {
        // A body that would not validate: the 404 comes before the input is looked at.
        const response = await mailed.server.request(method, path, { headers, ...(method === 'GET' ? {} : { body: { reason: 5 } }) });
        assert.equal(response.status, 404, `${method} ${path} by ${who}: ${response.text}`);
        assert.deepEqual(response.body, unknown.body, `${method} ${path} by ${who}`);
        assert.equal(response.headers.get('www-authenticate'), null);
      }
      const bare = await as(bareOperator.token)(method, path, method === 'GET' ? undefined : {});
      assert.equal(bare.status, 403, `${method} ${path} by an operator without a second factor`);
      assert.deepEqual(bare.body, { detail: SECOND_FACTOR_NEEDED });
    }
    const seen = await op('GET', `/admin/accounts/${target.id}/`);
    assert.equal(seen.body.disabled, false);
    assert.equal(seen.body.sessions, 1);
    assert.equal((await mailed.server.request('GET', '/account/profile/', { token: target.token })).status, 200);
    const audit = await op('GET', '/admin/audit/');
    assert.deepEqual(
      audit.body.filter((r: { account_id: number }) => r.account_id === target.id).map((r: { action: string }) => r.action),
      ['view'],
      "nothing recorded but the operator's own view",
    );
  });

  test('find: by any part of any address, any case, at most 50, by id; the detail adds the addresses and nothing personal', async () => {
    const found = await op('GET', `/admin/accounts/?email=${encodeURIComponent(person.email.slice(0, 12).toUpperCase())}`);
    assert.equal(found.status, 200, found.text);
    assert.deepEqual(
      found.body.map((a: { id: number }) => a.id),
      [person.id],
    );
    const [row] = found.body;
    assert.deepEqual(Object.keys(row).sort(), ACCOUNT_FIELDS);
    assert.equal(row.email, person.email);
    assert.equal(row.disabled, false);
    assert.equal(row.second_factor, false);
    assert.equal(row.is_operator, false);
    assert.equal(row.sessions, 1);
    assert.ok(Date.parse(row.last_sign_in_at) > 0);

    // The LIKE wildcards are literal text: "%" matches no address.
    assert.deepEqual((await op('GET', '/admin/accounts/?email=%25')).body, []);
    const all = await op('GET', '/admin/accounts/?email=');
    assert.ok(all.body.length >= 3);
    const ids = all.body.map((a: { id: number }) => a.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => a - b),
    );

    const detail = await op('GET', `/admin/accounts/${operator.id}/`);
    assert.equal(detail.status, 200);
    assert.deepEqual(Object.keys(detail.body).sort(), [...ACCOUNT_FIELDS, 'email_addresses'].sort());
    assert.deepEqual(detail.body.email_addresses, [{ email: operator.email, verified: true, primary: true }]);
    assert.equal(detail.body.is_operator, true);
    assert.equal(detail.body.second_factor, true);
  });

  test('reads are recorded: a find with its text, a view with the account; what answers 4xx is not', async () => {
    const target = await registerVerified(mailed, uniqueEmail('looked-at'));
    const text = target.email.slice(0, 15).toUpperCase();
    const found = await op('GET', `/admin/accounts/?email=${encodeURIComponent(text)}`);
    assert.equal(found.status, 200, found.text);
    const find = await auditNewest();
    assert.deepEqual(
      { ...find, id: 0, at: '' },
      {
        id: 0,
        at: '',
        via: 'api',
        operator: { id: operator.id, email: operator.email },
        action: 'find',
        account_id: null,
        reason: null,
        search: text,
        cli_user: null,
      },
    );
    assert.equal((await op('GET', '/admin/accounts/')).status, 200);
    assert.deepEqual([(await auditNewest()).action, (await auditNewest()).search], ['find', null], 'a find without text');

    assert.equal((await op('GET', `/admin/accounts/${target.id}/`)).status, 200);
    const view = await auditNewest();
    assert.deepEqual([view.action, view.account_id, view.search, view.operator.id], ['view', target.id, null, operator.id]);

    const before = (await op('GET', '/admin/audit/?limit=500')).body.length;
    assert.equal((await op('GET', '/admin/accounts/99999999/')).status, 404);
    assert.equal((await op('GET', `/admin/accounts/?email=${'a'.repeat(255)}`)).status, 400);
    assert.equal((await as(operator.passwordToken)('GET', `/admin/accounts/${target.id}/`)).status, 403);
    assert.equal((await op('GET', '/admin/audit/?limit=500')).body.length, before, 'nothing more recorded');
  });

  test('bad ids and bad bodies are 4xx, never 500', async () => {
    for (const path of ['/admin/accounts/abc/', '/admin/accounts/0/', '/admin/accounts/99999999999/', '/admin/accounts/999999/']) {
      assert.equal((await op('GET', path)).status, 404, path);
      assert.equal((await op('POST', `${path}disable/`, {})).status, 404, path);
    }
    assert.equal((await op('POST', '/admin/outbox/abc/retry/')).status, 404);
    const badReason = await op('POST', `/admin/accounts/${person.id}/sessions-end/`, { reason: 5 });
    assert.equal(badReason.status, 400, badReason.text);
    const notAnObject = await op('POST', `/admin/accounts/${person.id}/sessions-end/`, ['reason']);
    assert.equal(notAnObject.status, 400, notAnObject.text);
    const long = await op('POST', `/admin/accounts/${person.id}/sessions-end/`, { reason: 'x'.repeat(501) });
    assert.equal(long.status, 400, long.text);
    const notJson = await mailed.server.request('POST', `/admin/accounts/${person.id}/sessions-end/`, {
      token: operator.token,
      raw: 'reason',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(notJson.status, 415, notJson.text);
    for (const limit of ['abc', '0', '501', '-1']) assert.equal((await op('GET', `/admin/audit/?limit=${limit}`)).status, 400, limit);
    assert.equal((await op('GET', `/admin/accounts/?email=${'a'.repeat(300)}`)).status, 400);
    const stillThere = await op('GET', `/admin/accounts/${person.id}/`);
    assert.equal(stillThere.body.sessions, 1, 'no refused action ended anything');
  });

  test('disable: every token answers 401 from the next request, every sign-in is refused with a sentence; enable restores sign-in', async () => {
    const target = await registerVerified(mailed, uniqueEmail('disabled'));
    const second = (await logIn(target.email)).body.token as string;
    const disabled = await op('POST', `/admin/accounts/${target.id}/disable/`, { reason: 'Reported stolen' });
    assert.equal(disabled.status, 200, disabled.text);
    assert.equal(disabled.body.disabled, true);
    assert.equal(disabled.body.sessions, 0);
    for (const token of [target.token, second]) {
      assert.equal((await mailed.server.request('GET', '/account/profile/', { token })).status, 401);
    }
    const refused = await logIn(target.email);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { non_field_errors: [ACCOUNT_DISABLED] });
    // A wrong password learns nothing of it.
    const wrong = await mailed.server.request('POST', '/auth/login/', { body: { username: target.email, password: 'not-it-at-all-1' } });
    assert.equal(wrong.status, 400);
    assert.notDeepEqual(wrong.body, refused.body);

    const newest = await auditNewest();
    assert.equal(newest.action, 'disable');
    assert.equal(newest.account_id, target.id);
    assert.equal(newest.reason, 'Reported stolen');
    assert.equal(newest.via, 'api');
    assert.deepEqual(newest.operator, { id: operator.id, email: operator.email });
    assert.deepEqual(Object.keys(newest).sort(), ['account_id', 'action', 'at', 'cli_user', 'id', 'operator', 'reason', 'search', 'via']);
    assert.deepEqual([newest.search, newest.cli_user], [null, null]);

    const enabled = await op('POST', `/admin/accounts/${target.id}/enable/`);
    assert.equal(enabled.status, 200, enabled.text);
    assert.equal(enabled.body.disabled, false);
    const back = await logIn(target.email);
    assert.equal(back.status, 200, back.text);
    assert.equal((await mailed.server.request('GET', '/account/profile/', { token: back.body.token })).status, 200);
    assert.equal((await auditNewest()).reason, null);
  });

  test('disable refuses the second step of a sign-in already past its password', async () => {
    const target = await registerVerified(mailed, uniqueEmail('two-step-disabled'));
    const { secret } = await turnOnTotp(mailed.server, target);
    const first = await logIn(target.email);
    assert.equal(first.body.mfa_required, true);
    assert.equal((await op('POST', `/admin/accounts/${target.id}/disable/`)).status, 200);
    const second = await mailed.server.request('POST', '/auth/login/mfa/', {
      body: { mfa_token: first.body.mfa_token, code: freshCode(mailed.server, secret) },
    });
    assert.equal(second.status, 400);
    assert.equal((await logIn(target.email)).status, 400);
    assert.deepEqual((await logIn(target.email)).body, { non_field_errors: [ACCOUNT_DISABLED] });

    // A disabling that lands between the password and the code, its challenges still there:
    // the token itself is refused (sign-in-token.ts), not only the dead challenge.
    assert.equal((await op('POST', `/admin/accounts/${target.id}/enable/`)).status, 200);
    const again = await logIn(target.email);
    assert.equal(again.body.mfa_required, true);
    const { kysely } = mailed.server.server.ctx.db;
    await kysely.updateTable('accounts').set({ disabled_at: mailed.server.clock.now() }).where('id', '=', target.id).execute();
    const late = await mailed.server.request('POST', '/auth/login/mfa/', {
      body: { mfa_token: again.body.mfa_token, code: freshCode(mailed.server, secret) },
    });
    assert.deepEqual([late.status, late.body], [400, { non_field_errors: [ACCOUNT_DISABLED] }]);
  });

  test('disable refuses a passkey sign-in too, and a passkey keeps working once enabled', async () => {
    const target = await registerVerified(mailed, uniqueEmail('passkey-disabled'));
    const request = mailed.server.request;
    const authenticator = new SoftwareAuthenticator(PASSKEY_SITE);
    const options = await request('POST', '/account/passkeys/options/', { token: target.token, body: { password: PASSWORD } });
    const added = await request('POST', '/account/passkeys/', {
      token: target.token,
      body: { name: 'Laptop', response: authenticator.create(options.body) },
    });
    assert.equal(added.status, 201, added.text);
    const passkeySignIn = async () =>
      request('POST', '/auth/passkey/', { body: { response: authenticator.get((await request('POST', '/auth/passkey/options/')).body) } });
    assert.equal((await op('POST', `/admin/accounts/${target.id}/disable/`)).status, 200);
    const refused = await passkeySignIn();
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body, { non_field_errors: [ACCOUNT_DISABLED] });
    assert.equal((await op('POST', `/admin/accounts/${target.id}/enable/`)).status, 200);
    const signedIn = await passkeySignIn();
    assert.equal(signedIn.status, 200, signedIn.text);
    const seen = await op('GET', `/admin/accounts/${target.id}/`);
    assert.equal(seen.body.sessions, 1);
    assert.equal(seen.body.second_factor, true, 'a passkey counts as a second factor');
  });

  test('mfa-off: TOTP and recovery codes go, the person is e-mailed, and the password alone signs in', async () => {
    const target = await registerVerified(mailed, uniqueEmail('lost-phone'));
    await turnOnTotp(mailed.server, target);
    assert.equal((await logIn(target.email)).body.mfa_required, true);
    const off = await op('POST', `/admin/accounts/${target.id}/mfa-off/`, { reason: 'Lost phone, identity checked' });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.second_factor, false);
    const { kysely } = mailed.server.server.ctx.db;
    assert.equal((await kysely.selectFrom('totp_secrets').selectAll().where('account_id', '=', target.id).execute()).length, 0);
    assert.equal((await kysely.selectFrom('recovery_codes').selectAll().where('account_id', '=', target.id).execute()).length, 0);
    const mail = await waitForMail(mailed.sink, target.email, 'Two-step sign-in was turned off by the service');
    assert.match(mail.decoded, /turned off two-step sign-in/);
    const signedIn = await logIn(target.email);
    assert.equal(signedIn.status, 200);
    assert.ok(signedIn.body.token);
    const again = await op('POST', `/admin/accounts/${target.id}/mfa-off/`);
    assert.equal(again.status, 400, 'nothing left to turn off');
    assert.equal((await auditNewest()).action, 'mfa-off');
  });

  test('an operator cannot disable, delete or turn off the second factor of their own account', async () => {
    for (const [method, path] of [
      ['POST', 'disable/'],
      ['POST', 'mfa-off/'],
      ['DELETE', ''],
    ] as const) {
      const response = await op(method, `/admin/accounts/${operator.id}/${path}`, {});
      assert.equal(response.status, 400, path);
      assert.deepEqual(response.body, { non_field_errors: [NOT_ON_YOURSELF] });
    }
    const self = await op('GET', `/admin/accounts/${operator.id}/`);
    assert.equal(self.body.disabled, false);
    assert.equal(self.body.second_factor, true);
  });

  test('sessions-end ends every session; signing in again works', async () => {
    const target = await registerVerified(mailed, uniqueEmail('sessions'));
    const other = (await logIn(target.email)).body.token as string;
    const ended = await op('POST', `/admin/accounts/${target.id}/sessions-end/`, { reason: 'Shared computer' });
    assert.equal(ended.status, 204, ended.text);
    for (const token of [target.token, other]) {
      assert.equal((await mailed.server.request('GET', '/account/profile/', { token })).status, 401);
    }
    assert.equal((await logIn(target.email)).status, 200);
    assert.equal((await auditNewest()).action, 'sessions-end');
  });

  test('resend-verification: a fresh key to each unverified address, which verifies it', async () => {
    const target = await registerVerified(mailed, uniqueEmail('resend'));
    assert.equal((await op('POST', `/admin/accounts/${target.id}/resend-verification/`)).status, 400, 'all verified');
    const added = uniqueEmail('added');
    const add = await mailed.server.request('POST', '/account/emails/', { token: target.token, body: { email: added } });
    assert.equal(add.status, 201, add.text);
    await verificationKey(mailed.sink, added);
    const resent = await op('POST', `/admin/accounts/${target.id}/resend-verification/`);
    assert.equal(resent.status, 204, resent.text);
    const key = await verificationKey(mailed.sink, added, 2);
    const verified = await mailed.server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } });
    assert.equal(verified.status, 200, verified.text);
    const detail = await op('GET', `/admin/accounts/${target.id}/`);
    assert.deepEqual(detail.body.email_addresses, [
      { email: target.email, verified: true, primary: true },
      { email: added, verified: true, primary: false },
    ]);
  });

  test('delete: the account deletion with its notice, recorded', async () => {
    const target = await registerVerified(mailed, uniqueEmail('deleted'));
    const deleted = await op('DELETE', `/admin/accounts/${target.id}/`, { reason: 'Asked by letter' });
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal((await mailed.server.request('GET', '/account/profile/', { token: target.token })).status, 401);
    assert.equal((await op('GET', `/admin/accounts/${target.id}/`)).status, 404);
    await waitForMail(mailed.sink, target.email, 'Your account has been deleted');
    const newest = await auditNewest();
    assert.deepEqual([newest.action, newest.account_id, newest.reason], ['delete', target.id, 'Asked by letter']);
    assert.equal((await op('DELETE', `/admin/accounts/${target.id}/`)).status, 404);
  });

  test('the outbox: counts and messages without a recipient or a body; a failed message is retried', async () => {
    const { kysely } = mailed.server.server.ctx.db;
    const now = mailed.server.clock.now();
    const failed = await kysely
      .insertInto('outbox')
      .values({
        kind: 'email',
        payload: JSON.stringify({ to: 'secret-recipient@example.com', subject: 'Secret subject', text: 'Secret body' }),
        state: 'failed',
        attempts: 8,
        next_attempt_at: now,
        created_at: now,
        last_error: '550 5.1.1 <secret-recipient@example.com>: Recipient address rejected',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const view = await op('GET', '/admin/outbox/');
    assert.equal(view.status, 200, view.text);
    assert.deepEqual(Object.keys(view.body).sort(), ['failed', 'messages', 'oldest_pending_seconds', 'pending']);
    assert.ok(view.body.failed >= 1);
    const message = view.body.messages.find((m: { id: number }) => m.id === failed.id);
    assert.deepEqual(Object.keys(message).sort(), ['attempts', 'id', 'kind', 'last_error', 'next_attempt_at', 'state']);
    assert.deepEqual([message.state, message.attempts, message.next_attempt_at], ['failed', 8, null]);
    assert.equal(message.last_error, '550 5.1.1 <[address]>: Recipient address rejected');
    assert.doesNotMatch(view.text, /@|Secret/);

    const retried = await op('POST', `/admin/outbox/${failed.id}/retry/`, { reason: 'Mailbox fixed' });
    assert.equal(retried.status, 204, retried.text);
    const row = await kysely.selectFrom('outbox').select(['state', 'attempts']).where('id', '=', failed.id).executeTakeFirstOrThrow();
    assert.ok(row.state !== 'failed' || row.attempts < 8, 'queued again');
    assert.equal((await auditNewest()).action, 'outbox-retry');
    const sent = await kysely.selectFrom('outbox').select('id').where('state', '=', 'sent').executeTakeFirst();
    if (sent) assert.equal((await op('POST', `/admin/outbox/${sent.id}/retry/`)).status, 400);
    assert.equal((await op('POST', '/admin/outbox/99999999/retry/')).status, 404);
  });

  test('the outbox: a message waiting for its next attempt is tried at once; a delivered one is 400', async () => {
    const { kysely } = mailed.server.server.ctx.db;
    const now = mailed.server.clock.now();
    const to = uniqueEmail('waiting');
    const waiting = await kysely
      .insertInto('outbox')
      .values({
        kind: 'email',
        payload: JSON.stringify({ to, subject: 'Waited for', text: 'Body', html: '<p>Body</p>' }),
        state: 'pending',
        attempts: 3,
        next_attempt_at: now + 60 * 60 * 1000,
        created_at: now,
        last_error: '421 try again later',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const retried = await op('POST', `/admin/outbox/${waiting.id}/retry/`, { reason: 'Mail server back' });
    assert.equal(retried.status, 204, retried.text);
    const audited = await auditNewest();
    assert.deepEqual([audited.action, audited.reason], ['outbox-retry', 'Mail server back']);
    await waitForMail(mailed.sink, to, 'Waited for');
    await waitFor(async () => {
      const row = await kysely.selectFrom('outbox').select('state').where('id', '=', waiting.id).executeTakeFirstOrThrow();
      return row.state === 'sent';
    }, 'the message marked sent');
    const delivered = await op('POST', `/admin/outbox/${waiting.id}/retry/`);
    assert.equal(delivered.status, 400, delivered.text);
    assert.deepEqual(delivered.body, { non_field_errors: [ALREADY_DELIVERED] });
  });

  test('the audit keeps a record a year: the sweep removes older ones', async () => {
    const { kysely } = mailed.server.server.ctx.db;
    const now = mailed.server.clock.now();
    const old = await kysely
      .insertInto('operator_audit')
      .values({ at: now, via: 'cli', operator_account_id: null, action: 'enable', account_id: person.id, reason: 'kept' })
      .returning('id')
      .executeTakeFirstOrThrow();
    mailed.server.clock.advance(AUDIT_RETENTION_MS - 60_000);
    await mailed.server.server.sweeper.runOnce();
    assert.ok(await kysely.selectFrom('operator_audit').select('id').where('id', '=', old.id).executeTakeFirst(), 'within its year');
    mailed.server.clock.advance(120_000);
    await mailed.server.server.sweeper.runOnce();
    assert.equal(await kysely.selectFrom('operator_audit').select('id').where('id', '=', old.id).executeTakeFirst(), undefined);
  });

  test('no operator answer carries personal data, whatever the account keeps', async () => {
    const target = await registerVerified(mailed, uniqueEmail('keeper'));
    const profile = await mailed.server.request('PATCH', '/account/profile/', {
      token: target.token,
      body: { first_name: 'Keeper' },
    });
    assert.equal(profile.status, 200);
    const texts = [
      (await op('GET', `/admin/accounts/?email=${encodeURIComponent(target.email)}`)).text,
      (await op('GET', `/admin/accounts/${target.id}/`)).text,
      (await op('GET', '/admin/audit/')).text,
    ];
    for (const text of texts) {
      for (const field of ['profile', 'items', 'topics', 'emergency', 'media', 'accessors', 'app_user', 'password', 'token', 'secret']) {
        assert.doesNotMatch(text, new RegExp(`"${field}`), field);
      }
    }
    assert.equal(mailsTo(mailed.sink, target.email).length, 1, 'only the verification e-mail: looking sends nothing');
  });
});
