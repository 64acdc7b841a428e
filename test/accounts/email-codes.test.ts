// E-mailed codes (docs/accounts.md#codes-by-e-mail): the 6-digit code beside the link of every
// verification and reset e-mail, and signing in by e-mailed code. Real server, real SMTP sink,
// real database; the test clock moves time past a code's 10 minutes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SIGN_IN_WITH_SECOND_FACTOR as SIGN_IN_WITH_SECOND_FACTOR_KEY } from '../../src/admin/operator-gate.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { addPasskey, makeOperator } from '../admin/admin-flows.ts';
import { verifiedAccount } from '../helpers/factories.ts';
import type { ReceivedMail } from '../helpers/smtp-sink.ts';
import type { TestServer } from '../helpers/server.ts';
import {
  PASSWORD,
  RESET_SUBJECT,
  VERIFY_SUBJECT,
  logIn,
  mailsTo,
  register,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  waitForMail,
  type MailedServer,
} from './account-flows.ts';
import { freshCode, turnOnTotp } from './mfa-flows.ts';
import { english } from '../helpers/english.ts';

const SIGN_IN_WITH_SECOND_FACTOR = english(SIGN_IN_WITH_SECOND_FACTOR_KEY);

const SIGN_IN_SUBJECT = 'Your sign-in code';
const NEW_PASSWORD = 'amber-orchard-93-sextant';
const MINUTE = 60_000;

/** The code an e-mail carries, in its text and its HTML alike. */
function codeIn(mail: ReceivedMail): string {
  const codes = [...mail.decoded.matchAll(/: (\d{6})\. The code works once, for 10 minutes\./g)].map((m) => m[1]);
  assert.ok(codes.length >= 2, `no code in the text and HTML of: ${mail.subject}`);
  assert.ok(
    codes.every((c) => c === codes[0]),
    'the text and HTML carry the same code',
  );
  return codes[0]!;
}

