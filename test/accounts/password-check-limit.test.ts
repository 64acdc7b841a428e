// Guessing the old password with a stolen token is limited per account, whatever the IP
// (RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT), before any hashing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PASSWORD, registerVerified, startMailedServer, type MailedServer } from './account-flows.ts';

describe('old-password checks per account (RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT=3/1h)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({
      RATE_LIMITS: 'on',
      TRUST_PROXY: 'true',
      RATE_LIMIT_REGISTER: '100/1h',
      RATE_LIMIT_VERIFY_EMAIL: '100/1h',
      RATE_LIMIT_CHANGE_PASSWORD: '100/1h',
      RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT: '3/1h',
    });
  });
  after(() => mailed.close());

  function change(token: string, oldPassword: string, ip: string) {
    return mailed.server.request('POST', '/account/change-password/', {
      token,
      body: { old_password: oldPassword, new_password: 'amber-falcon-88-river' },
      headers: { 'x-forwarded-for': ip },
    });
  }

  test('three wrong old passwords from three IPs, then 429 from a fourth even with the right one; allowed after the window', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) assert.equal((await change(account.token, 'wrong-password-77', ip)).status, 400);
    const blocked = await change(account.token, PASSWORD, '10.0.0.4');
    assert.equal(blocked.status, 429, blocked.text);
    assert.match(blocked.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    // Another account is not affected.
    const other = await registerVerified(mailed);
    assert.equal((await change(other.token, 'wrong-password-77', '10.0.0.1')).status, 400);

    server.clock.advance(3_600_000 + 1000);
    assert.equal((await change(account.token, PASSWORD, '10.0.0.5')).status, 200);
  });

  test('a right old password takes its check back: after two failures and a right one, a third failure is still checked', async () => {
    const account = await registerVerified(mailed);
    for (let i = 0; i < 2; i++) assert.equal((await change(account.token, 'wrong-password-77', '10.0.1.1')).status, 400);
    // A right old password with a too-weak new one still fails, but the check itself passed.
    const weak = await mailed.server.request('POST', '/account/change-password/', {
      token: account.token,
      body: { old_password: PASSWORD, new_password: '123' },
    });
    assert.equal(weak.status, 400);
    assert.equal(weak.body.old_password, undefined);
    assert.equal((await change(account.token, 'wrong-password-77', '10.0.1.2')).status, 400, 'the right one did not count');
    assert.equal((await change(account.token, PASSWORD, '10.0.1.3')).status, 429);
  });
});
