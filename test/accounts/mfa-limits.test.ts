// docs/api-conventions.md#limits, docs/accounts.md: the limits on the login's second step hold for someone who
// knows the password — a right password gives nothing back, wrong codes in a row lock the
// second step and tell the owner (once), an mfa_token's cap holds under parallel codes, and
// the logins waiting for a second step end with a password change, a reset, logout-all and
// MFA turned off. Through the real server, with a real SMTP sink.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DEAD_MFA_TOKEN as DEAD_MFA_TOKEN_KEY,
  EXHAUSTED_MFA_TOKEN as EXHAUSTED_MFA_TOKEN_KEY,
} from '../../src/accounts/login/login-service.ts';
import { NOT_ON as NOT_ON_KEY } from '../../src/accounts/mfa/mfa-service.ts';
import { WRONG_CODE as WRONG_CODE_KEY } from '../../src/accounts/mfa/mfa-check.ts';
import { SmtpSink } from '../helpers/smtp-sink.ts';
import {
  PASSWORD,
  RESET_SUBJECT,
  registerVerified,
  startMailedServer,
  waitForMail,
  type MailedServer,
  type RegisteredAccount,
} from './account-flows.ts';
import { freshCode, turnOnTotp } from './mfa-flows.ts';
import { english } from '../helpers/english.ts';

const DEAD_MFA_TOKEN = english(DEAD_MFA_TOKEN_KEY);
const EXHAUSTED_MFA_TOKEN = english(EXHAUSTED_MFA_TOKEN_KEY);
const NOT_ON = english(NOT_ON_KEY);
const WRONG_CODE = english(WRONG_CODE_KEY);

const LOCKED_SUBJECT = 'Someone who knows your password failed two-step sign-in';
const OFF_SUBJECT = 'Two-step sign-in is off';

function logIn(mailed: MailedServer, account: RegisteredAccount, ip = '198.51.100.1') {
  return mailed.server.request('POST', '/auth/login/', {
    body: { username: account.email, password: PASSWORD },
    headers: { 'x-forwarded-for': ip },
  });
}

async function mfaToken(mailed: MailedServer, account: RegisteredAccount, ip?: string): Promise<string> {
  const response = await logIn(mailed, account, ip);
  assert.equal(response.status, 200, response.text);
  assert.equal(typeof response.body.mfa_token, 'string', response.text);
  return response.body.mfa_token;
}

function mfaStep(mailed: MailedServer, mfaToken: string, code: string, ip = '198.51.100.1') {
  return mailed.server.request('POST', '/auth/login/mfa/', { body: { mfa_token: mfaToken, code }, headers: { 'x-forwarded-for': ip } });
}

/** Outbox rows queued for the account with this subject (written in the transaction of their cause). */
async function queuedMails(mailed: MailedServer, accountId: number, subject: string): Promise<number> {
  const rows = await mailed.server.server.ctx.db.kysely
    .selectFrom('outbox')
    .select('payload')
    .where('account_id', '=', accountId)
    .execute();
  return rows.filter((row) => (JSON.parse(row.payload) as { subject: string }).subject === subject).length;
}

describe('a right password at the first step gives back nothing (RATE_LIMIT_LOGIN_ACCOUNT_IP=5/5m)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({
      RATE_LIMITS: 'on',
      TRUST_PROXY: 'true',
      RATE_LIMIT_REGISTER: '100/1h',
      RATE_LIMIT_LOGIN_IP: '100/1m',
      RATE_LIMIT_LOGIN_ACCOUNT_IP: '5/5m',
      RATE_LIMIT_LOGIN_ACCOUNT: '7/1h',
      RATE_LIMIT_SECOND_STEP_FAILURES: '100/1h',
    });
  });
  after(() => mailed.close());

  test('logging in again with the password buys no more guesses at the code; a completed second step takes back both steps', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    // Each round: the right password, then a wrong code. Two counts a round against 5.
    const statuses: number[] = [];
    for (let round = 0; round < 6 && !statuses.includes(429); round++) {
      const login = await logIn(mailed, account);
      if (login.status === 429) statuses.push(429);
      else statuses.push((await mfaStep(mailed, login.body.mfa_token, '000000')).status);
    }
    assert.deepEqual(statuses, [400, 400, 429]);
    const blocked = await mfaStep(mailed, await mfaToken(mailed, account, '198.51.100.2'), freshCode(server, secret));
    assert.equal(blocked.status, 429, 'from another IP, the account-wide ceiling (7) is reached');

    // A new hour: right passwords and right codes, more rounds than the ceiling allows failures.
    server.clock.advance(60 * 60_000);
    for (let round = 0; round < 8; round++) {
      const done = await mfaStep(mailed, await mfaToken(mailed, account), freshCode(server, secret));
      assert.equal(done.status, 200, `round ${round}: ${done.text}`);
    }
  });
});

