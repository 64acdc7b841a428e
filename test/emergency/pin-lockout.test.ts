// docs/emergency-links.md: after 5 wrong PINs in 15 minutes a link answers 429 for 15 minutes (GET and
// POST, the right PIN too) and its owner is e-mailed, once; a right PIN is no failure; a new
// PIN lifts the lock; parallel guesses cannot slip past the count. Lock-outs in a row last
// twice as long each, and the third stops the link until its owner sets the PIN again. And the
// per-IP limit of the public routes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailedServer, waitForMail, type MailedServer } from '../accounts/account-flows.ts';
import { createOwner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { lockDurationMs } from '../../src/emergency/pin-lockout.ts';
import { createLink, LOCKED_SUBJECT, queuedNotices, readPublic, unlock } from './emergency-fixtures.ts';

const MINUTE = 60_000;

describe('the PIN lockout', () => {
  let mailed: MailedServer;
  let server: TestServer;
  before(async () => {
    mailed = await startMailedServer({ RATE_LIMITS: 'on', RATE_LIMIT_EMERGENCY_LINK_IP: '10000/1m' });
    server = mailed.server;
  });
  after(() => mailed?.close());

  async function statuses(token: string, pins: string[]): Promise<number[]> {
    const result: number[] = [];
    for (const pin of pins) result.push((await unlock(server, token, pin)).status);
    return result;
  }

  test('5 wrong PINs: 400 each, then 429 with Retry-After for 15 minutes on GET and POST, right PIN included; the owner is told once', async () => {
    const owner = await createOwner(server);
    const link = await createLink(server, owner, { label: 'Bracelet', pin: '7531' });
    const other = await createLink(server, owner, { pin: '7531' });
    assert.deepEqual(await statuses(link.token, ['0000', '0001', '0002', '0003', '0004']), [400, 400, 400, 400, 400]);
    const refused = await unlock(server, link.token, '7531');
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.headers.get('retry-after'), '900');
    assert.match(refused.body.detail, /^Too many wrong PINs for this link; try again in 900 seconds\.$/);
    assert.equal(refused.headers.get('x-robots-tag'), 'noindex');
    assert.equal((await readPublic(server, link.token)).status, 429, 'GET too');
    assert.equal((await unlock(server, other.token, '7531')).status, 200, 'another link is not locked');

    const mail = await waitForMail(mailed.sink, owner.email, LOCKED_SUBJECT);
    assert.match(mail.decoded, /Bracelet/);
    assert.match(mail.decoded, /15 minutes/);
    server.clock.advance(14 * MINUTE);
    assert.deepEqual(await statuses(link.token, ['0005', '7531']), [429, 429]);
    assert.equal(await queuedNotices(server, owner.id, LOCKED_SUBJECT), 1, 'one notice per lock-out');

    server.clock.advance(MINUTE);
    assert.equal((await unlock(server, link.token, '7531')).status, 200, '15 minutes after the lock');
    assert.equal((await readPublic(server, link.token)).status, 401);
  });

  test('a right PIN takes its attempt back: only wrong PINs count towards the 5', async () => {
    const owner = await createOwner(server);
    const link = await createLink(server, owner, { pin: '2468' });
    assert.deepEqual(
      await statuses(link.token, ['1111', '2468', '1112', '2468', '1113', '2468', '1114', '2468', '2468', '1115', '2468']),
      [400, 200, 400, 200, 400, 200, 400, 200, 200, 400, 429],
    );
  });

  test('parallel wrong PINs: exactly 5 are checked, the rest are 429, and one e-mail', async () => {
    const owner = await createOwner(server);
    const link = await createLink(server, owner, { pin: '8642' });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => unlock(server, link.token, String(1000 + i))));
    const counted = answers.map((answer) => answer.status).sort();
    assert.deepEqual(counted, [...Array(5).fill(400), ...Array(7).fill(429)]);
    assert.equal(await queuedNotices(server, owner.id, LOCKED_SUBJECT), 1);
  });

  test('a new PIN, or none, lifts the lock at once', async () => {
    const owner = await createOwner(server);
    const link = await createLink(server, owner, { pin: '1357' });
    await statuses(link.token, ['0000', '0000', '0000', '0000', '0000']);
    assert.equal((await unlock(server, link.token, '1357')).status, 429);
    const path = `/app/emergency-links/${link.id}/`;
    assert.equal((await server.request('PATCH', path, { token: owner.token, body: { pin: '97531' } })).status, 200);
    assert.equal((await unlock(server, link.token, '1357')).status, 400, 'the old PIN is wrong now');
    assert.equal((await unlock(server, link.token, '97531')).status, 200);
    await statuses(link.token, ['0000', '0000', '0000', '0000']);
    assert.equal((await readPublic(server, link.token)).status, 429);
    assert.equal((await server.request('PATCH', path, { token: owner.token, body: { pin: null } })).status, 200);
    assert.equal((await readPublic(server, link.token)).status, 200);
  });
});

