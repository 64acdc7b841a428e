// docs/emergency-links.md, the public side: what a link shows, with and without a PIN, its headers, the
// one 404 for unknown, expired, revoked and malformed tokens, the views it records (time, IP
// as seen under TRUST_PROXY, User-Agent; newest first; 90 days, then swept), its media
// through file URLs signed for 15 minutes, the responder's page with the API's headers, and a
// token that never reaches the log.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { create, createOwner, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';
import { png, upload } from '../media/media-fixtures.ts';
import { createLink, readPublic, unlock } from './emergency-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
// Tokens that never expire: the tests move the clock by months.
const ENV = { TRUST_PROXY: '127.0.0.1', TOKEN_IDLE_TTL: '0' };

function publicHeaders(response: TestResponse) {
  return ['cache-control', 'referrer-policy', 'x-robots-tag'].map((name) => response.headers.get(name));
}
const NO_STORE = ['no-store', 'no-referrer', 'noindex'];

describe('emergency links: the public routes', () => {
  let server: TestServer;
  let owner: Owner;
  let picture: { id: number; name: string; size: number };

  before(async () => {
    server = await startTestServer(ENV);
    owner = await createOwner(server, { firstName: 'Olive' });
    const uploaded = await upload(server, owner.token, owner.appUserId, { name: 'Allergy card', file: png(), type: 'image/png' });
    assert.equal(uploaded.status, 201, uploaded.text);
    picture = uploaded.body;
    const items = `/app/users/${owner.appUserId}/emergency-items/`;
    await create(server, owner.token, items, { name: 'Allergy', description: 'Penicillin', media_resource: picture.id });
    await create(server, owner.token, items, { name: 'Blood type', description: 'O negative' });
    await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-contacts/`, {
      name: 'Grace',
      relation: 'sister',
      phone_number: '15551234567',
      alt_phone_number: '',
      email: 'grace@example.com',
    });
  });
  after(() => server?.close());

  const views = async (id: number) => (await server.request('GET', `/app/emergency-links/${id}/views/`, { token: owner.token })).body;

  test('GET: 200 with the name, the emergency items and contacts, the view’s time, and the public headers', async () => {
    const link = await createLink(server, owner);
    const response = await readPublic(server, link.token);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(publicHeaders(response), NO_STORE);
    const body = response.body;
    const file = body.emergency_items[0].media_resource.file;
    assert.deepEqual(body, {
      name: 'Olive',
      emergency_items: [
        {
          name: 'Allergy',
          description: 'Penicillin',
          media_resource: { name: 'Allergy card', file, content_type: 'image/png', size: picture.size },
        },
        { name: 'Blood type', description: 'O negative', media_resource: null },
      ],
      emergency_contacts: [
        { name: 'Grace', relation: 'sister', phone_number: '15551234567', alt_phone_number: '', email: 'grace@example.com' },
      ],
      viewed_at: new Date(server.clock.now()).toISOString(),
      language: 'en',
    });
  });

  test('`language`: the owner account’s, the language the person wrote in, whoever reads it in whichever language', async () => {
    const writer = await createOwner(server);
    const changed = await server.request('PATCH', '/account/profile/', { token: writer.token, body: { language: 'de' } });
    assert.equal(changed.status, 200, changed.text);
    const link = await createLink(server, writer);
    const read = await readPublic(server, link.token, { 'accept-language': 'fr' });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.language, 'de');
  });

  test('a media file of the link downloads without a token for 15 minutes, then is 410', async () => {
    const link = await createLink(server, owner);
    const file = (await readPublic(server, link.token)).body.emergency_items[0].media_resource.file as string;
    const expires = Number(new URL(file).searchParams.get('expires')) * 1000;
    assert.ok(expires >= server.clock.now() + 15 * MINUTE && expires <= server.clock.now() + 19 * MINUTE, `expires ${expires}`);
    const fresh = await fetch(server.local(file));
    assert.equal(fresh.status, 200);
    assert.deepEqual(Buffer.from(await fresh.arrayBuffer()), png());
    server.clock.advance(19 * MINUTE);
    assert.equal((await fetch(server.local(file))).status, 410);
  });

  test('unknown, expired, revoked and malformed tokens: the same 404, byte for byte, with the public headers', async () => {
    const expiring = await createLink(server, owner, { expires_at: new Date(server.clock.now() + MINUTE).toISOString() });
    const revoked = await createLink(server, owner, { pin: '2468' });
    assert.equal((await readPublic(server, expiring.token)).status, 200);
    assert.equal((await server.request('DELETE', `/app/emergency-links/${revoked.id}/`, { token: owner.token })).status, 204);
    server.clock.advance(MINUTE);
    const unknown = 'A'.repeat(22);
    const answers: Array<[string, TestResponse]> = [];
    for (const [what, token] of [
      ['unknown', unknown],
      ['expired', expiring.token],
      ['revoked', revoked.token],
      ['malformed', 'not-a-token'],
      ['too long', `${expiring.token}x`],
    ]) {
      answers.push([`GET ${what}`, await readPublic(server, token!)]);
      answers.push([`POST ${what}`, await unlock(server, token!, '2468')]);
    }
    for (const [what, response] of answers) {
      assert.equal(response.status, 404, what);
      assert.equal(response.text, '{"detail":"Not found."}', what);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8', what);
      assert.deepEqual(publicHeaders(response), NO_STORE, what);
      assert.equal(response.headers.get('www-authenticate'), null, what);
    }
    // The expired link is the owner's still, and answers again once given a later expiry.
    const later = new Date(server.clock.now() + DAY).toISOString();
    const renewed = await server.request('PATCH', `/app/emergency-links/${expiring.id}/`, {
      token: owner.token,
      body: { expires_at: later },
    });
    assert.equal(renewed.status, 200);
    assert.equal((await readPublic(server, expiring.token)).status, 200);
  });

  test('with a PIN: GET is 401 {detail, pin_required}, POST with the PIN is the 200 body; a wrong or malformed PIN is 400 under pin', async () => {
    const link = await createLink(server, owner, { pin: '0042' });
    const locked = await readPublic(server, link.token);
    assert.equal(locked.status, 401);
    assert.deepEqual(locked.body, { detail: 'This information is protected by a PIN. Enter the PIN to see it.', pin_required: true });
    assert.equal(locked.headers.get('www-authenticate'), 'PIN');
    assert.deepEqual(publicHeaders(locked), NO_STORE);

    const wrong = await unlock(server, link.token, '0043');
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, { pin: ['The PIN is not correct.'] });
    assert.deepEqual(publicHeaders(wrong), NO_STORE);
    for (const pin of ['42', '123456789', 'abcd', 42, null]) {
      const malformed = await unlock(server, link.token, pin);
      assert.equal(malformed.status, 400, JSON.stringify(pin));
      assert.ok(Array.isArray(malformed.body.pin), malformed.text);
    }
    const missing = await server.request('POST', `/public/emergency/${link.token}/`, { body: {} });
    assert.deepEqual([missing.status, missing.body], [400, { pin: ['This field is required.'] }]);

    const right = await unlock(server, link.token, '0042');
    assert.equal(right.status, 200, right.text);
    assert.deepEqual(publicHeaders(right), NO_STORE);
    assert.equal(right.body.name, 'Olive');
    assert.equal(right.body.emergency_items.length, 2);
    assert.equal((await views(link.id)).length, 1, 'only the 200 is a view');
  });

  test('POST to a link without a PIN ignores the PIN and answers the body', async () => {
    const link = await createLink(server, owner);
    const response = await unlock(server, link.token, '9999');
    assert.equal(response.status, 200);
    assert.equal(response.body.name, 'Olive');
  });

  test('every 200 is a view: time, IP as the trusted proxy says, User-Agent made safe; newest first; counted on the link', async () => {
    const link = await createLink(server, owner);
    const first = server.clock.now();
    await readPublic(server, link.token, { 'x-forwarded-for': '203.0.113.7', 'user-agent': 'Responder/1.0' });
    server.clock.advance(MINUTE);
    await readPublic(server, link.token, { 'x-forwarded-for': '2001:db8::1', 'user-agent': `Phone\t/${'x'.repeat(300)}` });
    server.clock.advance(MINUTE);
    await unlock(server, link.token, '1111', { 'x-forwarded-for': '198.51.100.2' });
    const listed = await views(link.id);
    assert.deepEqual(listed, [
      { viewed_at: new Date(first + 2 * MINUTE).toISOString(), ip_address: '198.51.100.2', user_agent: 'node' },
      { viewed_at: new Date(first + MINUTE).toISOString(), ip_address: '2001:db8::1', user_agent: `Phone/${'x'.repeat(249)}` },
      { viewed_at: new Date(first).toISOString(), ip_address: '203.0.113.7', user_agent: 'Responder/1.0' },
    ]);
    const detail = (await server.request('GET', `/app/emergency-links/${link.id}/`, { token: owner.token })).body;
    assert.equal(detail.views, 3);
    assert.equal(detail.last_viewed_at, new Date(first + 2 * MINUTE).toISOString());
  });

  test('views are kept 90 days: older ones are not listed, and the sweep removes them; the link’s count stays', async () => {
    const link = await createLink(server, owner, { expires_at: null });
    await readPublic(server, link.token);
    server.clock.advance(50 * DAY);
    await readPublic(server, link.token);
    server.clock.advance(41 * DAY);
    assert.equal((await views(link.id)).length, 1, 'the view of 91 days ago is no longer listed');
    const rows = () =>
      server.server.ctx.db.kysely.selectFrom('emergency_link_views').select('viewed_at').where('link_id', '=', link.id).execute();
    assert.equal((await rows()).length, 2);
    await server.server.sweeper.runOnce();
    assert.equal((await rows()).length, 1, 'swept');
    assert.equal((await server.request('GET', `/app/emergency-links/${link.id}/`, { token: owner.token })).body.views, 2);
  });

  test('HEAD answers as GET does, without a body, and is a view too', async () => {
    const link = await createLink(server, owner);
    const head = await server.request('HEAD', `/public/emergency/${link.token}/`);
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.deepEqual(publicHeaders(head), NO_STORE);
    assert.equal((await views(link.id)).length, 1);
    const pinned = await createLink(server, owner, { pin: '1234' });
    assert.equal((await server.request('HEAD', `/public/emergency/${pinned.token}/`)).status, 401);
    assert.equal((await server.request('HEAD', `/public/emergency/${'B'.repeat(22)}/`)).status, 404);
  });

  test('the views of a link are its owner’s alone', async () => {
    const link = await createLink(server, owner);
    const other = await createOwner(server);
    const theirs = await server.request('GET', `/app/emergency-links/${link.id}/views/`, { token: other.token });
    assert.equal(theirs.status, 404);
  });
});

describe("emergency links: the responder's page", () => {
  test('never stored, sent on as a referrer or indexed: valid, unknown, expired and revoked tokens alike, built or not', async () => {
    const web = tempDir('emergency-page-web-');
    writeFileSync(join(web, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
    const server = await startTestServer({ ...ENV, WEB_CLIENT_DIR: web });
    try {
      const owner = await createOwner(server);
      const valid = await createLink(server, owner, { pin: '2468' });
      const expiring = await createLink(server, owner, { expires_at: new Date(server.clock.now() + MINUTE).toISOString() });
      const revoked = await createLink(server, owner);
      assert.equal((await server.request('DELETE', `/app/emergency-links/${revoked.id}/`, { token: owner.token })).status, 204);
      server.clock.advance(2 * MINUTE);
      for (const token of [valid.token, 'A'.repeat(22), expiring.token, revoked.token, 'not-a-token']) {
        const page = await server.request('GET', `/emergency/${token}`);
        assert.equal(page.status, 200);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        assert.deepEqual(publicHeaders(page), NO_STORE, token);
      }
      // No build yet: the page's 503 says so, with the same headers.
      rmSync(join(web, 'index.html'));
      const notBuilt = await server.request('GET', `/emergency/${valid.token}`);
      assert.equal(notBuilt.status, 503);
      assert.deepEqual(publicHeaders(notBuilt), NO_STORE);
      // The client's other pages are revalidated, as before.
      writeFileSync(join(web, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
      assert.equal((await server.request('GET', '/sign-in')).headers.get('cache-control'), 'no-cache');
    } finally {
      await server.close();
      rmSync(web, { recursive: true, force: true });
    }
  });
});

describe('emergency links: what reaches the log', () => {
  test('the token of a public request is not logged; the route is', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ level: 'info' }, sink) as FastifyBaseLogger;
    const server = await startTestServer({}, { log });
    try {
      const owner = await createOwner(server);
      const link = await createLink(server, owner);
      assert.equal((await readPublic(server, link.token)).status, 200);
      assert.equal((await server.request('GET', `/public/emergency/${link.token}`)).status, 200);
      const logged = lines.join('');
      assert.match(logged, /\/public\/emergency\/<token>\//);
      assert.ok(!logged.includes(link.token), 'the token is in the log');
    } finally {
      await server.close();
    }
  });
});
