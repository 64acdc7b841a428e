// docs/emergency-links.md, the owner's side: creating a link (the one answer with its URL), listing,
// reading, changing and revoking it, and its refusals — a past expiry, a malformed PIN, an
// accessor of the app user (403), anyone else (404). The token and the PIN are stored hashed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { createLink, readPublic, share } from './emergency-fixtures.ts';

const DAY = 86_400_000;
const LINK_FIELDS = [
  'created_at',
  'emergency_contacts',
  'emergency_items',
  'expires_at',
  'has_pin',
  'id',
  'label',
  'last_viewed_at',
  'url',
  'views',
];

describe('emergency links: the owner’s routes', () => {
  let server: TestServer;
  let owner: Owner;
  let accessor: Owner;
  let stranger: Owner;

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
    accessor = await createOwner(server);
    stranger = await createOwner(server);
    await share(server, owner, accessor);
  });
  after(() => server?.close());

  const db = () => server.server.ctx.db.kysely;
  const linksPath = () => `/app/users/${owner.appUserId}/emergency-links/`;

  test('create: 201, Location equal to url, the link once with a 128-bit token, a year’s expiry by default, no PIN', async () => {
    const before = server.clock.now();
    const response = await server.request('POST', linksPath(), { token: owner.token, body: { label: '  Wallet card  ' } });
    assert.equal(response.status, 201, response.text);
    const link = response.body;
    assert.deepEqual(Object.keys(link).sort(), [...LINK_FIELDS, 'link'].sort());
    assert.equal(response.headers.get('location'), link.url);
    assert.equal(link.url, `${PUBLIC_URL}/app/emergency-links/${link.id}/`);
    assert.match(link.link, new RegExp(`^${PUBLIC_URL}/emergency/[A-Za-z0-9_-]{22}$`));
    assert.equal(Buffer.from(link.link.split('/').pop(), 'base64url').length, 16, '128 random bits');
    assert.equal(link.label, 'Wallet card', 'trimmed');
    assert.equal(link.has_pin, false);
    assert.equal(link.views, 0);
    assert.equal(link.last_viewed_at, null);
    assert.equal(Date.parse(link.created_at), before);
    assert.equal(Date.parse(link.expires_at), before + 365 * DAY);

    const read = await server.request('GET', `/app/emergency-links/${link.id}/`, { token: owner.token });
    assert.equal(read.status, 200);
    assert.deepEqual(Object.keys(read.body).sort(), LINK_FIELDS, 'the link is not shown again');
    const { link: _shownOnce, ...rest } = link;
    assert.deepEqual(read.body, rest);
  });

  test('the token is stored only as its SHA-256, the PIN only as an argon2id hash', async () => {
    const link = await createLink(server, owner, { pin: '123456' });
    const row = await db().selectFrom('emergency_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    assert.equal(row.token_hash, createHash('sha256').update(link.token).digest('hex'));
    assert.match(row.pin_hash ?? '', /^\$argon2id\$/);
    const stored = JSON.stringify(await db().selectFrom('emergency_links').selectAll().execute());
    assert.ok(!stored.includes(link.token), 'no column holds the token');
    assert.ok(!stored.includes('123456'), 'no column holds the PIN');
  });

  test('expires_at: a future time is kept, null is never, a past or malformed one is 400 under expires_at', async () => {
    const at = new Date(server.clock.now() + 3 * DAY).toISOString();
    assert.equal((await createLink(server, owner, { expires_at: at })).expires_at, at);
    assert.equal((await createLink(server, owner, { expires_at: null })).expires_at, null);
    for (const expires_at of [new Date(server.clock.now() - 1000).toISOString(), new Date(server.clock.now()).toISOString()]) {
      const past = await server.request('POST', linksPath(), { token: owner.token, body: { expires_at } });
      assert.equal(past.status, 400, past.text);
      assert.deepEqual(past.body, { expires_at: ['The expiry must be in the future.'] });
    }
    for (const expires_at of ['tomorrow', '2030-01-01', 12345]) {
      const bad = await server.request('POST', linksPath(), { token: owner.token, body: { expires_at } });
      assert.equal(bad.status, 400, bad.text);
      assert.ok(bad.body.expires_at, bad.text);
    }
  });

  test('pin: 4 to 8 digits as a string; anything else is 400 under pin, on create and on PATCH', async () => {
    for (const pin of ['1234', '12345678']) assert.equal((await createLink(server, owner, { pin })).has_pin, true);
    const link = await createLink(server, owner);
    for (const pin of ['123', '123456789', '12a4', ' 12 34', '１２３４', 1234, '']) {
      const created = await server.request('POST', linksPath(), { token: owner.token, body: { pin } });
      assert.equal(created.status, 400, `create ${JSON.stringify(pin)}: ${created.text}`);
      assert.ok(Array.isArray(created.body.pin), created.text);
      const patched = await server.request('PATCH', `/app/emergency-links/${link.id}/`, { token: owner.token, body: { pin } });
      assert.equal(patched.status, 400, `patch ${JSON.stringify(pin)}: ${patched.text}`);
      assert.ok(Array.isArray(patched.body.pin), patched.text);
    }
    const short = await server.request('POST', linksPath(), { token: owner.token, body: { pin: '123' } });
    assert.deepEqual(short.body, { pin: ['A PIN is 4 to 8 digits.'] });
  });

  test('PATCH changes the label, the expiry and the PIN (null removes it); PUT is not a method here', async () => {
    const link = await createLink(server, owner, { label: 'Bracelet' });
    const path = `/app/emergency-links/${link.id}/`;
    const at = new Date(server.clock.now() + 7 * DAY).toISOString();
    const changed = await server.request('PATCH', path, { token: owner.token, body: { label: 'Phone', expires_at: at, pin: '4321' } });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.body.label, changed.body.expires_at, changed.body.has_pin], ['Phone', at, true]);
    const nothing = await server.request('PATCH', path, { token: owner.token, body: {} });
    assert.deepEqual(nothing.body, changed.body);
    const unpinned = await server.request('PATCH', path, { token: owner.token, body: { pin: null, expires_at: null } });
    assert.deepEqual([unpinned.body.has_pin, unpinned.body.expires_at], [false, null]);
    const past = await server.request('PATCH', path, { token: owner.token, body: { expires_at: '2001-01-01T00:00:00Z' } });
    assert.deepEqual([past.status, past.body], [400, { expires_at: ['The expiry must be in the future.'] }]);
    const long = await server.request('PATCH', path, { token: owner.token, body: { label: 'x'.repeat(256) } });
    assert.equal(long.status, 400);
    assert.ok(long.body.label);
    const put = await server.request('PUT', path, { token: owner.token, body: { label: 'x' } });
    assert.equal(put.status, 405);
    assert.match(put.headers.get('allow') ?? '', /PATCH/);
  });

  test('GET carries an ETag; PATCH and DELETE honour If-Match: a stale tag is 412 and nothing changes', async () => {
    const link = await createLink(server, owner, { label: 'Tagged' });
    const path = `/app/emergency-links/${link.id}/`;
    const read = await server.request('GET', path, { token: owner.token });
    const tag = read.headers.get('etag') ?? '';
    assert.match(tag, /^"[\w-]{22}"$/);
    const changed = await server.request('PATCH', path, { token: owner.token, body: { label: 'New' }, headers: { 'if-match': tag } });
    assert.equal(changed.status, 200, changed.text);
    const stale = await server.request('PATCH', path, { token: owner.token, body: { label: 'Lost' }, headers: { 'if-match': tag } });
    assert.equal(stale.status, 412, stale.text);
    assert.equal((await server.request('DELETE', path, { token: owner.token, headers: { 'if-match': tag } })).status, 412);
    const now = await server.request('GET', path, { token: owner.token });
    assert.equal(now.body.label, 'New');
    const removed = await server.request('DELETE', path, { token: owner.token, headers: { 'if-match': now.headers.get('etag')! } });
    assert.equal(removed.status, 204);
  });

  test('the list: every link of the app user by id, without its token', async () => {
    const list = await server.request('GET', linksPath(), { token: owner.token });
    assert.equal(list.status, 200);
    const ids = list.body.map((link: { id: number }) => link.id);
    assert.ok(ids.length > 0);
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => a - b),
    );
    for (const link of list.body) assert.deepEqual(Object.keys(link).sort(), LINK_FIELDS);
  });

  test('DELETE revokes: 204, the public link answers 404 from the next request, and the link is gone', async () => {
    const link = await createLink(server, owner);
    assert.equal((await readPublic(server, link.token)).status, 200);
    const removed = await server.request('DELETE', `/app/emergency-links/${link.id}/`, { token: owner.token });
    assert.equal(removed.status, 204);
    assert.equal((await readPublic(server, link.token)).status, 404);
    assert.equal((await server.request('GET', `/app/emergency-links/${link.id}/`, { token: owner.token })).status, 404);
    assert.equal((await server.request('DELETE', `/app/emergency-links/${link.id}/`, { token: owner.token })).status, 404);
  });

  test('an accessor of the app user, even with write access, is 403 on every route; a stranger 404; nothing changes', async () => {
    const link = await createLink(server, owner, { label: 'Mine' });
    const routes: Array<[string, string, object?]> = [
      ['GET', linksPath()],
      ['POST', linksPath(), { label: 'Theirs' }],
      ['GET', `/app/emergency-links/${link.id}/`],
      ['PATCH', `/app/emergency-links/${link.id}/`, { label: 'Theirs', pin: null }],
      ['GET', `/app/emergency-links/${link.id}/views/`],
      ['DELETE', `/app/emergency-links/${link.id}/`],
    ];
    for (const [method, path, body] of routes) {
      const byAccessor = await server.request(method, path, { token: accessor.token, body });
      assert.equal(byAccessor.status, 403, `accessor ${method} ${path}: ${byAccessor.text}`);
      assert.deepEqual(byAccessor.body, { detail: 'Only the owner of this data can do this.' });
      const byStranger = await server.request(method, path, { token: stranger.token, body });
      assert.equal(byStranger.status, 404, `stranger ${method} ${path}: ${byStranger.text}`);
      assert.equal(byStranger.text, '{"detail":"Not found."}');
      const anonymous = await server.request(method, path, { body });
      assert.equal(anonymous.status, 401, `anonymous ${method} ${path}`);
    }
    const kept = await server.request('GET', `/app/emergency-links/${link.id}/`, { token: owner.token });
    assert.deepEqual([kept.body.label, kept.body.has_pin], ['Mine', false]);
    const mine = await server.request('GET', `/app/users/${owner.appUserId}/emergency-links/`, { token: owner.token });
    assert.ok(!mine.body.some((l: { label: string }) => l.label === 'Theirs'));
    // The stranger's own links are theirs alone: their list does not show the owner's.
    const theirs = await server.request('GET', `/app/users/${stranger.appUserId}/emergency-links/`, { token: stranger.token });
    assert.deepEqual(theirs.body, []);
  });

  test('ids that are not positive integers are 404; at most QUOTA_EMERGENCY_LINKS_PER_USER (20) links per app user (400)', async () => {
    for (const id of ['0', 'abc', '-1', '99999999999']) {
      assert.equal((await server.request('GET', `/app/emergency-links/${id}/`, { token: owner.token })).status, 404);
    }
    const other = await createOwner(server);
    for (let i = 0; i < 20; i++) await createLink(server, other);
    const over = await server.request('POST', `/app/users/${other.appUserId}/emergency-links/`, { token: other.token, body: {} });
    assert.equal(over.status, 400);
    assert.deepEqual(over.body, { non_field_errors: ['Limit reached: there can be at most 20 emergency links per app user.'] });
  });
});