describe('wrong codes in a row lock the second step (RATE_LIMIT_SECOND_STEP_FAILURES=3/1h)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({
      RATE_LIMITS: 'on',
      TRUST_PROXY: 'true',
      RATE_LIMIT_REGISTER: '100/1h',
      RATE_LIMIT_LOGIN_IP: '100/1m',
      RATE_LIMIT_LOGIN_ACCOUNT_IP: '100/5m',
      RATE_LIMIT_LOGIN_ACCOUNT: '100/1h',
      RATE_LIMIT_SECOND_STEP_FAILURES: '3/1h',
    });
  });
  after(() => mailed.close());

  test('a right code starts the count again; across mfa_tokens and IPs, past the limit 429 with Retry-After even for a right code; the owner is told once per lock-out', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    // A right code starts the count again.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) assert.equal((await mfaStep(mailed, await mfaToken(mailed, account), '000000')).status, 400);
      assert.equal((await mfaStep(mailed, await mfaToken(mailed, account), freshCode(server, secret))).status, 200);
    }
    assert.equal(await queuedMails(mailed, account.id, LOCKED_SUBJECT), 0);
    for (let i = 0; i < 3; i++) {
      const ip = `203.0.113.${i + 1}`;
      const wrong = await mfaStep(mailed, await mfaToken(mailed, account, ip), '000000', ip);
      assert.deepEqual([wrong.status, wrong.body], [400, { code: [WRONG_CODE] }]);
    }
    const mail = await waitForMail(sink, account.email, LOCKED_SUBJECT);
    assert.match(mail.decoded, /change it now/);
    for (const code of [freshCode(server, secret), '000000', '111111']) {
      const locked = await mfaStep(mailed, await mfaToken(mailed, account, '203.0.113.9'), code, '203.0.113.9');
      assert.equal(locked.status, 429, locked.text);
      assert.match(locked.body.detail, /wrong two-step sign-in codes/);
      assert.match(locked.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.ok(Number(locked.headers.get('retry-after')) <= 3600);
    }
    assert.equal(await queuedMails(mailed, account.id, LOCKED_SUBJECT), 1, 'one notice for the lock-out, not one per code');

    // The lock ends with its window; a new run of wrong codes is a new lock-out, told again.
    server.clock.advance(60 * 60_000);
    assert.equal((await mfaStep(mailed, await mfaToken(mailed, account), freshCode(server, secret))).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await mfaStep(mailed, await mfaToken(mailed, account), '000000')).status, 400);
    assert.equal((await mfaStep(mailed, await mfaToken(mailed, account), freshCode(server, secret))).status, 429);
    assert.equal(await queuedMails(mailed, account.id, LOCKED_SUBJECT), 2);
  });

  test('a burst of parallel wrong codes sends one notice', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    await turnOnTotp(server, account);
    const tokens = await Promise.all(Array.from({ length: 8 }, () => mfaToken(mailed, account)));
    const answers = await Promise.all(tokens.map((token) => mfaStep(mailed, token, '000000')));
    assert.deepEqual(answers.map((a) => a.status).sort(), [400, 400, 400, 429, 429, 429, 429, 429]);
    assert.equal(await queuedMails(mailed, account.id, LOCKED_SUBJECT), 1);
  });
});