/** A 6-digit code that is not `code`. */
function otherThan(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

describe('codes by e-mail', () => {
  let mailed: MailedServer;
  let server: TestServer;
  before(async () => {
    mailed = await startMailedServer();
    server = mailed.server;
  });
  after(() => mailed.close());

  async function signInCodeMail(email: string, count = 1): Promise<string> {
    const asked = await server.request('POST', '/auth/email-code/', { body: { email } });
    assert.equal(asked.status, 200, asked.text);
    assert.deepEqual(asked.body, { email });
    return codeIn(await waitForMail(mailed.sink, email, SIGN_IN_SUBJECT, count));
  }

  function signIn(email: string, emailCode: string) {
    return server.request('POST', '/auth/login/email-code/', { body: { email, email_code: emailCode } });
  }

  async function resetCodeMail(email: string, count = 1): Promise<string> {
    const asked = await server.request('POST', '/account/reset-password/', { body: { email } });
    assert.equal(asked.status, 200, asked.text);
    return codeIn(await waitForMail(mailed.sink, email, RESET_SUBJECT, count));
  }

  function assertWrongCode(response: { status: number; body: any; text: string }) {
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(Object.keys(response.body), ['email_code']);
    assert.match(response.body.email_code[0], /wrong or no longer valid/);
  }

  describe('verification', () => {
    test('the verification e-mail carries a code beside its link; {email, email_code, password} verifies, once', async () => {
      const email = uniqueEmail('vcode');
      assert.equal((await register(server, email)).status, 201);
      const mail = await waitForMail(mailed.sink, email, VERIFY_SUBJECT);
      assert.match(mail.decoded, /key=/);
      const code = codeIn(mail);
      const verified = await server.request('POST', '/account/verify-email/', { body: { email, email_code: code, password: PASSWORD } });
      assert.equal(verified.status, 200, verified.text);
      assert.deepEqual(verified.body, {});
      const token = await logIn(server, email);
      assert.ok(token);
      assertWrongCode(await server.request('POST', '/account/verify-email/', { body: { email, email_code: code, password: PASSWORD } }));
    });

    test('a wrong password: 400 non_field_errors, and the code still works', async () => {
      const email = uniqueEmail('vcode');
      await register(server, email);
      const code = codeIn(await waitForMail(mailed.sink, email, VERIFY_SUBJECT));
      const wrong = await server.request('POST', '/account/verify-email/', {
        body: { email: email.toUpperCase(), email_code: code, password: 'not-the-password-1' },
      });
      assert.equal(wrong.status, 400);
      assert.deepEqual(Object.keys(wrong.body), ['non_field_errors']);
      const right = await server.request('POST', '/account/verify-email/', {
        body: { email, email_code: ` ${code} `, password: PASSWORD },
      });
      assert.equal(right.status, 200, right.text);
    });

    test('a code sent to another address does not verify this one', async () => {
      const email = uniqueEmail('vcode');
      await register(server, email);
      const code = codeIn(await waitForMail(mailed.sink, email, VERIFY_SUBJECT));
      const other = uniqueEmail('vcode');
      await register(server, other);
      await waitForMail(mailed.sink, other, VERIFY_SUBJECT);
      assertWrongCode(
        await server.request('POST', '/account/verify-email/', { body: { email: other, email_code: code, password: PASSWORD } }),
      );
    });
  });

  describe('password reset', () => {
    test('the reset e-mail carries a code beside its link; {email, email_code, new_password} resets, once, and ends every token', async () => {
      const account = await registerVerified(mailed);
      const mail = await (async () => {
        await server.request('POST', '/account/reset-password/', { body: { email: account.email } });
        return waitForMail(mailed.sink, account.email, RESET_SUBJECT);
      })();
      assert.match(mail.decoded, /key=/);
      const code = codeIn(mail);
      const changed = await server.request('POST', '/account/change-password/', {
        body: { email: account.email, email_code: code, new_password: NEW_PASSWORD },
      });
      assert.equal(changed.status, 200, changed.text);
      assert.equal((await server.request('GET', '/account/profile/', { token: account.token })).status, 401);
      assert.ok(await logIn(server, account.email, NEW_PASSWORD));
      assertWrongCode(
        await server.request('POST', '/account/change-password/', {
          body: { email: account.email, email_code: code, new_password: 'another-new-password-77' },
        }),
      );
    });

    test('with TOTP on, a reset by code also needs the second factor (400 under code), and the code is not used up', async () => {
      const account = await registerVerified(mailed);
      const { secret } = await turnOnTotp(server, account);
      const code = await resetCodeMail(account.email);
      const body = { email: account.email, email_code: code, new_password: NEW_PASSWORD };
      const missing = await server.request('POST', '/account/change-password/', { body });
      assert.equal(missing.status, 400);
      assert.deepEqual(Object.keys(missing.body), ['code']);
      const done = await server.request('POST', '/account/change-password/', { body: { ...body, code: freshCode(server, secret) } });
      assert.equal(done.status, 200, done.text);
    });

    test('a password change ends the reset code', async () => {
      const account = await registerVerified(mailed);
      const code = await resetCodeMail(account.email);
      const changed = await server.request('POST', '/account/change-password/', {
        token: account.token,
        body: { old_password: PASSWORD, new_password: NEW_PASSWORD },
      });
      assert.equal(changed.status, 200, changed.text);
      assertWrongCode(
        await server.request('POST', '/account/change-password/', {
          body: { email: account.email, email_code: code, new_password: 'another-new-password-77' },
        }),
      );
    });
  });

  describe('signing in', () => {
    test('POST /auth/email-code/ mails a code; POST /auth/login/email-code/ answers a token, once', async () => {
      const account = await registerVerified(mailed);
      const code = await signInCodeMail(account.email);
      const signedIn = await signIn(account.email.toUpperCase(), code);
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.deepEqual(Object.keys(signedIn.body), ['token']);
      const sessions = await server.request('GET', '/auth/sessions/', { token: signedIn.body.token });
      assert.equal(sessions.status, 200);
      assert.equal(sessions.body.find((s: any) => s.current).sign_in_method, 'email_code');
      assertWrongCode(await signIn(account.email, code));
    });

    test('an unknown address: the same 200 and no e-mail; a code for it: the same 400 as a wrong one', async () => {
      const unknown = uniqueEmail('nobody');
      const asked = await server.request('POST', '/auth/email-code/', { body: { email: unknown } });
      assert.equal(asked.status, 200);
      assert.deepEqual(asked.body, { email: unknown });
      const account = await registerVerified(mailed);
      const code = await signInCodeMail(account.email);
      const forUnknown = await signIn(unknown, code);
      const wrongForKnown = await signIn(account.email, otherThan(code));
      assertWrongCode(forUnknown);
      assert.deepEqual(forUnknown.body, wrongForKnown.body);
      assert.equal(mailsTo(mailed.sink, unknown).length, 0);
    });

    test('no code goes to an unverified address or a disabled account', async () => {
      const unverified = uniqueEmail('unverified');
      await register(server, unverified);
      await waitForMail(mailed.sink, unverified, VERIFY_SUBJECT);
      assert.equal((await server.request('POST', '/auth/email-code/', { body: { email: unverified } })).status, 200);
      const disabled = await registerVerified(mailed);
      await server.server.ctx.db.kysely
        .updateTable('accounts')
        .set({ disabled_at: server.clock.now() })
        .where('id', '=', disabled.id)
        .execute();
      assert.equal((await server.request('POST', '/auth/email-code/', { body: { email: disabled.email } })).status, 200);
      // A later code to another address shows the worker has delivered what was queued before it.
      const witness = await registerVerified(mailed);
      await signInCodeMail(witness.email);
      assert.equal(mailsTo(mailed.sink, unverified, SIGN_IN_SUBJECT).length, 0);
      assert.equal(mailsTo(mailed.sink, disabled.email, SIGN_IN_SUBJECT).length, 0);
    });

    test('a code dies after five wrong tries, the right one included after', async () => {
      const account = await registerVerified(mailed);
      const code = await signInCodeMail(account.email);
      for (let i = 0; i < 5; i++) assertWrongCode(await signIn(account.email, otherThan(code)));
      assertWrongCode(await signIn(account.email, code));
    });

    test('four wrong tries leave the code alive', async () => {
      const account = await registerVerified(mailed);
      const code = await signInCodeMail(account.email);
      for (let i = 0; i < 4; i++) assertWrongCode(await signIn(account.email, otherThan(code)));
      assert.equal((await signIn(account.email, code)).status, 200);
    });

    test('the newest code ends the older one', async () => {
      const account = await registerVerified(mailed);
      const first = await signInCodeMail(account.email);
      server.clock.advance(MINUTE + 1000);
      const second = await signInCodeMail(account.email, 2);
      if (first !== second) assertWrongCode(await signIn(account.email, first));
      assert.equal((await signIn(account.email, second)).status, 200);
    });

    test('a newer reset e-mail ends the older reset code; a sign-in code leaves it alone', async () => {
      const account = await registerVerified(mailed);
      const first = await resetCodeMail(account.email);
      server.clock.advance(MINUTE + 1000);
      await signInCodeMail(account.email);
      server.clock.advance(MINUTE + 1000);
      const second = await resetCodeMail(account.email, 2);
      if (first !== second) {
        assertWrongCode(
          await server.request('POST', '/account/change-password/', {
            body: { email: account.email, email_code: first, new_password: NEW_PASSWORD },
          }),
        );
      }
      const done = await server.request('POST', '/account/change-password/', {
        body: { email: account.email, email_code: second, new_password: NEW_PASSWORD },
      });
      assert.equal(done.status, 200, done.text);
    });

    test('a code lives 10 minutes', async () => {
      const early = await registerVerified(mailed);
      const late = await registerVerified(mailed);
      const earlyCode = await signInCodeMail(early.email);
      const lateCode = await signInCodeMail(late.email);
      server.clock.advance(10 * MINUTE - 1000);
      assert.equal((await signIn(early.email, earlyCode)).status, 200);
      server.clock.advance(2000);
      assertWrongCode(await signIn(late.email, lateCode));
    });

    test('with TOTP on, a right code answers the two-step answer; /auth/login/mfa/ completes it', async () => {
      const account = await registerVerified(mailed);
      const { secret } = await turnOnTotp(server, account);
      const code = await signInCodeMail(account.email);
      const first = await signIn(account.email, code);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.mfa_required, true);
      assert.equal(first.body.token, undefined);
      const second = await server.request('POST', '/auth/login/mfa/', {
        body: { mfa_token: first.body.mfa_token, code: freshCode(server, secret) },
      });
      assert.equal(second.status, 200, second.text);
      assert.ok(second.body.token);
      const sessions = await server.request('GET', '/auth/sessions/', { token: second.body.token });
      assert.deepEqual(
        sessions.body.map((s: { sign_in_method: string; current: boolean }) => [s.sign_in_method, s.current]),
        [
          ['password', false],
          ['email_code+totp', true],
        ],
      );
    });

    test("an operator's session: an e-mailed code alone is one factor, the code then TOTP two", async () => {
      const account = await registerVerified(mailed);
      await makeOperator(server, account);
      const audit = (token: string) => server.request('GET', '/admin/audit/', { token });
      // A passkey and no TOTP: the code signs in in one step, a session of one factor.
      await addPasskey(server, account.token);
      const alone = await signIn(account.email, await signInCodeMail(account.email));
      assert.equal(alone.status, 200, alone.text);
      const refused = await audit(alone.body.token);
      assert.deepEqual([refused.status, refused.body], [403, { detail: SIGN_IN_WITH_SECOND_FACTOR }], 'the code alone');
      const { secret } = await turnOnTotp(server, account);
      server.clock.advance(MINUTE + 1000); // past the per-address cooldown of sign-in codes
      const first = await signIn(account.email, await signInCodeMail(account.email, 2));
      assert.equal(first.body.mfa_required, true, first.text);
      const second = await server.request('POST', '/auth/login/mfa/', {
        body: { mfa_token: first.body.mfa_token, code: freshCode(server, secret) },
      });
      assert.equal(second.status, 200, second.text);
      assert.equal((await audit(second.body.token)).status, 200, 'the code then TOTP');
    });

    test('an account without a password signs in by code', async () => {
      const made = await verifiedAccount(server.server.ctx.db.kysely, { passwordHash: '', now: server.clock.now() });
      const code = await signInCodeMail(made.email);
      const signedIn = await signIn(made.email, code);
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.ok(signedIn.body.token);
    });
  });

  describe('malformed bodies: 400, never 500', () => {
    const cases: Array<[string, string, unknown]> = [
      ['/auth/email-code/', 'no address', {}],
      ['/auth/email-code/', 'not an address', { email: 'not-an-address' }],
      ['/auth/email-code/', 'a number', { email: 42 }],
      ['/auth/login/email-code/', 'no code', { email: 'a@example.com' }],
      ['/auth/login/email-code/', 'no address', { email_code: '123456' }],
      ['/auth/login/email-code/', 'a numeric code', { email: 'a@example.com', email_code: 123456 }],
      ['/auth/login/email-code/', 'an empty code', { email: 'a@example.com', email_code: '' }],
      ['/auth/login/email-code/', 'a code of letters', { email: 'a@example.com', email_code: 'abcdef' }],
      ['/auth/login/email-code/', 'a huge code', { email: 'a@example.com', email_code: '1'.repeat(10_000) }],
      ['/account/verify-email/', 'a code without the address', { email_code: '123456', password: PASSWORD }],
      ['/account/verify-email/', 'both key and code', { key: 'k', email: 'a@example.com', email_code: '123456', password: PASSWORD }],
      ['/account/verify-email/', 'neither key nor code', { password: PASSWORD }],
      ['/account/change-password/', 'a code without the address', { email_code: '123456', new_password: NEW_PASSWORD }],
      ['/account/change-password/', 'key and code', { key: 'k', email: 'a@example.com', email_code: '123456', new_password: NEW_PASSWORD }],
      ['/account/change-password/', 'a bad address', { email: 'nope', email_code: '123456', new_password: NEW_PASSWORD }],
    ];
    for (const [path, what, body] of cases) {
      test(`${path}: ${what}`, async () => {
        const response = await server.request('POST', path, { body });
        assert.equal(response.status, 400, response.text);
      });
    }

    test('malformed JSON: 400', async () => {
      for (const path of ['/auth/email-code/', '/auth/login/email-code/']) {
        const response = await server.request('POST', path, { raw: '{"email": ', headers: { 'content-type': 'application/json' } });
        assert.equal(response.status, 400);
      }
    });
  });
});

