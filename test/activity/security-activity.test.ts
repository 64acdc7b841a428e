// The account's security log (docs/activity.md): sign-ins with their method and the session's
// IP address and User-Agent, sessions ended, the password changed, addresses added and
// deleted, operators' actions, each `via` the web client or the API; to the account itself
// only, paged like the app user's log.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recordSecurityEvent } from '../../src/activity/activity-events.ts';
import { disableAccount, enableAccount } from '../../src/admin/admin-service.ts';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Event {
  id: number;
  actor: { kind: string; id: number | null; name: string | null } | null;
  action: string;
  object: { type: string; id: number | null; name: string | null; ip_address?: string | null; user_agent?: string | null } | null;
  via: string | null;
}

const PASSWORD = 'correct horse battery staple';

describe("the account's security log", () => {
  let server: TestServer;
  let person: Owner;
  let other: Owner;

  before(async () => {
    server = await startTestServer();
    person = await createOwner(server, { firstName: 'Ada' });
    other = await createOwner(server, { firstName: 'Ben' });
  });
  after(() => server?.close());

  async function events(token: string): Promise<Event[]> {
    const response = await server.request('GET', '/account/activity/', { token });
    assert.equal(response.status, 200, response.text);
    return response.body.events;
  }

  test('a password sign-in is signed_in with its method, IP address and User-Agent', async () => {
    const login = await server.request('POST', '/auth/login/', {
      body: { username: person.email, password: PASSWORD },
      headers: { 'user-agent': 'Firefox/140 test' },
    });
    assert.equal(login.status, 200, login.text);
    const [event] = await events(person.token);
    assert.equal(event!.action, 'signed_in');
    assert.deepEqual(event!.actor, { kind: 'owner', id: person.id, name: 'Ada Lovelace' });
    assert.equal(event!.object?.type, 'session');
    assert.equal(event!.object?.name, 'password');
    assert.equal(event!.object?.user_agent, 'Firefox/140 test');
    assert.ok(event!.object?.ip_address);
    assert.equal(event!.via, 'api');
  });

  test('what the web client does is via web: pages of this service send Sec-Fetch-Site: same-origin', async () => {
    const web = { 'sec-fetch-site': 'same-origin' };
    const login = await server.request('POST', '/auth/login/', { body: { username: person.email, password: PASSWORD }, headers: web });
    assert.equal(login.status, 200, login.text);
    const added = await server.request('POST', '/account/emails/', {
      token: login.body.token,
      body: { email: 'web@example.com' },
      headers: web,
    });
    assert.equal(added.status, 201, added.text);
    // Another site's page, or an app: api.
    const elsewhere = { 'sec-fetch-site': 'cross-site' };
    const removed = await server.request('DELETE', `/account/emails/${added.body.id}/`, { token: login.body.token, headers: elsewhere });
    assert.equal(removed.status, 204, removed.text);
    const ended = await server.request('POST', '/auth/logout/', { token: login.body.token, headers: web });
    assert.equal(ended.status, 204, ended.text);
    const [logout, deleted, addedEvent, signedIn] = await events(person.token);
    assert.deepEqual(
      [signedIn, addedEvent, deleted, logout].map((e) => [e!.action, e!.via]),
      [
        ['signed_in', 'web'],
        ['address_added', 'web'],
        ['address_deleted', 'api'],
        ['session_ended', 'web'],
      ],
    );
  });

  test('addresses, the password and sessions over their life are events', async () => {
    const added = await server.request('POST', '/account/emails/', { token: person.token, body: { email: 'second@example.com' } });
    assert.equal(added.status, 201, added.text);
    assert.equal((await server.request('DELETE', `/account/emails/${added.body.id}/`, { token: person.token })).status, 204);
    const login = await server.request('POST', '/auth/login/', { body: { username: person.email, password: PASSWORD } });
    const sessions = await server.request('GET', '/auth/sessions/', { token: login.body.token });
    const current = sessions.body.find((s: { current: boolean }) => s.current);
    assert.equal((await server.request('DELETE', `/auth/sessions/${current.id}/`, { token: person.token })).status, 204);
    const changed = await server.request('POST', '/account/change-password/', {
      token: person.token,
      body: { old_password: PASSWORD, new_password: 'amber-falcon-88-river' },
    });
    assert.equal(changed.status, 200, changed.text);
    const actions = (await events(person.token))
      .map((e) => [e.action, e.object?.type ?? null, e.object?.name ?? null])
      .slice(0, 5)
      .reverse();
    assert.deepEqual(actions, [
      ['address_added', 'email_address', 'second@example.com'],
      ['address_deleted', 'email_address', 'second@example.com'],
      ['signed_in', 'session', 'password'],
      ['session_ended', 'session', 'password'],
      ['password_changed', null, null],
    ]);
    // The session ended is named as its sign-in named it: how, and from where.
    const [, endedEvent, signedInEvent] = await events(person.token);
    assert.equal(endedEvent!.object?.id, current.id);
    const { ip_address, user_agent } = signedInEvent!.object!;
    assert.ok(ip_address, 'the sign-in says where from');
    assert.deepEqual(
      { ip_address: endedEvent!.object?.ip_address, user_agent: endedEvent!.object?.user_agent },
      { ip_address, user_agent },
    );
    assert.equal((await server.request('POST', '/auth/logout/', { token: person.token })).status, 204);
    const relogin = await server.request('POST', '/auth/login/', { body: { username: person.email, password: 'amber-falcon-88-river' } });
    person = { ...person, token: relogin.body.token };
    const latest = (await events(person.token)).slice(0, 2).map((e) => e.action);
    assert.deepEqual(latest, ['signed_in', 'session_ended']);
  });

  test("an operator's actions are in the account's log, and in its app user's", async () => {
    const actor = { via: 'cli', user: 'ops@host' } as const;
    await disableAccount(server.server.ctx, actor, other.id, 'checking');
    await enableAccount(server.server.ctx, actor, other.id);
    const relogin = await server.request('POST', '/auth/login/', { body: { username: other.email, password: PASSWORD } });
    assert.equal(relogin.status, 200, relogin.text);
    const mine = (await events(relogin.body.token)).slice(1, 3).reverse();
    assert.deepEqual(
      mine.map((e) => [e.actor, e.action, e.via]),
      [
        [{ kind: 'operator', id: null, name: null }, 'disabled', 'cli'],
        [{ kind: 'operator', id: null, name: null }, 'enabled', 'cli'],
      ],
    );
    const appUserLog = await server.request('GET', `/app/users/${other.appUserId}/activity/`, { token: relogin.body.token });
    assert.deepEqual(
      appUserLog.body.events.map((e: Event) => e.action),
      ['enabled', 'disabled'],
    );
  });

  test('each account reads its own log only, paged', async () => {
    const mine = await events(person.token);
    assert.ok(mine.length > 0);
    assert.ok(mine.every((e) => e.actor === null || e.actor.kind !== 'owner' || e.actor.id === person.id));
    assert.ok(!mine.some((e) => e.action === 'disabled'), "another account's operator actions are not here");
    assert.equal((await server.request('GET', '/account/activity/')).status, 401);
    assert.equal((await server.request('GET', '/account/activity/?before=-1', { token: person.token })).status, 400);

    const db = server.server.ctx.db.kysely;
    for (let i = 0; i < 120; i++) await recordSecurityEvent(db, person.id, server.clock.now(), 'recovery_code_used', 'api');
    const first = await server.request('GET', '/account/activity/', { token: person.token });
    assert.equal(first.body.events.length, 100);
    const next = new URL(first.body.next);
    assert.equal(next.pathname, '/account/activity/');
    const second = await server.request('GET', next.pathname + next.search, { token: person.token });
    assert.equal(second.status, 200);
    assert.equal(second.body.events.length, 120 + mine.length - 100);
    assert.equal(second.body.next, null);
  });

  test('the sweep deletes events older than ACTIVITY_RETENTION (default a year), and only those', async () => {
    const db = server.server.ctx.db.kysely;
    const at = server.clock.now();
    await recordSecurityEvent(db, other.id, at - 366 * 86_400_000, 'password_changed', 'api');
    await recordSecurityEvent(db, other.id, at - 364 * 86_400_000, 'password_reset', 'api');
    await server.server.sweeper.runOnce();
    const left = await db
      .selectFrom('activity_events')
      .select('action')
      .where('account_id', '=', other.id)
      .where('at', '<', at - 300 * 86_400_000)
      .execute();
    assert.deepEqual(
      left.map((row) => row.action),
      ['password_reset'],
    );
  });

  test('deleting the account deletes its events', async () => {
    const gone = await createOwner(server);
    await server.request('POST', '/auth/login/', { body: { username: gone.email, password: PASSWORD } });
    const db = server.server.ctx.db.kysely;
    const count = async () => (await db.selectFrom('activity_events').select('id').where('account_id', '=', gone.id).execute()).length;
    assert.equal(await count(), 1);
    const deleted = await server.request('DELETE', '/account/', { token: gone.token, body: { password: PASSWORD } });
    assert.ok(deleted.status === 204 || deleted.status === 202, deleted.text);
    assert.equal(await count(), 0);
  });
});
