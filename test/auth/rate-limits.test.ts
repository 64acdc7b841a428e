import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MemoryCounterStore } from '../../src/auth/counter-store.ts';
import type { TestServer } from '../helpers/server.ts';
import { PASSWORD, register, registerVerified, startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';

const GENEROUS = {
  RATE_LIMITS: 'on',
  RATE_LIMIT_LOGIN_ACCOUNT_IP: '100/5m',
  RATE_LIMIT_LOGIN_IP: '100/1m',
  RATE_LIMIT_LOGIN_ACCOUNT: '100/1h',
  RATE_LIMIT_REGISTER: '100/1h',
  RATE_LIMIT_RESET_PASSWORD: '100/1h',
  RATE_LIMIT_VERIFY_EMAIL: '100/1h',
  RATE_LIMIT_CHANGE_PASSWORD: '100/1h',
};

function login(server: TestServer, email: string, password: string, ip?: string) {
  return server.request('POST', '/auth/login/', { body: { username: email, password }, headers: ip ? { 'x-forwarded-for': ip } : {} });
}

function assertTooMany(response: { status: number; headers: Headers; body: any }): void {
  assert.equal(response.status, 429, JSON.stringify(response.body));
  assert.equal(typeof response.body.detail, 'string');
  assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
}

describe('login failure limits', () => {
  describe('per account and IP (RATE_LIMIT_LOGIN_ACCOUNT_IP=3/5m)', () => {
    let mailed: MailedServer;
    before(async () => {
      mailed = await startMailedServer({ ...GENEROUS, RATE_LIMIT_LOGIN_ACCOUNT_IP: '3/5m' });
    });
    after(() => mailed.close());

    test('after 3 failures: 429 with Retry-After, even with the right password; allowed again after the window', async () => {
      const { server } = mailed;
      const account = await registerVerified(mailed);
      for (let i = 0; i < 3; i++) assert.equal((await login(server, account.email, 'wrong-password-1')).status, 400);
      const blocked = await login(server, account.email, PASSWORD);
      assertTooMany(blocked);
      assert.ok(Number(blocked.headers.get('retry-after')) <= 300);
      server.clock.advance(5 * 60_000 + 1000);
      assert.equal((await login(server, account.email, PASSWORD)).status, 200);
    });

    test('a successful login clears the account+IP count', async () => {
      const { server } = mailed;
      const account = await registerVerified(mailed);
      for (let i = 0; i < 2; i++) assert.equal((await login(server, account.email, 'wrong-password-1')).status, 400);
      assert.equal((await login(server, account.email, PASSWORD)).status, 200);
      for (let i = 0; i < 2; i++) assert.equal((await login(server, account.email, 'wrong-password-1')).status, 400);
      assert.equal((await login(server, account.email, PASSWORD)).status, 200);
    });

    test('unknown addresses are limited alike, so the 429 reveals nothing', async () => {
      const { server } = mailed;
      const nobody = uniqueEmail('nobody');
      for (let i = 0; i < 3; i++) assert.equal((await login(server, nobody, 'wrong-password-1')).status, 400);
      assertTooMany(await login(server, nobody, 'wrong-password-1'));
    });

    test('parallel attempts cannot slip past the limit together', async () => {
      const { server } = mailed;
      const account = await registerVerified(mailed);
      const responses = await Promise.all(Array.from({ length: 8 }, () => login(server, account.email, 'wrong-password-1')));
      assert.equal(responses.filter((r) => r.status === 400).length, 3);
      assert.equal(responses.filter((r) => r.status === 429).length, 5);
    });

    test('X-Forwarded-For is ignored without TRUST_PROXY', async () => {
      const { server } = mailed;
      const account = await registerVerified(mailed);
      for (let i = 0; i < 3; i++) assert.equal((await login(server, account.email, 'wrong-password-1', `10.0.0.${i}`)).status, 400);
      assertTooMany(await login(server, account.email, PASSWORD, '10.0.0.99'));
    });
  });

  describe('per IP (RATE_LIMIT_LOGIN_IP=4/1m)', () => {
    let mailed: MailedServer;
    before(async () => {
      mailed = await startMailedServer({ ...GENEROUS, RATE_LIMIT_LOGIN_IP: '4/1m' });
    });
    after(() => mailed.close());

    test('failures on different addresses from one IP add up', async () => {
      const { server } = mailed;
      const account = await registerVerified(mailed);
      for (let i = 0; i < 4; i++) assert.equal((await login(server, uniqueEmail(), 'wrong-password-1')).status, 400);
      assertTooMany(await login(server, account.email, PASSWORD));
      server.clock.advance(61_000);
      assert.equal((await login(server, account.email, PASSWORD)).status, 200);
    });
  });

  describe('per account, whatever the IP (RATE_LIMIT_LOGIN_ACCOUNT=3/1h, TRUST_PROXY=true)', () => {
    let mailed: MailedServer;
    before(async () => {
      mailed = await startMailedServer({ ...GENEROUS, RATE_LIMIT_LOGIN_ACCOUNT: '3/1h', TRUST_PROXY: 'true' });
    });
    after(() => mailed.close());

    test('failures from many IPs reach the account-wide ceiling; other accounts are unaffected', async () => {
      const { server } = mailed;
      const account = await registerVerified(mailed);
      const other = await registerVerified(mailed);
      for (let i = 0; i < 3; i++) assert.equal((await login(server, account.email, 'wrong-password-1', `203.0.113.${i}`)).status, 400);
      assertTooMany(await login(server, account.email, PASSWORD, '198.51.100.7'));
      assert.equal((await login(server, other.email, PASSWORD, '198.51.100.7')).status, 200);
    });

    test('the ceiling covers every address of the account', async () => {
      const { server, sink } = mailed;
      const account = await registerVerified(mailed);
      const second = uniqueEmail('second');
      await server.request('POST', '/account/emails/', { token: account.token, body: { email: second } });
      for (let i = 0; i < 3; i++) {
        const address = i % 2 === 0 ? account.email : second;
        assert.equal((await login(server, address, 'wrong-password-1', `203.0.113.${10 + i}`)).status, 400);
      }
      assertTooMany(await login(server, second, PASSWORD, '203.0.113.50'));
      assert.ok(sink.messages.length > 0);
    });
  });

  test('the counters stay bounded in memory: the oldest windows go first', async () => {
    const store = new MemoryCounterStore(3);
    const count = async (key: string, now: number) => (await store.increment([{ key, windowMs: 60_000 }], now))[0]!.count;
    await count('a', 0);
    assert.equal(await count('a', 1), 2);
    await count('b', 2);
    await count('c', 3);
    await count('d', 5);
    assert.equal(store.size, 3);
    assert.equal(await count('a', 6), 1, 'a was dropped to make room');
    // Ended windows are swept before anything live is dropped.
    await count('e', 60_005);
    assert.equal(store.size, 2, 'c and d ended and went; a (opened again at 6) and e remain');
  });
});

describe('per-IP limits on register, reset-password, verify-email and change-password', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({
      ...GENEROUS,
      RATE_LIMIT_REGISTER: '2/1h',
      RATE_LIMIT_RESET_PASSWORD: '2/1h',
      RATE_LIMIT_VERIFY_EMAIL: '2/1h',
      RATE_LIMIT_CHANGE_PASSWORD: '2/1h',
    });
  });
  after(() => mailed.close());

  test('register: the third request in the window is 429 with Retry-After', async () => {
    const { server } = mailed;
    assert.equal((await register(server, uniqueEmail())).status, 201);
    assert.equal((await register(server, 'bad')).status, 400, 'refused requests count too');
    const limited = await register(server, uniqueEmail());
    assertTooMany(limited);
    assert.match(limited.body.detail, /^Too many requests; try again in \d+ seconds\.$/);
  });

  test('reset-password', async () => {
    const { server } = mailed;
    for (let i = 0; i < 2; i++)
      assert.equal((await server.request('POST', '/account/reset-password/', { body: { email: uniqueEmail() } })).status, 200);
    assertTooMany(await server.request('POST', '/account/reset-password/', { body: { email: uniqueEmail() } }));
  });

  test('verify-email', async () => {
    const { server } = mailed;
    for (let i = 0; i < 2; i++)
      assert.equal((await server.request('POST', '/account/verify-email/', { body: { key: 'nope', password: PASSWORD } })).status, 400);
    assertTooMany(await server.request('POST', '/account/verify-email/', { body: { key: 'nope', password: PASSWORD } }));
  });

  test('change-password', async () => {
    const { server } = mailed;
    for (let i = 0; i < 2; i++) {
      assert.equal(
        (await server.request('POST', '/account/change-password/', { body: { key: 'nope', new_password: 'another-fine-pass-9' } })).status,
        400,
      );
    }
    assertTooMany(
      await server.request('POST', '/account/change-password/', { body: { key: 'nope', new_password: 'another-fine-pass-9' } }),
    );
  });
});

describe('RATE_LIMITS=off', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ RATE_LIMITS: 'off', RATE_LIMIT_LOGIN_ACCOUNT_IP: '1/5m', RATE_LIMIT_REGISTER: '1/1h' });
  });
  after(() => mailed.close());

  test('no limit applies', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    for (let i = 0; i < 4; i++) assert.equal((await login(server, account.email, 'wrong-password-1')).status, 400);
    assert.equal((await login(server, account.email, PASSWORD)).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await register(server, uniqueEmail())).status, 201);
  });
});
