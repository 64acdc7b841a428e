// docs/accounts.md, MFA: enrolment, confirmation, the login with MFA, replay refusal,
// recovery codes, turning it off, new codes, and the MFA code on a reset by key — through
// the real server, with a real SMTP sink, codes computed from the enrolled secret.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  DEAD_MFA_TOKEN as DEAD_MFA_TOKEN_KEY,
  EXHAUSTED_MFA_TOKEN as EXHAUSTED_MFA_TOKEN_KEY,
} from '../../src/accounts/login/login-service.ts';
import {
  ALREADY_ON as ALREADY_ON_KEY,
  NOT_ON as NOT_ON_KEY,
  NOTHING_PENDING as NOTHING_PENDING_KEY,
  WRONG_CONFIRMATION_CODE as WRONG_CONFIRMATION_CODE_KEY,
} from '../../src/accounts/mfa/mfa-service.ts';
import { WRONG_PASSWORD as WRONG_PASSWORD_KEY } from '../../src/auth/password-check-throttle.ts';
import { MISSING_CODE as MISSING_CODE_KEY, WRONG_CODE as WRONG_CODE_KEY } from '../../src/accounts/mfa/mfa-check.ts';
import {
  PASSWORD,
  RESET_SUBJECT,
  registerVerified,
  startMailedServer,
  waitForMail,
  type MailedServer,
  type RegisteredAccount,
} from './account-flows.ts';
import { SmtpSink } from '../helpers/smtp-sink.ts';
import { freshCode, STEP_MS, totpCode, turnOnTotp } from './mfa-flows.ts';
import { english } from '../helpers/english.ts';

const DEAD_MFA_TOKEN = english(DEAD_MFA_TOKEN_KEY);
const EXHAUSTED_MFA_TOKEN = english(EXHAUSTED_MFA_TOKEN_KEY);
const ALREADY_ON = english(ALREADY_ON_KEY);
const NOT_ON = english(NOT_ON_KEY);
const NOTHING_PENDING = english(NOTHING_PENDING_KEY);
const WRONG_CONFIRMATION_CODE = english(WRONG_CONFIRMATION_CODE_KEY);
const WRONG_PASSWORD = english(WRONG_PASSWORD_KEY);
const MISSING_CODE = english(MISSING_CODE_KEY);
const WRONG_CODE = english(WRONG_CODE_KEY);

const ON_SUBJECT = 'Two-step sign-in is on';
const OFF_SUBJECT = 'Two-step sign-in is off';
const RECOVERY_SUBJECT = 'A recovery code was used';

