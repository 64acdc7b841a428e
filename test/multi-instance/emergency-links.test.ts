// Emergency links on several instances of one PostgreSQL database (docs/production.md, docs/emergency-links.md): each
// request reads the link from the database, so a revocation, a new PIN or an expiry on one
// instance holds on the others from the next request; the wrong PINs sent to different
// instances add up to one lockout (one e-mail); one notice an hour whichever instance records
// the views; and the per-IP limit of the public routes is one budget across instances.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailedServer, waitForMail, type MailedServer } from '../accounts/account-flows.ts';
import { createOwner } from '../app-data/fixtures.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createLink, LOCKED_SUBJECT, queuedNotices, readPublic, unlock, VIEWED_SUBJECT } from '../emergency/emergency-fixtures.ts';

const LIMITS = { RATE_LIMITS: 'on', RATE_LIMIT_EMERGENCY_LINK_IP: '1000/1m', TRUST_PROXY: '127.0.0.1' };

describe('emergency links on two instances of one PostgreSQL database', {
  skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)',
}, () => {
  let mailed: MailedServer;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    mailed = await startMailedServer(LIMITS);
    a = mailed.server;
    b = await startTestServer({ ...LIMITS, DATABASE_URL: a.server.ctx.config.databaseUrl, SMTP_URL: mailed.sink.url });
  });
  after(async () => {
    await b?.close();
    await mailed?.close();
  });

  test('revoked on A: 404 on B at the next request', async () => {
    const owner = await createOwner(a);
    const link = await createLink(a, owner, { pin: '2468' });
    assert.equal((await unlock(b, link.token, '2468')).status, 200);
    assert.equal((await readPublic(b, link.token)).status, 401);
    assert.equal((await a.request('DELETE', `/app/emergency-links/${link.id}/`, { token: owner.token })).status, 204);
    const gone = await unlock(b, link.token, '2468');
    assert.equal(gone.status, 404);
    assert.equal(gone.text, '{"detail":"Not found."}');
    assert.equal((await readPublic(b, link.token)).status, 404);
  });

  test('a new PIN and a new expiry set on A hold on B at the next request', async () => {
    const owner = await createOwner(a);
    const link = await createLink(a, owner, { pin: '1111' });
    assert.equal((await unlock(b, link.token, '1111')).status, 200);
    const path = `/app/emergency-links/${link.id}/`;
    assert.equal((await a.request('PATCH', path, { token: owner.token, body: { pin: '2222' } })).status, 200);
    assert.equal((await unlock(b, link.token, '1111')).status, 400);
    assert.equal((await unlock(b, link.token, '2222')).status, 200);
    const soon = new Date(b.clock.now() + 60_000).toISOString();
    assert.equal((await a.request('PATCH', path, { token: owner.token, body: { expires_at: soon } })).status, 200);
    b.clock.advance(60_000);
    assert.equal((await unlock(b, link.token, '2222')).status, 404);
  });

  test('wrong PINs sent to A and B add up: the 5th locks the link on both, and the owner gets one e-mail', async () => {
    const owner = await createOwner(a);
    const link = await createLink(a, owner, { label: 'Shared', pin: '8080' });
    const sent = [a, b, a, b, a].map((server, i) => [server, `000${i}`] as const);
    for (const [server, pin] of sent) assert.equal((await unlock(server, link.token, pin)).status, 400);
    for (const server of [a, b]) {
      assert.equal((await unlock(server, link.token, '8080')).status, 429, server.url);
      assert.equal((await readPublic(server, link.token)).status, 429, server.url);
    }
    await waitForMail(mailed.sink, owner.email, LOCKED_SUBJECT);
    assert.equal(await queuedNotices(a, owner.id, LOCKED_SUBJECT), 1);
  });

  test('views recorded on A and B: one notice within the hour, and both views listed', async () => {
    const owner = await createOwner(a);
    const link = await createLink(a, owner);
    assert.equal((await readPublic(a, link.token)).status, 200);
    assert.equal((await readPublic(b, link.token)).status, 200);
    assert.equal(await queuedNotices(a, owner.id, VIEWED_SUBJECT), 1);
    const views = await b.request('GET', `/app/emergency-links/${link.id}/views/`, { token: owner.token });
    assert.equal(views.body.length, 2);
  });
});

describe('the per-IP limit of the public routes on two instances', {
  skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)',
}, () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    const env = { RATE_LIMITS: 'on', RATE_LIMIT_EMERGENCY_LINK_IP: '3/1h', TRUST_PROXY: '127.0.0.1' };
    a = await startTestServer(env);
    b = await startTestServer({ ...env, DATABASE_URL: a.server.ctx.config.databaseUrl });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  test('one client’s requests to A and B count against one budget', async () => {
    const owner = await createOwner(a);
    const link = await createLink(a, owner);
    const from = { 'x-forwarded-for': '203.0.113.77' };
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a]) statuses.push((await readPublic(server, link.token, from)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  });
});
