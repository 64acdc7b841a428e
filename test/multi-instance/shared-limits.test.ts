// Several instances on one PostgreSQL database (docs/production.md): the abuse limits are counted
// where every instance sees them, so an attacker gets the same budget against three instances
// as against one — login failures, password checks, and the per-IP limits of the plugin.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PASSWORD, registerVerified, startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const LIMITS = {
  RATE_LIMITS: 'on',
  RATE_LIMIT_LOGIN_ACCOUNT_IP: '3/5m',
  RATE_LIMIT_LOGIN_IP: '100/1m',
  RATE_LIMIT_LOGIN_ACCOUNT: '100/1h',
  RATE_LIMIT_REGISTER: '4/1h',
  RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT: '2/1h',
};

describe('limits shared by three instances on one PostgreSQL database', {
  skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)',
}, () => {
  let first: MailedServer;
  let others: TestServer[];
  let instances: TestServer[];
  before(async () => {
    first = await startMailedServer(LIMITS);
    // The same database and the same mail server: any instance's outbox worker may send.
    const shared = { ...LIMITS, DATABASE_URL: first.server.server.ctx.config.databaseUrl, SMTP_URL: first.sink.url };
    others = await Promise.all([startTestServer(shared), startTestServer(shared)]);
    instances = [first.server, ...others];
  });
  after(async () => {
    await Promise.all(others.map((server) => server.close()));
    await first.close();
  });

  const login = (server: TestServer, email: string, password: string) =>
    server.request('POST', '/auth/login/', { body: { username: email, password } });

  test('login failures on different instances add up: the 4th attempt anywhere is 429, the right password too', async () => {
    const account = await registerVerified(first);
    for (const server of instances) assert.equal((await login(server, account.email, 'wrong-password-1')).status, 400);
    for (const server of instances) {
      const blocked = await login(server, account.email, PASSWORD);
      assert.equal(blocked.status, 429, `instance ${server.url}`);
      assert.match(blocked.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    }
  });

  test('a right password on one instance takes its failure back on all of them', async () => {
    const account = await registerVerified(first);
    const [a, b, c] = instances;
    assert.equal((await login(a!, account.email, 'wrong-password-1')).status, 400);
    assert.equal((await login(b!, account.email, 'wrong-password-1')).status, 400);
    assert.equal((await login(c!, account.email, PASSWORD)).status, 200);
    assert.equal((await login(a!, account.email, 'wrong-password-1')).status, 400);
    assert.equal((await login(b!, account.email, 'wrong-password-1')).status, 400);
    assert.equal((await login(c!, account.email, PASSWORD)).status, 200, 'the successful login cleared the account+IP count');
  });

  test('wrong old passwords on different instances count against one per-account limit', async () => {
    const account = await registerVerified(first);
    const change = (server: TestServer, old_password: string) =>
      server.request('POST', '/account/change-password/', {
        token: account.token,
        body: { old_password, new_password: 'amber-falcon-88-river' },
      });
    assert.equal((await change(instances[1]!, 'wrong-password-1')).status, 400);
    assert.equal((await change(instances[2]!, 'wrong-password-1')).status, 400);
    assert.equal((await change(instances[0]!, PASSWORD)).status, 429);
  });

  test("the plugin's per-IP limits (register) count across instances", async () => {
    // registerVerified above used some of the register budget on the first instance: use a
    // fresh window by moving every instance's clock past it.
    for (const server of instances) server.clock.advance(2 * 3_600_000);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const server = instances[i % 3]!;
      statuses.push((await server.request('POST', '/auth/register/', { body: { email: uniqueEmail(), password: PASSWORD } })).status);
    }
    assert.deepEqual(statuses, [201, 201, 201, 201, 429, 429]);
  });
});
