// Several instances on one PostgreSQL database (docs/production.md), requests spread over them:
// what one instance writes, every other reads at once (their caches warm beforehand); a
// logout, a password change or an ended session revokes the token on all of them; the outbox
// delivers each e-mail exactly once through an SMTP outage and its end; and instances starting
// together on an empty database migrate it once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/open-database.ts';
import { PASSWORD, registerVerified, startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';
import { createTestDatabase, onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const skip = !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)';

describe('three instances on one PostgreSQL database', { skip }, () => {
  let first: MailedServer;
  let instances: TestServer[];
  before(async () => {
    first = await startMailedServer({ OUTBOX_RETRY_BASE: '50ms' });
    const shared = { DATABASE_URL: first.server.server.ctx.config.databaseUrl, SMTP_URL: first.sink.url, OUTBOX_RETRY_BASE: '50ms' };
    instances = [first.server, ...(await Promise.all([startTestServer(shared), startTestServer(shared)]))];
  });
  after(async () => {
    await Promise.all(instances.slice(1).map((server) => server.close()));
    await first.close();
  });

  const each = <T>(work: (server: TestServer, index: number) => Promise<T>) => Promise.all(instances.map(work));

  test('read-your-writes on every instance right after a write on another, caches warm', async () => {
    const account = await registerVerified(first);
    const [a, b, c] = instances as [TestServer, TestServer, TestServer];
    const appUser = (await a.request('POST', '/app/users/', { token: account.token, body: { name: 'Me' } })).body;
    const profile = (await b.request('POST', `/app/users/${appUser.id}/profiles/`, { token: account.token, body: { name: 'Home' } })).body;
    const topicsPath = `/app/profiles/${profile.id}/`;
    const read = async (server: TestServer) => {
      const response = await server.request('GET', topicsPath, { token: account.token });
      assert.equal(response.status, 200, response.text);
      return response.body.topics.map((t: { name: string }) => t.name);
    };
    // Warm every instance's rendering of the profile.
    for (let i = 0; i < 2; i++) assert.deepEqual(await each(read), [[], [], []]);

    for (const [writer, name] of [
      [a, 'from a'],
      [b, 'from b'],
      [c, 'from c'],
    ] as const) {
      const created = await writer.request('POST', `/app/profiles/${profile.id}/topics/`, {
        token: account.token,
        body: { name, topic_type: 3 },
      });
      assert.equal(created.status, 201, created.text);
      for (const names of await each(read)) assert.ok(names.includes(name), `every instance sees "${name}" at once: ${names}`);
    }
    const [firstTopic] = (await a.request('GET', topicsPath, { token: account.token })).body.topics;
    assert.equal(
      (await c.request('PATCH', `/app/topics/${firstTopic.id}/`, { token: account.token, body: { name: 'renamed' } })).status,
      200,
    );
    for (const names of await each(read)) assert.ok(names.includes('renamed') && !names.includes('from a'));
    assert.equal((await b.request('DELETE', `/app/topics/${firstTopic.id}/`, { token: account.token })).status, 204);
    for (const names of await each(read)) assert.ok(!names.includes('renamed'));
  });

  test('logout on one instance, a password change on another, an ended session on a third: 401 everywhere at once', async () => {
    const account = await registerVerified(first);
    const [a, b, c] = instances as [TestServer, TestServer, TestServer];
    const login = async (server: TestServer, password = PASSWORD) => {
      const response = await server.request('POST', '/auth/login/', { body: { username: account.email, password } });
      assert.equal(response.status, 200, response.text);
      return response.body.token as string;
    };
    const statuses = (token: string) => each(async (server) => (await server.request('GET', '/account/profile/', { token })).status);

    const loggedOut = await login(b);
    assert.deepEqual(await statuses(loggedOut), [200, 200, 200]);
    assert.equal((await a.request('POST', '/auth/logout/', { token: loggedOut })).status, 204);
    assert.deepEqual(await statuses(loggedOut), [401, 401, 401]);

    const ended = await login(c);
    assert.deepEqual(await statuses(ended), [200, 200, 200]);
    const sessions = (await a.request('GET', '/auth/sessions/', { token: account.token })).body;
    const endedId = sessions[sessions.length - 1].id;
    assert.equal((await c.request('DELETE', `/auth/sessions/${endedId}/`, { token: account.token })).status, 204);
    assert.deepEqual(await statuses(ended), [401, 401, 401]);

    const other = await login(a);
    assert.deepEqual(await statuses(other), [200, 200, 200]);
    const changed = await b.request('POST', '/account/change-password/', {
      token: account.token,
      body: { old_password: PASSWORD, new_password: 'amber-falcon-88-river' },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(await statuses(other), [401, 401, 401]);
    assert.deepEqual(await statuses(account.token), [200, 200, 200], "the changer's own token stays");
  });

  test('e-mail during an SMTP outage: each message delivered exactly once after it ends, whichever instance sends', async () => {
    const { sink } = first;
    sink.failing = true;
    const addresses = Array.from({ length: 9 }, () => uniqueEmail('outage'));
    await Promise.all(
      addresses.map(async (email, i) => {
        const response = await instances[i % 3]!.request('POST', '/auth/register/', { body: { email, password: PASSWORD } });
        assert.equal(response.status, 201, response.text);
      }),
    );
    // Each message has been tried and refused, and is waiting for its retry (not held by a worker).
    const db = first.server.server.ctx.db.kysely;
    const deadline = Date.now() + 15_000;
    const waiting = () =>
      db
        .selectFrom('outbox')
        .select('id')
        .where('state', '=', 'pending')
        .where('attempts', '>=', 1)
        .where('locked_until', 'is', null)
        .execute();
    while ((await waiting()).length < addresses.length) {
      assert.ok(Date.now() < deadline, 'the workers did not try during the outage');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    sink.failing = false;
    // Time passes on every instance's clock, a minute at a time, so that every retry falls due:
    // those that were waiting, and any that fails once more on its way out of the outage (a
    // single step would leave such a one never due). Only while no claim is in flight, so that
    // a delivery under way gets at most one step, well inside its lease (5 minutes).
    const delivered = () => addresses.every((email) => sink.messages.some((mail) => mail.to.includes(email)));
    const inFlight = async () =>
      (await db.selectFrom('outbox').select('id').where('state', '=', 'pending').where('locked_until', 'is not', null).execute()).length;
    const deliveryDeadline = Date.now() + 30_000;
    while (!delivered()) {
      const missing = addresses.filter((email) => !sink.messages.some((mail) => mail.to.includes(email)));
      assert.ok(Date.now() < deliveryDeadline, `not delivered after the outage: ${missing.join(', ')}`);
      if ((await inFlight()) === 0) for (const server of instances) server.clock.advance(60_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Give a duplicate the time to arrive, were one on its way: every row is sent by now.
    while ((await db.selectFrom('outbox').select('id').where('state', '=', 'pending').execute()).length > 0) {
      assert.ok(Date.now() < deliveryDeadline + 15_000, 'the outbox did not empty');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const email of addresses) assert.equal(sink.messages.filter((mail) => mail.to.includes(email)).length, 1, email);
  });
});

describe('instances starting together', { skip }, () => {
  test('three instances starting at once on an empty database migrate it once and all serve', async () => {
    const database = await createTestDatabase();
    const servers = await Promise.all([1, 2, 3].map(() => startTestServer({ DATABASE_URL: database.url })));
    try {
      for (const server of servers) assert.equal((await server.request('GET', '/health')).status, 200);
      const db = openDatabase(database.url);
      try {
        const rows = await sql<{ name: string; n: number }>`select name, count(*)::int as n from kysely_migration group by name`.execute(
          db.kysely,
        );
        assert.ok(rows.rows.length >= 11, `migrations recorded: ${rows.rows.length}`);
        assert.ok(
          rows.rows.every((row) => row.n === 1),
          'each migration once',
        );
      } finally {
        await db.close();
      }
      for (const server of servers) {
        const registered = await server.request('POST', '/auth/register/', {
          body: { email: uniqueEmail('together'), password: PASSWORD },
        });
        assert.equal(registered.status, 201, registered.text);
      }
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await database.drop();
    }
  });
});