describe('MFA (/account/mfa/, /auth/login/mfa/)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  const request = (...args: Parameters<MailedServer['server']['request']>) => mailed.server.request(...args);
  const status = (token: string) => request('GET', '/account/mfa/', { token });
  const logIn = (account: RegisteredAccount) => request('POST', '/auth/login/', { body: { username: account.email, password: PASSWORD } });
  const mfaStep = (mfaToken: string, code: string) => request('POST', '/auth/login/mfa/', { body: { mfa_token: mfaToken, code } });

  async function mfaToken(account: RegisteredAccount): Promise<string> {
    const response = await logIn(account);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(Object.keys(response.body).sort(), ['mfa_required', 'mfa_token']);
    assert.equal(response.body.mfa_required, true);
    return response.body.mfa_token;
  }

  test('off to begin with; anonymous callers get 401', async () => {
    const account = await registerVerified(mailed);
    const state = await status(account.token);
    assert.equal(state.status, 200);
    assert.deepEqual(state.body, { totp_enabled: false, recovery_codes_left: 0 });
    assert.equal((await request('GET', '/account/mfa/')).status, 401);
    assert.equal((await request('POST', '/account/mfa/totp/', { body: { password: PASSWORD } })).status, 401);
    assert.equal((await request('POST', '/account/mfa/totp/confirm/', { body: { code: '123456' } })).status, 401);
  });

  test('enrolment: the password first; a base32 secret and an otpauth URL, pending until a right code confirms it', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const wrong = await request('POST', '/account/mfa/totp/', { token: account.token, body: { password: 'not-the-password-1' } });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, { password: [WRONG_PASSWORD] });

    const first = await request('POST', '/account/mfa/totp/', { token: account.token, body: { password: PASSWORD } });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(Object.keys(first.body).sort(), ['otpauth_url', 'secret']);
    assert.match(first.body.secret, /^[A-Z2-7]{32}$/);
    const url = new URL(first.body.otpauth_url);
    assert.equal(url.protocol, 'otpauth:');
    assert.equal(url.host, 'totp');
    assert.equal(decodeURIComponent(url.pathname), `/Profile Service:${account.email}`);
    assert.equal(url.searchParams.get('secret'), first.body.secret);
    assert.equal(url.searchParams.get('issuer'), 'Profile Service');
    assert.deepEqual(await status(account.token).then((r) => r.body), { totp_enabled: false, recovery_codes_left: 0 });
    // Pending: login still answers a token.
    assert.ok((await logIn(account)).body.token);

    // A new enrolment replaces the pending secret: the first one's code no longer confirms.
    const second = await request('POST', '/account/mfa/totp/', { token: account.token, body: { password: PASSWORD } });
    assert.equal(second.status, 201);
    assert.notEqual(second.body.secret, first.body.secret);
    const stale = await request('POST', '/account/mfa/totp/confirm/', {
      token: account.token,
      body: { code: totpCode(first.body.secret, server.clock.now()) },
    });
    assert.equal(stale.status, 400);
    assert.deepEqual(stale.body, { code: [WRONG_CONFIRMATION_CODE] });

    const confirmed = await request('POST', '/account/mfa/totp/confirm/', {
      token: account.token,
      body: { code: totpCode(second.body.secret, server.clock.now()) },
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    const codes: string[] = confirmed.body.recovery_codes;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
    assert.deepEqual(await status(account.token).then((r) => r.body), { totp_enabled: true, recovery_codes_left: 10 });
    assert.match((await waitForMail(sink, account.email, ON_SUBJECT)).decoded, /authenticator app/);

    // On: a new enrolment is 409, and confirming again finds nothing pending.
    const again = await request('POST', '/account/mfa/totp/', { token: account.token, body: { password: PASSWORD } });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, { detail: ALREADY_ON });
    const reconfirm = await request('POST', '/account/mfa/totp/confirm/', {
      token: account.token,
      body: { code: freshCode(server, second.body.secret) },
    });
    assert.equal(reconfirm.status, 400);
    assert.deepEqual(reconfirm.body, { non_field_errors: [NOTHING_PENDING] });
  });

  test('the secret is stored sealed and recovery codes only as hashes', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret, recoveryCodes } = await turnOnTotp(server, account);
    const db = server.server.ctx.db.kysely;
    const stored = await db.selectFrom('totp_secrets').selectAll().where('account_id', '=', account.id).executeTakeFirstOrThrow();
    assert.ok(!stored.secret.includes(secret), 'the secret is not stored in the clear');
    assert.match(stored.secret, /^v1\./);
    const hashes = await db.selectFrom('recovery_codes').select('code_hash').where('account_id', '=', account.id).execute();
    assert.equal(hashes.length, 10);
    const everything = JSON.stringify(hashes);
    for (const code of recoveryCodes) assert.ok(!everything.includes(code) && !everything.includes(code.replace('-', '')));
  });

  test('recovery codes are stored as HMACs under a key of the service; a set stored as plain SHA-256 before keeps working', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { recoveryCodes } = await turnOnTotp(server, account);
    const db = server.server.ctx.db.kysely;
    const stored = await db.selectFrom('recovery_codes').select('code_hash').where('account_id', '=', account.id).execute();
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    for (const { code_hash } of stored) {
      assert.match(code_hash.trim(), /^h1:[0-9a-f]{64}$/);
      assert.ok(!recoveryCodes.some((code) => code_hash.includes(sha256(code))), 'not a plain hash of a code');
    }

    // A set made before: rows as the service stored them then.
    const legacy = ['abcde-fghjk', 'mnpqr-stuvw'];
    await db.deleteFrom('recovery_codes').where('account_id', '=', account.id).execute();
    await db
      .insertInto('recovery_codes')
      .values(legacy.map((code) => ({ account_id: account.id, code_hash: sha256(code) })))
      .execute();
    assert.equal((await mfaStep(await mfaToken(account), 'ABCDE FGHJK')).status, 200);
    assert.deepEqual((await mfaStep(await mfaToken(account), legacy[0]!)).body, { code: [WRONG_CODE] }, 'once');
    assert.equal((await mfaStep(await mfaToken(account), legacy[1]!)).status, 200);
  });

  test('confirming without a pending secret, or with a wrong or malformed code, is 400', async () => {
    const account = await registerVerified(mailed);
    const nothing = await request('POST', '/account/mfa/totp/confirm/', { token: account.token, body: { code: '123456' } });
    assert.equal(nothing.status, 400);
    assert.deepEqual(nothing.body, { non_field_errors: [NOTHING_PENDING] });
    await request('POST', '/account/mfa/totp/', { token: account.token, body: { password: PASSWORD } });
    for (const code of ['000000', 'abcdef', '1234567']) {
      const wrong = await request('POST', '/account/mfa/totp/confirm/', { token: account.token, body: { code } });
      assert.equal(wrong.status, 400, code);
      assert.deepEqual(wrong.body, { code: [WRONG_CONFIRMATION_CODE] });
    }
    const missing = await request('POST', '/account/mfa/totp/confirm/', { token: account.token, body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.body), ['code']);
  });

  test('login: a right password answers an mfa_token and no token; a right code then answers a working token', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    const wrongPassword = await request('POST', '/auth/login/', { body: { username: account.email, password: 'not-the-password-1' } });
    assert.equal(wrongPassword.status, 400);
    assert.ok(!('mfa_token' in wrongPassword.body));

    const pending = await mfaToken(account);
    const wrong = await mfaStep(pending, '000000');
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, { code: [WRONG_CODE] });
    const done = await request('POST', '/auth/login/mfa/', {
      body: { mfa_token: pending, code: freshCode(server, secret) },
      headers: { 'user-agent': 'MfaTest/1.0' },
    });
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(Object.keys(done.body), ['token']);
    const sessions = await request('GET', '/auth/sessions/', { token: done.body.token });
    assert.equal(sessions.status, 200);
    assert.equal(sessions.body.find((s: { current: boolean }) => s.current).user_agent, 'MfaTest/1.0');

    // The mfa_token works once.
    const reused = await mfaStep(pending, freshCode(server, secret));
    assert.equal(reused.status, 400);
    assert.deepEqual(reused.body, { mfa_token: [DEAD_MFA_TOKEN] });
    const unknown = await mfaStep('not-an-mfa-token', freshCode(server, secret));
    assert.deepEqual(unknown.body, { mfa_token: [DEAD_MFA_TOKEN] });
  });

  test('a code is accepted once: a replay in its window is 400; one step of tolerance either way, older steps refused', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    server.clock.advance(10 * STEP_MS);
    const now = server.clock.now();

    const code = totpCode(secret, now);
    assert.equal((await mfaStep(await mfaToken(account), code)).status, 200);
    const replay = await mfaStep(await mfaToken(account), code);
    assert.equal(replay.status, 400);
    assert.deepEqual(replay.body, { code: [WRONG_CODE] });
    // The previous step is older than the one spent: refused too.
    assert.equal((await mfaStep(await mfaToken(account), totpCode(secret, now - STEP_MS))).status, 400);
    // The next step is within the tolerance, two steps ahead is not.
    assert.equal((await mfaStep(await mfaToken(account), totpCode(secret, now + 2 * STEP_MS))).status, 400);
    assert.equal((await mfaStep(await mfaToken(account), totpCode(secret, now + STEP_MS))).status, 200);
    // And a step behind the clock is accepted when it was not spent.
    server.clock.advance(3 * STEP_MS);
    assert.equal((await mfaStep(await mfaToken(account), totpCode(secret, server.clock.now() - STEP_MS))).status, 200);
  });

  test('the mfa_token dies after 5 wrong codes and after 5 minutes', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    const pending = await mfaToken(account);
    for (let i = 0; i < 5; i++) assert.deepEqual((await mfaStep(pending, '000000')).body, { code: [WRONG_CODE] });
    const dead = await mfaStep(pending, freshCode(server, secret));
    assert.equal(dead.status, 400);
    assert.deepEqual(dead.body, { mfa_token: [EXHAUSTED_MFA_TOKEN] });

    const late = await mfaToken(account);
    server.clock.advance(5 * 60_000);
    const expired = await mfaStep(late, totpCode(secret, server.clock.now()));
    assert.equal(expired.status, 400);
    assert.deepEqual(expired.body, { mfa_token: [DEAD_MFA_TOKEN] });
  });

  test('a recovery code logs in once, typed in any case and without its dash, and the primary address is told', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const { recoveryCodes } = await turnOnTotp(server, account);
    const typed = ` ${recoveryCodes[3]!.toUpperCase().replace('-', ' ')} `;
    const used = await mfaStep(await mfaToken(account), typed);
    assert.equal(used.status, 200, used.text);
    assert.equal((await request('GET', '/account/profile/', { token: used.body.token })).status, 200);
    assert.match((await waitForMail(sink, account.email, RECOVERY_SUBJECT)).decoded, /9 unused codes left/);
    assert.deepEqual(await status(account.token).then((r) => r.body), { totp_enabled: true, recovery_codes_left: 9 });

    const again = await mfaStep(await mfaToken(account), recoveryCodes[3]!);
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { code: [WRONG_CODE] });
    // Another account's recovery code is no code of this one.
    const other = await registerVerified(mailed);
    const { recoveryCodes: othersCodes } = await turnOnTotp(server, other);
    assert.equal((await mfaStep(await mfaToken(account), othersCodes[0]!)).status, 400);
  });

  test('new recovery codes: password and a code; the old set stops working, the new one works', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret, recoveryCodes } = await turnOnTotp(server, account);
    const regenerate = (body: unknown) => request('POST', '/account/mfa/recovery-codes/', { token: account.token, body });

    const wrongPassword = await regenerate({ password: 'not-the-password-1', code: freshCode(server, secret) });
    assert.deepEqual([wrongPassword.status, wrongPassword.body], [400, { password: [WRONG_PASSWORD] }]);
    const wrongCode = await regenerate({ password: PASSWORD, code: '000000' });
    assert.deepEqual([wrongCode.status, wrongCode.body], [400, { code: [WRONG_CODE] }]);
    assert.equal((await regenerate({ password: PASSWORD })).status, 400);

    const renewed = await regenerate({ password: PASSWORD, code: freshCode(server, secret) });
    assert.equal(renewed.status, 200, renewed.text);
    const fresh: string[] = renewed.body.recovery_codes;
    assert.equal(fresh.length, 10);
    assert.ok(fresh.every((code) => !recoveryCodes.includes(code)));
    assert.equal((await mfaStep(await mfaToken(account), recoveryCodes[0]!)).status, 400);
    assert.equal((await mfaStep(await mfaToken(account), fresh[0]!)).status, 200);

    const off = await registerVerified(mailed);
    const notOn = await request('POST', '/account/mfa/recovery-codes/', { token: off.token, body: { password: PASSWORD, code: '123456' } });
    assert.deepEqual([notOn.status, notOn.body], [400, { non_field_errors: [NOT_ON] }]);
  });

  test('turning it off: password and a code (or a recovery code); login answers a token again; the primary address is told', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const { secret, recoveryCodes } = await turnOnTotp(server, account);
    const disable = (body: unknown) => request('DELETE', '/account/mfa/totp/', { token: account.token, body });
    assert.deepEqual((await disable({ password: 'not-the-password-1', code: freshCode(server, secret) })).body, {
      password: [WRONG_PASSWORD],
    });
    assert.deepEqual((await disable({ password: PASSWORD, code: '000000' })).body, { code: [WRONG_CODE] });
    assert.equal((await status(account.token)).body.totp_enabled, true);

    const done = await disable({ password: PASSWORD, code: recoveryCodes[0] });
    assert.equal(done.status, 204, done.text);
    assert.deepEqual(await status(account.token).then((r) => r.body), { totp_enabled: false, recovery_codes_left: 0 });
    assert.ok((await logIn(account)).body.token);
    await waitForMail(sink, account.email, OFF_SUBJECT);
    const again = await disable({ password: PASSWORD, code: '123456' });
    assert.deepEqual([again.status, again.body], [400, { non_field_errors: [NOT_ON] }]);
    // It can be set up again.
    await turnOnTotp(server, account);
    assert.equal((await status(account.token)).body.totp_enabled, true);
  });

  test('a reset by key needs the MFA code too; without it the key is not used up', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    assert.equal((await request('POST', '/account/reset-password/', { body: { email: account.email } })).status, 200);
    const key = SmtpSink.keyIn(await waitForMail(sink, account.email, RESET_SUBJECT));
    const reset = (extra: object) =>
      request('POST', '/account/change-password/', { body: { key, new_password: 'amber-falcon-88-river', ...extra } });

    const missing = await reset({});
    assert.deepEqual([missing.status, missing.body], [400, { code: [MISSING_CODE] }]);
    const wrong = await reset({ code: '000000' });
    assert.deepEqual([wrong.status, wrong.body], [400, { code: [WRONG_CODE] }]);
    const done = await reset({ code: freshCode(server, secret) });
    assert.equal(done.status, 200, done.text);
    const login = await request('POST', '/auth/login/', { body: { username: account.email, password: 'amber-falcon-88-river' } });
    assert.equal(login.body.mfa_required, true, 'still two-step after the reset');
  });

  test('deleting the account with MFA on needs a code', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    const remove = (body: object) => request('DELETE', '/account/', { token: account.token, body });
    assert.deepEqual((await remove({ password: PASSWORD })).body, { code: [MISSING_CODE] });
    assert.deepEqual((await remove({ password: PASSWORD, code: '000000' })).body, { code: [WRONG_CODE] });
    assert.equal((await status(account.token)).status, 200, 'nothing was deleted');
    assert.equal((await remove({ password: PASSWORD, code: freshCode(server, secret) })).status, 204);
    assert.equal((await status(account.token)).status, 401);
  });
});

describe('MFA under the login limits', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ RATE_LIMITS: 'on', RATE_LIMIT_LOGIN_ACCOUNT_IP: '3/5m', RATE_LIMIT_REGISTER: '100/1h' });
  });
  after(() => mailed.close());

  test('wrong codes count as login failures of the account, the right password before them too: after the limit, 429 even with a right code', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const { secret } = await turnOnTotp(server, account);
    const login = await server.request('POST', '/auth/login/', { body: { username: account.email, password: PASSWORD } });
    const pending = login.body.mfa_token;
    for (let i = 0; i < 2; i++) {
      const wrong = await server.request('POST', '/auth/login/mfa/', { body: { mfa_token: pending, code: '000000' } });
      assert.equal(wrong.status, 400);
    }
    const blocked = await server.request('POST', '/auth/login/mfa/', { body: { mfa_token: pending, code: freshCode(server, secret) } });
    assert.equal(blocked.status, 429);
    assert.match(blocked.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  });
});