describe('lock-outs in a row', () => {
  let mailed: MailedServer;
  let server: TestServer;
  before(async () => {
    mailed = await startMailedServer({ RATE_LIMITS: 'on', RATE_LIMIT_EMERGENCY_LINK_IP: '10000/1m' });
    server = mailed.server;
  });
  after(() => mailed?.close());

  /** 5 wrong PINs, each 400; then the answer to the right one. */
  async function lockOut(token: string, pin: string) {
    for (let i = 0; i < 5; i++) assert.equal((await unlock(server, token, `000${i}`)).status, 400);
    return unlock(server, token, pin);
  }

  test('each lasts twice as long; the third stops the link until its owner sets the PIN again; the owner is told each time', async () => {
    const owner = await createOwner(server);
    const link = await createLink(server, owner, { label: 'Wallet card', pin: '7531' });
    const first = await lockOut(link.token, '7531');
    assert.deepEqual([first.status, first.headers.get('retry-after')], [429, '900']);
    server.clock.advance(15 * MINUTE);
    const second = await lockOut(link.token, '7531');
    assert.deepEqual([second.status, second.headers.get('retry-after')], [429, '1800']);
    assert.match((await waitForMail(mailed.sink, owner.email, LOCKED_SUBJECT, 2)).decoded, /30 minutes/);
    server.clock.advance(29 * MINUTE);
    assert.equal((await unlock(server, link.token, '7531')).status, 429, 'still locked after 29 minutes');
    server.clock.advance(MINUTE);

    // The third: no PIN is taken any more, however long one waits, on GET and POST.
    const third = await lockOut(link.token, '7531');
    assert.equal(third.status, 429);
    assert.equal(third.headers.get('retry-after'), null);
    assert.match(third.body.detail, /no PIN until its owner sets the PIN again/);
    assert.equal(third.headers.get('x-robots-tag'), 'noindex');
    server.clock.advance(3 * 24 * 60 * MINUTE);
    assert.equal((await unlock(server, link.token, '7531')).status, 429);
    assert.equal((await readPublic(server, link.token)).status, 429);
    const told = await waitForMail(mailed.sink, owner.email, LOCKED_SUBJECT, 3);
    assert.match(told.decoded, /no longer takes any PIN/);
    assert.equal(await queuedNotices(server, owner.id, LOCKED_SUBJECT), 3, 'one notice per lock-out');

    // The owner sets the PIN again (the same one): it opens, and the lock-outs start from none.
    const path = `/app/emergency-links/${link.id}/`;
    assert.equal((await server.request('PATCH', path, { token: owner.token, body: { pin: '7531' } })).status, 200);
    assert.equal((await readPublic(server, link.token)).status, 401);
    assert.equal((await unlock(server, link.token, '7531')).status, 200);
    const again = await lockOut(link.token, '7531');
    assert.deepEqual([again.status, again.headers.get('retry-after')], [429, '900']);
  });

  test('a right PIN between two lock-outs starts them from none', async () => {
    const owner = await createOwner(server);
    const link = await createLink(server, owner, { pin: '2468' });
    assert.equal((await lockOut(link.token, '2468')).headers.get('retry-after'), '900');
    server.clock.advance(15 * MINUTE);
    assert.equal((await unlock(server, link.token, '2468')).status, 200);
    assert.equal((await lockOut(link.token, '2468')).headers.get('retry-after'), '900', 'not 1800');
    server.clock.advance(15 * MINUTE);
    assert.equal((await lockOut(link.token, '2468')).headers.get('retry-after'), '1800');
  });

  test('the lock-out lengths: the window, doubled each time, at most a day (or the window, if longer)', () => {
    const hours = (lockouts: number, windowMs = 15 * MINUTE) => lockDurationMs(windowMs, lockouts) / (60 * MINUTE);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 100].map((n) => hours(n)),
      [0.25, 0.5, 1, 2, 4, 8, 16, 24, 24, 24],
    );
    assert.deepEqual(
      [1, 2].map((n) => hours(n, 48 * 60 * MINUTE)),
      [48, 48],
    );
  });
});

describe('the per-IP limit of the public routes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ RATE_LIMITS: 'on', RATE_LIMIT_EMERGENCY_LINK_IP: '3/1m', TRUST_PROXY: '127.0.0.1' });
  });
  after(() => server?.close());

  test('GET and POST of one client count together, found or not; another client has its own budget; the window ends', async () => {
    const owner = await createOwner(server);
    const link = await createLink(server, owner);
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    assert.equal((await readPublic(server, link.token, from('203.0.113.9'))).status, 200);
    assert.equal((await unlock(server, link.token, '1234', from('203.0.113.9'))).status, 200);
    assert.equal((await readPublic(server, 'A'.repeat(22), from('203.0.113.9'))).status, 404);
    const limited = await readPublic(server, link.token, from('203.0.113.9'));
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.deepEqual(
      ['cache-control', 'referrer-policy', 'x-robots-tag'].map((name) => limited.headers.get(name)),
      ['no-store', 'no-referrer', 'noindex'],
    );
    assert.equal((await unlock(server, link.token, '1234', from('203.0.113.9'))).status, 429);
    assert.equal((await readPublic(server, link.token, from('198.51.100.4'))).status, 200);
    server.clock.advance(MINUTE);
    assert.equal((await readPublic(server, link.token, from('203.0.113.9'))).status, 200);
  });
});
