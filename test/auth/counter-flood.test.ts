// The abuse limits' counters cannot be flushed (docs/api-conventions.md#limits): a client over its IP's limit makes
// no key of any account, a full in-memory table forgets no lock and refuses new keys instead
// (fail closed), and an IPv6 client counts by its /64 in every per-IP limit. Through the real
// server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { onPostgres } from '../helpers/database.ts';
import type { TestServer } from '../helpers/server.ts';
import { PASSWORD, registerVerified, startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';

const GENEROUS = {
  RATE_LIMITS: 'on',
  TRUST_PROXY: 'true',
  RATE_LIMIT_LOGIN_ACCOUNT_IP: '100/5m',
  RATE_LIMIT_LOGIN_IP: '100/1m',
  RATE_LIMIT_LOGIN_ACCOUNT: '100/1h',
  RATE_LIMIT_REGISTER: '100/1h',
};

function login(server: TestServer, email: string, password: string, ip: string) {
  return server.request('POST', '/auth/login/', { body: { username: email, password }, headers: { 'x-forwarded-for': ip } });
}

describe('one client over its IP limit (RATE_LIMIT_LOGIN_IP=3/1m)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ ...GENEROUS, RATE_LIMIT_LOGIN_IP: '3/1m' });
  });
  after(() => mailed.close());

  test('makes no key of the addresses it tries once refused', async () => {
    const { server } = mailed;
    const addresses = Array.from({ length: 20 }, () => uniqueEmail('flood'));
    const statuses = [];
    for (const address of addresses) statuses.push((await login(server, address, 'wrong-password-1', '198.51.100.20')).status);
    assert.deepEqual(statuses, [...Array(3).fill(400), ...Array(17).fill(429)]);
    const { counters, clock } = server.server.ctx;
    const counted = [];
    for (const address of addresses) if (await counters.read(`login-account:address:${address}`, clock.now())) counted.push(address);
    assert.deepEqual(counted, addresses.slice(0, 3));
  });
});

describe('a full in-memory table (RATE_COUNTER_MEMORY_KEYS=6, RATE_LIMIT_LOGIN_ACCOUNT_IP=2/5m)', {
  skip: onPostgres && 'SQLite only: PostgreSQL counts in the database',
}, () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ ...GENEROUS, RATE_COUNTER_MEMORY_KEYS: '6', RATE_LIMIT_LOGIN_ACCOUNT_IP: '2/5m' });
  });
  after(() => mailed.close());

  test('keeps a lock through a flood of new keys, and refuses a new key rather than forget a lock', async () => {
    const { server } = mailed;
    const locked = await registerVerified(mailed);
    const someone = await registerVerified(mailed);
    for (let i = 0; i < 2; i++) assert.equal((await login(server, locked.email, 'wrong-password-1', '203.0.113.1')).status, 400);
    assert.equal((await login(server, locked.email, PASSWORD, '203.0.113.1')).status, 429);

    // Failures for new addresses from new addresses: each opens windows below their limits.
    for (let i = 0; i < 30; i++) {
      assert.equal((await login(server, uniqueEmail('flood'), 'wrong-password-1', `198.51.100.${i + 1}`)).status, 400);
    }
    assert.equal((await login(server, locked.email, PASSWORD, '203.0.113.1')).status, 429, 'the lock is still there');

    // Five more locks fill the table with windows at their limit.
    for (let i = 0; i < 5; i++) {
      const address = uniqueEmail('lock');
      for (let j = 0; j < 2; j++) assert.equal((await login(server, address, 'wrong-password-1', `192.0.2.${i + 1}`)).status, 400);
    }
    const refused = await login(server, someone.email, PASSWORD, '192.0.2.100');
    assert.equal(refused.status, 429, 'no room: fail closed');
    assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal((await login(server, locked.email, PASSWORD, '203.0.113.1')).status, 429);

    // Once the locks' windows end, there is room again.
    server.clock.advance(5 * 60_000);
    assert.equal((await login(server, someone.email, PASSWORD, '192.0.2.100')).status, 200);
    assert.equal((await login(server, locked.email, PASSWORD, '203.0.113.1')).status, 200);
  });
});

describe('IPv6 clients count by their /64 (RATE_LIMIT_LOGIN_IP=3/1m, RATE_LIMIT_REGISTER=2/1h)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ ...GENEROUS, RATE_LIMIT_LOGIN_IP: '3/1m', RATE_LIMIT_REGISTER: '2/1h' });
  });
  after(() => mailed.close());

  test('login and register: the addresses of one /64 share its limits; another /64 has its own', async () => {
    const { server } = mailed;
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:aaaa:bbbb:cccc:dddd']) {
      assert.equal((await login(server, uniqueEmail(), 'wrong-password-1', ip)).status, 400, ip);
    }
    assert.equal((await login(server, uniqueEmail(), 'wrong-password-1', '2001:db8:1:2::ffff')).status, 429);
    assert.equal((await login(server, uniqueEmail(), 'wrong-password-1', '2001:db8:1:3::1')).status, 400);

    // The routes' per-IP limits key alike.
    const from = (ip: string) =>
      server.request('POST', '/auth/register/', { body: { email: uniqueEmail(), password: PASSWORD }, headers: { 'x-forwarded-for': ip } });
    assert.equal((await from('2001:db8:9:9::1')).status, 201);
    assert.equal((await from('2001:db8:9:9::2')).status, 201);
    const limited = await from('2001:db8:9:9:1:2:3:4');
    assert.equal(limited.status, 429, limited.text);
    assert.equal((await from('2001:db8:9:a::1')).status, 201);
  });

  test('login: an IPv4-mapped address is its IPv4 address', async () => {
    const { server } = mailed;
    for (const ip of ['::ffff:192.0.2.7', '192.0.2.7', '::ffff:192.0.2.7']) {
      assert.equal((await login(server, uniqueEmail(), 'wrong-password-1', ip)).status, 400, ip);
    }
    assert.equal((await login(server, uniqueEmail(), 'wrong-password-1', '192.0.2.7')).status, 429);
    assert.equal((await login(server, uniqueEmail(), 'wrong-password-1', '192.0.2.8')).status, 400);
  });
});