describe('codes by e-mail, with the limits on', () => {
  let mailed: MailedServer;
  let server: TestServer;
  before(async () => {
    mailed = await startMailedServer({ RATE_LIMITS: 'on', TRUST_PROXY: '127.0.0.1' });
    server = mailed.server;
  });
  after(() => mailed.close());

  function signIn(email: string, emailCode: string, ip: string) {
    return server.request('POST', '/auth/login/email-code/', {
      body: { email, email_code: emailCode },
      headers: { 'x-forwarded-for': ip },
    });
  }

  async function account(): Promise<{ email: string; code: string }> {
    const email = uniqueEmail('limited');
    const passwordHash = await hashPassword(PASSWORD);
    await verifiedAccount(server.server.ctx.db.kysely, { email, passwordHash, now: server.clock.now() });
    const asked = await server.request('POST', '/auth/email-code/', { body: { email }, headers: { 'x-forwarded-for': '10.9.9.9' } });
    assert.equal(asked.status, 200, asked.text);
    return { email, code: codeIn(await waitForMail(mailed.sink, email, SIGN_IN_SUBJECT)) };
  }

  test('a second code to one address inside the minute: 200, nothing sent', async () => {
    const { email } = await account();
    const again = await server.request('POST', '/auth/email-code/', { body: { email }, headers: { 'x-forwarded-for': '10.9.9.8' } });
    assert.equal(again.status, 200);
    // Another address's code, asked later, arrives: the one before it was not queued.
    await account();
    assert.equal(mailsTo(mailed.sink, email, SIGN_IN_SUBJECT).length, 1);
  });

  test('wrong codes count as login failures per address and IP: the sixth is 429, even when right', async () => {
    const { email, code } = await account();
    // Five of the code's own tries and five of the account and IP's failures: spent together.
    for (let i = 0; i < 5; i++) assert.equal((await signIn(email, otherThan(code), '10.1.1.1')).status, 400);
    const blocked = await signIn(email, code, '10.1.1.1');
    assert.equal(blocked.status, 429);
    assert.ok(blocked.headers.get('retry-after'));
  });

  test('per IP: the eleventh wrong code in a minute from one IP is 429, across addresses; another IP signs in', async () => {
    const accounts = await Promise.all([account(), account(), account(), account(), account(), account()]);
    let answered = 0;
    for (let i = 0; i < 10; i++) {
      const target = accounts[i % 5]!;
      const response = await signIn(target.email, otherThan(target.code), '10.2.2.2');
      assert.equal(response.status, 400, response.text);
      answered++;
    }
    assert.equal(answered, 10);
    const blocked = await signIn(accounts[5]!.email, accounts[5]!.code, '10.2.2.2');
    assert.equal(blocked.status, 429);
    const elsewhere = await signIn(accounts[5]!.email, accounts[5]!.code, '10.3.3.3');
    assert.equal(elsewhere.status, 200, elsewhere.text);
  });

  test('per IP: asking for codes is limited too (10 an hour)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await server.request('POST', '/auth/email-code/', {
        body: { email: uniqueEmail('asker') },
        headers: { 'x-forwarded-for': '10.4.4.4' },
      });
      statuses.push(response.status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
  });
});