describe('an mfa_token and what ends it', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  test('its 5 wrong codes hold under a burst of parallel codes: exactly 5 judged, then dead even for a right code; a right fifth code completes', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    const token = await mfaToken(mailed, account);
    const answers = await Promise.all(Array.from({ length: 16 }, () => mfaStep(mailed, token, '000000')));
    const bodies = answers.map((a) => JSON.stringify(a.body));
    assert.equal(bodies.filter((b) => b === JSON.stringify({ code: [WRONG_CODE] })).length, 5, bodies.join('\n'));
    assert.equal(bodies.filter((b) => b === JSON.stringify({ mfa_token: [EXHAUSTED_MFA_TOKEN] })).length, 11, bodies.join('\n'));
    const late = await mfaStep(mailed, token, freshCode(server, secret));
    assert.deepEqual([late.status, late.body], [400, { mfa_token: [EXHAUSTED_MFA_TOKEN] }]);

    // Counted before it is judged, a right code as the fifth attempt still completes.
    const another = await mfaToken(mailed, account);
    for (let i = 0; i < 4; i++) assert.equal((await mfaStep(mailed, another, '000000')).status, 400);
    assert.equal((await mfaStep(mailed, another, freshCode(server, secret))).status, 200);
  });

  async function assertEnded(token: string, secret: string): Promise<void> {
    const answer = await mfaStep(mailed, token, freshCode(mailed.server, secret));
    assert.deepEqual([answer.status, answer.body], [400, { mfa_token: [DEAD_MFA_TOKEN] }]);
  }

  test('a password change ends it', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    const token = await mfaToken(mailed, account);
    const changed = await server.request('POST', '/account/change-password/', {
      token: account.token,
      body: { old_password: PASSWORD, new_password: 'amber-falcon-88-river' },
    });
    assert.equal(changed.status, 200, changed.text);
    await assertEnded(token, secret);
  });

  test('a password reset ends it', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    const token = await mfaToken(mailed, account);
    assert.equal((await server.request('POST', '/account/reset-password/', { body: { email: account.email } })).status, 200);
    const key = SmtpSink.keyIn(await waitForMail(sink, account.email, RESET_SUBJECT));
    const reset = await server.request('POST', '/account/change-password/', {
      body: { key, new_password: 'amber-falcon-88-river', code: freshCode(server, secret) },
    });
    assert.equal(reset.status, 200, reset.text);
    await assertEnded(token, secret);
  });

  test('logout-all ends it', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    const token = await mfaToken(mailed, account);
    assert.equal((await server.request('POST', '/auth/logout-all/', { token: account.token })).status, 204);
    await assertEnded(token, secret);
  });

  test('turning MFA off ends it: no code completes it then', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret, recoveryCodes } = await turnOnTotp(server, account);
    const token = await mfaToken(mailed, account);
    const off = await server.request('DELETE', '/account/mfa/totp/', {
      token: account.token,
      body: { password: PASSWORD, code: recoveryCodes[0] },
    });
    assert.equal(off.status, 204, off.text);
    const anyCode = await mfaStep(mailed, token, '000000');
    assert.deepEqual([anyCode.status, anyCode.body], [400, { mfa_token: [DEAD_MFA_TOKEN] }]);
    await assertEnded(token, secret);
  });

  test('turning it off twice at once (a double click): one 204, one notice', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    const body = { password: PASSWORD, code: freshCode(server, secret) };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => server.request('DELETE', '/account/mfa/totp/', { token: account.token, body })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [204, 400, 400, 400, 400], answers.map((a) => a.text).join('\n'));
    for (const refused of answers.filter((a) => a.status === 400)) assert.deepEqual(refused.body, { non_field_errors: [NOT_ON] });
    await waitForMail(sink, account.email, OFF_SUBJECT);
    assert.equal(await queuedMails(mailed, account.id, OFF_SUBJECT), 1);
  });
});
