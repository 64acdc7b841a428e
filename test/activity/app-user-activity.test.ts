// The owner's activity log (docs/activity.md): an event for each thing others do with an app
// user's data and for its shares' and links' life, none for the owner's own writes; reads at
// most once an hour per accessor, once between instances; newest first, paged; to the owner
// only (accessors 403, anyone else 404); gone with the app user. What comes through the web
// client is `via` web.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ReadLedger } from '../../src/activity/read-ledger.ts';
import { create, createOwner, createProfile, createTopic, type Owner } from '../app-data/fixtures.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { readPublic } from '../emergency/emergency-fixtures.ts';
import { insertAccessor, uploadPicture } from '../sharing/sharing-fixtures.ts';

interface Event {
  id: number;
  at: string;
  actor: { kind: string; id: number | null; name: string | null } | null;
  action: string;
  object: {
    type: string;
    id: number | null;
    name: string | null;
    parent?: { type: string; id: number; name: string | null };
    changes?: Record<string, unknown>;
  } | null;
  via: string | null;
}

describe('the activity log of an app user', () => {
  let server: TestServer;
  let owner: Owner;
  let writer: Owner;
  let reader: Owner;
  let stranger: Owner;
  let profileId: number;
  let topicId: number;

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server, { firstName: 'Olive' });
    writer = await createOwner(server, { firstName: 'Ben' });
    reader = await createOwner(server, { firstName: 'Ada' });
    stranger = await createOwner(server, { firstName: 'Sid' });
    profileId = (await createProfile(server, owner)).id;
    topicId = (await createTopic(server, owner, profileId, { name: 'Allergies' })).id;
    await insertAccessor(server, owner, writer.email, writer.id, { canWrite: true, privateAccess: true });
    await insertAccessor(server, owner, reader.email, reader.id);
  });
  after(() => server?.close());

  async function log(who: Owner = owner, query = ''): Promise<{ events: Event[]; next: string | null }> {
    const response = await server.request('GET', `/app/users/${owner.appUserId}/activity/${query}`, { token: who.token });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  async function eventsSince(id: number): Promise<Event[]> {
    return (await log()).events.filter((e) => e.id > id);
  }

  async function lastId(): Promise<number> {
    return (await log()).events[0]?.id ?? 0;
  }

  test("the owner's own writes are not events", async () => {
    const since = await lastId();
    const item = await create(server, owner.token, `/app/topics/${topicId}/items/`, {
      name: 'Nuts',
      list_content: { entries: [{ text: 'x' }] },
    });
    await server.request('PATCH', `/app/items/${item.id}/`, { token: owner.token, body: { name: 'Peanuts' } });
    await server.request('DELETE', `/app/items/${item.id}/`, { token: owner.token });
    await server.request('GET', `/app/users/${owner.appUserId}/profiles/`, { token: owner.token });
    assert.deepEqual(await eventsSince(since), []);
  });

  test("an accessor's create, update and delete are events with the object's name at that time", async () => {
    const since = await lastId();
    const item = await create(server, writer.token, `/app/topics/${topicId}/items/`, {
      name: 'Penicillin',
      list_content: { entries: [{ text: 'rash' }] },
    });
    const changed = await server.request('PATCH', `/app/items/${item.id}/`, { token: writer.token, body: { name: 'Amoxicillin' } });
    assert.equal(changed.status, 200, changed.text);
    const entry = await create(server, writer.token, `/app/items/${item.id}/list-entries/`, { text: 'hives' });
    // What holds it is named as it was then too.
    const renamed = await server.request('PATCH', `/app/items/${item.id}/`, { token: owner.token, body: { name: 'Antibiotics' } });
    assert.equal(renamed.status, 200, renamed.text);
    const removed = await server.request('DELETE', `/app/items/${item.id}/`, { token: writer.token });
    assert.equal(removed.status, 204, removed.text);
    const events = (await eventsSince(since)).filter((e) => e.action !== 'read');
    const seen = events.map((e) => [e.action, e.object?.type, e.object?.id, e.object?.name, e.object?.parent]).reverse();
    const allergies = { type: 'topic', id: topicId, name: 'Allergies' };
    assert.deepEqual(seen, [
      ['created', 'item', item.id, 'Penicillin', allergies],
      ['updated', 'item', item.id, 'Amoxicillin', allergies],
      ['created', 'list_entry', entry.id, 'hives', { type: 'item', id: item.id, name: 'Amoxicillin' }],
      ['deleted', 'item', item.id, 'Antibiotics', allergies],
    ]);
    // The same with an Idempotency-Key, which PostgreSQL does not gather into its list-item function.
    const keyed = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: writer.token,
      headers: { 'idempotency-key': `parent-${since}` },
      body: { name: 'Latex', list_content: { entries: [] } },
    });
    assert.equal(keyed.status, 201, keyed.text);
    const [latest] = (await eventsSince(since)).filter((e) => e.action === 'created');
    assert.deepEqual(latest!.object, { type: 'item', id: keyed.body.id, name: 'Latex', parent: allergies });
    for (const event of events) {
      assert.deepEqual(event.actor, { kind: 'accessor', id: writer.id, name: 'Ben Lovelace' });
      assert.equal(event.via, 'api');
      assert.ok(!Number.isNaN(Date.parse(event.at)));
    }
  });

  test("an accessor's creates of every kind name what they made", async () => {
    const since = await lastId();
    const base = `/app/users/${owner.appUserId}`;
    const made = [
      ['profile', await create(server, writer.token, `${base}/profiles/`, { name: 'Grandma' })],
      ['emergency_item', await create(server, writer.token, `${base}/emergency-items/`, { name: 'Insulin' })],
      [
        'emergency_contact',
        await create(server, writer.token, `${base}/emergency-contacts/`, { name: 'Dr Who', phone_number: '123456789' }),
      ],
      ['media_resource', { id: await uploadPicture(server, { ...owner, token: writer.token }, 'Scan'), name: 'Scan' }],
    ] as const;
    const topic = await create(server, writer.token, `/app/profiles/${made[0][1].id}/topics/`, { name: 'Medicines', topic_type: 3 });
    const events = (await eventsSince(since)).filter((e) => e.action === 'created').reverse();
    assert.deepEqual(
      events.map((e) => [e.object?.type, e.object?.id, e.object?.name]),
      [...made.map(([type, object]) => [type, object.id, object.name]), ['topic', topic.id, 'Medicines']],
    );
    // A topic is placed in its profile; what the app user holds outside profiles is not placed.
    assert.deepEqual(events.at(-1)!.object!.parent, { type: 'profile', id: made[0][1].id, name: 'Grandma' });
    for (const event of events.slice(0, -1)) assert.equal(event.object!.parent, undefined, event.object!.type);
  });

  test("an accessor's reads are one event an hour, whatever they read in it", async () => {
    const since = await lastId();
    for (let i = 0; i < 3; i++) {
      const response = await server.request('GET', `/app/users/${owner.appUserId}/profiles/`, { token: reader.token });
      assert.equal(response.status, 200, response.text);
      assert.equal((await server.request('GET', `/app/topics/${topicId}/`, { token: reader.token })).status, 200);
    }
    let reads = (await eventsSince(since)).filter((e) => e.action === 'read');
    assert.equal(reads.length, 1);
    assert.equal(reads[0]!.actor?.kind, 'accessor');
    assert.equal(reads[0]!.actor?.id, reader.id);
    assert.match(reads[0]!.actor?.name ?? '', /^Ada/);
    assert.equal(reads[0]!.object, null);
    server.clock.advance(3_600_000);
    await server.request('GET', `/app/users/${owner.appUserId}/profiles/`, { token: reader.token });
    reads = (await eventsSince(since)).filter((e) => e.action === 'read');
    assert.equal(reads.length, 2, 'a read in the next hour is an event again');
  });

  test('through the web client (Sec-Fetch-Site: same-origin) they are via web: reads, writes, links, their views', async () => {
    server.clock.advance(3_600_000);
    const since = await lastId();
    const web = { 'sec-fetch-site': 'same-origin' };
    const call = async (method: 'GET' | 'POST' | 'PATCH', path: string, token: string, body: unknown, headers: Record<string, string>) => {
      const response = await server.request(method, path, { token, body, headers });
      assert.ok(response.status === 200 || response.status === 201, `${method} ${path}: ${response.text}`);
      return response.body;
    };
    await call('GET', `/app/topics/${topicId}/`, reader.token, undefined, web);
    const item = await call('POST', `/app/topics/${topicId}/items/`, writer.token, { name: 'Latex', list_content: { entries: [] } }, web);
    // A page of another site of the same company's is not this service's web client.
    await call('PATCH', `/app/items/${item.id}/`, writer.token, { name: 'Latex gloves' }, { 'sec-fetch-site': 'same-site' });
    const link = await call('POST', `/app/users/${owner.appUserId}/emergency-links/`, owner.token, {}, web);
    const token = /\/emergency\/([^/]+)$/.exec(link.link)?.[1];
    assert.ok(token, link.link);
    const view = await readPublic(server, token, web);
    assert.equal(view.status, 200, view.text);
    const events = (await eventsSince(since)).reverse();
    assert.deepEqual(
      events.map((e) => [e.action, e.actor?.kind, e.via]),
      [
        ['read', 'accessor', 'web'],
        ['created', 'accessor', 'web'],
        ['updated', 'accessor', 'api'],
        ['created', 'owner', 'web'],
        ['viewed', 'emergency_link', 'web'],
      ],
    );
  });

  test('two instances that each take a read as the first of its hour record it once', async () => {
    const since = await lastId();
    server.clock.advance(3_600_000);
    const db = server.server.ctx.db;
    const a = new ReadLedger(db, server.clock);
    const b = new ReadLedger(db, server.clock);
    const of = { appUserId: owner.appUserId, ownerAccountId: owner.id };
    await Promise.all([a.note(reader.id, of, 'api'), b.note(reader.id, of, 'api')]);
    await a.note(reader.id, of, 'api');
    await b.note(reader.id, of, 'api');
    const reads = (await eventsSince(since)).filter((e) => e.action === 'read');
    assert.equal(reads.length, 1);
  });

  test('a read of an app user deleted meanwhile goes unrecorded, and the read is not failed by it', async () => {
    const ledger = new ReadLedger(server.server.ctx.db, server.clock);
    await ledger.note(reader.id, { appUserId: 999_999_999, ownerAccountId: owner.id }, 'api');
    const gone = await server.server.ctx.db.kysely
      .selectFrom('activity_events')
      .select('id')
      .where('app_user_id', '=', 999_999_999)
      .execute();
    assert.equal(gone.length, 0);
  });

  test("the log is the owner's only: an accessor gets 403, anyone else 404", async () => {
    for (const [who, status] of [
      [reader, 403],
      [writer, 403],
      [stranger, 404],
    ] as const) {
      const response = await server.request('GET', `/app/users/${owner.appUserId}/activity/`, { token: who.token });
      assert.equal(response.status, status, response.text);
    }
    assert.equal((await server.request('GET', `/app/users/${owner.appUserId}/activity/`)).status, 401);
    assert.equal((await server.request('GET', `/app/users/${owner.appUserId}/activity/?before=abc`, { token: owner.token })).status, 400);
    // The accessor's own activity is in the owner's log, not in theirs.
    const theirs = await server.request('GET', `/app/users/${reader.appUserId}/activity/`, { token: reader.token });
    assert.equal(theirs.status, 200);
    assert.deepEqual(theirs.body.events, []);
  });

  test('newest first, 100 to a page, with the URL of the next', async () => {
    const other = await createOwner(server, { firstName: 'Pat' });
    const helper = await createOwner(server, { firstName: 'Hal' });
    await insertAccessor(server, other, helper.email, helper.id, { canWrite: true });
    const profile = await create(server, other.token, `/app/users/${other.appUserId}/profiles/`, { name: 'Home' });
    const topic = await create(server, other.token, `/app/profiles/${profile.id}/topics/`, { name: 'Notes', topic_type: 3 });
    const item = await create(server, helper.token, `/app/topics/${topic.id}/items/`, { name: 'List', list_content: { entries: [] } });
    for (let i = 0; i < 104; i++) await create(server, helper.token, `/app/items/${item.id}/list-entries/`, { text: `entry ${i}` });
    const first = await server.request('GET', `/app/users/${other.appUserId}/activity/`, { token: other.token });
    assert.equal(first.status, 200);
    assert.equal(first.body.events.length, 100);
    const ids = first.body.events.map((e: Event) => e.id);
    assert.deepEqual(
      ids,
      [...ids].sort((x, y) => y - x),
    );
    assert.equal(first.body.events[0].object.name, 'entry 103');
    assert.ok(first.body.next);
    const next = new URL(first.body.next);
    assert.equal(next.pathname, `/app/users/${other.appUserId}/activity/`);
    const second = await server.request('GET', next.pathname + next.search, { token: other.token });
    assert.equal(second.status, 200);
    // 104 entries, the item, and one read (the item's create locates its topic: a write, not a read).
    const rest = second.body.events as Event[];
    assert.equal(second.body.next, null);
    assert.ok(rest.every((e) => e.id < ids[ids.length - 1]));
    assert.equal(100 + rest.length, await countEvents(other.appUserId));
  });

  async function countEvents(appUserId: number): Promise<number> {
    const rows = await server.server.ctx.db.kysely
      .selectFrom('activity_events')
      .select('id')
      .where('app_user_id', '=', appUserId)
      .execute();
    return rows.length;
  }

  test('accessors and emergency links over their life are events', async () => {
    const since = await lastId();
    const invited = await server.request('POST', `/app/users/${owner.appUserId}/accessors/`, {
      token: owner.token,
      body: { email: stranger.email },
    });
    assert.equal(invited.status, 201, invited.text);
    const accessorId = invited.body.id;
    assert.equal(
      (await server.request('PATCH', `/app/accessors/${accessorId}/`, { token: owner.token, body: { can_write: true } })).status,
      200,
    );
    assert.equal((await server.request('POST', `/app/accessors/${accessorId}/accept/`, { token: stranger.token })).status, 200);
    assert.equal((await server.request('DELETE', `/app/accessors/${accessorId}/`, { token: stranger.token })).status, 204);
    const again = await server.request('POST', `/app/users/${owner.appUserId}/accessors/`, {
      token: owner.token,
      body: { email: stranger.email },
    });
    assert.equal((await server.request('DELETE', `/app/accessors/${again.body.id}/`, { token: stranger.token })).status, 204);
    const third = await server.request('POST', `/app/users/${owner.appUserId}/accessors/`, {
      token: owner.token,
      body: { email: 'x@example.com' },
    });
    assert.equal((await server.request('DELETE', `/app/accessors/${third.body.id}/`, { token: owner.token })).status, 204);

    const link = await server.request('POST', `/app/users/${owner.appUserId}/emergency-links/`, {
      token: owner.token,
      body: { label: 'Wallet card' },
    });
    assert.equal(link.status, 201, link.text);
    const token = new URL(link.body.link).pathname.split('/').filter(Boolean).pop();
    const phone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';
    assert.equal((await server.request('GET', `/public/emergency/${token}/`, { headers: { 'user-agent': phone } })).status, 200);
    assert.equal(
      (await server.request('PATCH', `/app/emergency-links/${link.body.id}/`, { token: owner.token, body: { label: 'Card' } })).status,
      200,
    );
    // A PATCH naming nothing changes nothing, and is no event.
    assert.equal((await server.request('PATCH', `/app/emergency-links/${link.body.id}/`, { token: owner.token, body: {} })).status, 200);
    assert.equal((await server.request('DELETE', `/app/emergency-links/${link.body.id}/`, { token: owner.token })).status, 204);

    const events = (await eventsSince(since)).reverse();
    const seen = events.map((e) => [e.actor?.kind ?? null, e.action, e.object?.type ?? null]);
    assert.deepEqual(seen, [
      ['owner', 'invited', 'accessor'],
      ['owner', 'changed', 'accessor'],
      ['accessor', 'accepted', 'accessor'],
      ['accessor', 'left', 'accessor'],
      ['owner', 'invited', 'accessor'],
      ['accessor', 'declined', 'accessor'],
      ['owner', 'invited', 'accessor'],
      ['owner', 'revoked', 'accessor'],
      ['owner', 'created', 'emergency_link'],
      ['emergency_link', 'viewed', 'emergency_link_view'],
      ['owner', 'changed', 'emergency_link'],
      ['owner', 'revoked', 'emergency_link'],
    ]);
    assert.equal(events[0]!.object?.name, stranger.email);
    assert.deepEqual(events[9]!.actor, { kind: 'emergency_link', id: link.body.id, name: 'Wallet card' });
    // What opened it, as the link's views list says.
    assert.deepEqual(events[9]!.object, { type: 'emergency_link_view', id: null, name: null, ip_address: '127.0.0.1', user_agent: phone });
    assert.equal(events[11]!.object?.name, 'Card');
  });

  test("the owner's change of a share or a link says what it changed, with the new values", async () => {
    const since = await lastId();
    const invited = await server.request('POST', `/app/users/${owner.appUserId}/accessors/`, {
      token: owner.token,
      body: { email: 'changes@example.com' },
    });
    assert.equal(invited.status, 201, invited.text);
    const accessor = `/app/accessors/${invited.body.id}/`;
    const end = new Date(server.clock.now() + 86_400_000).toISOString();
    const patch = async (path: string, body: unknown) => {
      const response = await server.request('PATCH', path, { token: owner.token, body });
      assert.equal(response.status, 200, response.text);
    };
    await patch(accessor, { can_write: true, expires_at: end, profiles: [profileId] });
    await patch(accessor, { can_write: true, has_private_profile_access: false });
    await patch(accessor, { profiles: null, has_private_profile_access: true, expires_at: null });

    const link = await server.request('POST', `/app/users/${owner.appUserId}/emergency-links/`, {
      token: owner.token,
      body: { label: 'Wallet card' },
    });
    assert.equal(link.status, 201, link.text);
    const path = `/app/emergency-links/${link.body.id}/`;
    await patch(path, { label: 'Card', pin: '482913', emergency_items: [], emergency_contacts: null });
    await patch(path, { label: 'Card', pin: null, emergency_items: null });

    const changed = (await eventsSince(since)).filter((e) => e.action === 'changed').reverse();
    assert.deepEqual(
      changed.map((e) => [e.object?.type, e.object?.changes]),
      [
        ['accessor', { can_write: true, expires_at: end, profiles: 1 }],
        ['accessor', undefined],
        ['accessor', { has_private_profile_access: true, expires_at: null, profiles: null }],
        ['emergency_link', { label: 'Card', pin: true, emergency_items: 0 }],
        ['emergency_link', { pin: false, emergency_items: null }],
      ],
      'only what differs; a PATCH that changes nothing says nothing',
    );
  });

  test("a link's end date is an expiry in the log, by the service at that time, once; a later end date is recorded again", async () => {
    const MINUTE = 60_000;
    // The pass runs when the test says (runOnce), not on its timer.
    await server.server.linkExpiry.stop();
    const since = await lastId();
    const end = server.clock.now() + MINUTE;
    const link = await server.request('POST', `/app/users/${owner.appUserId}/emergency-links/`, {
      token: owner.token,
      body: { label: 'Bracelet', expires_at: new Date(end).toISOString() },
    });
    assert.equal(link.status, 201, link.text);
    assert.equal(await server.server.linkExpiry.runOnce(), 0, 'not before its end');
    server.clock.advance(MINUTE);
    assert.equal(await server.server.linkExpiry.runOnce(), 1);
    assert.equal(await server.server.linkExpiry.runOnce(), 0, 'recorded once');
    const expired = (await eventsSince(since)).filter((e) => e.action === 'expired');
    assert.equal(expired.length, 1);
    assert.equal(expired[0]!.actor, null, 'ended by the service, not by someone');
    assert.deepEqual(expired[0]!.object, { type: 'emergency_link', id: link.body.id, name: 'Bracelet' });
    assert.equal(expired[0]!.at, new Date(end).toISOString(), 'at its end date');

    const later = server.clock.now() + MINUTE;
    const patched = await server.request('PATCH', `/app/emergency-links/${link.body.id}/`, {
      token: owner.token,
      body: { expires_at: new Date(later).toISOString() },
    });
    assert.equal(patched.status, 200, patched.text);
    server.clock.advance(MINUTE);
    assert.equal(await server.server.linkExpiry.runOnce(), 1, 'its next end is recorded too');
    assert.equal((await eventsSince(since)).filter((e) => e.action === 'expired').length, 2);
    // Nothing to record for a link revoked before its end.
    const revoked = await server.request('POST', `/app/users/${owner.appUserId}/emergency-links/`, {
      token: owner.token,
      body: { label: 'Old card', expires_at: new Date(server.clock.now() + MINUTE).toISOString() },
    });
    assert.equal((await server.request('DELETE', `/app/emergency-links/${revoked.body.id}/`, { token: owner.token })).status, 204);
    server.clock.advance(MINUTE);
    assert.equal(await server.server.linkExpiry.runOnce(), 0);
  });

  test('deleting the app user deletes its events', async () => {
    const gone = await createOwner(server);
    const helper = await createOwner(server);
    await insertAccessor(server, gone, helper.email, helper.id);
    assert.equal((await server.request('GET', `/app/users/${gone.appUserId}/`, { token: helper.token })).status, 200);
    assert.equal(await countEvents(gone.appUserId), 1);
    const deleted = await server.request('DELETE', `/app/users/${gone.appUserId}/`, { token: gone.token });
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal(await countEvents(gone.appUserId), 0);
  });
});

describe('the hourly read rule on two instances of one database', {
  skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)',
}, () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    a = await startTestServer();
    b = await startTestServer({ DATABASE_URL: a.server.ctx.config.databaseUrl });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  test("an accessor's reads through both instances in one hour are one event; the next hour's another", async () => {
    const owner = await createOwner(a, { firstName: 'Olive' });
    const reader = await createOwner(a, { firstName: 'Ada' });
    await insertAccessor(a, owner, reader.email, reader.id);
    const path = `/app/users/${owner.appUserId}/profiles/`;
    const reads = async () => {
      const log = await a.request('GET', `/app/users/${owner.appUserId}/activity/`, { token: owner.token });
      assert.equal(log.status, 200, log.text);
      return log.body.events.filter((e: Event) => e.action === 'read').length;
    };
    await Promise.all([a.request('GET', path, { token: reader.token }), b.request('GET', path, { token: reader.token })]);
    for (const server of [a, b, a, b]) assert.equal((await server.request('GET', path, { token: reader.token })).status, 200);
    assert.equal(await reads(), 1);
    a.clock.advance(3_600_000);
    b.clock.advance(3_600_000);
    for (const server of [b, a]) assert.equal((await server.request('GET', path, { token: reader.token })).status, 200);
    assert.equal(await reads(), 2);
  });
});

describe('a read answered from the rendering cache', () => {
  let server: TestServer;
  // Signed file URLs of 70 minutes change step at :05, :20, :35 and :50: a rendering made at
  // :59 is still current at :01 of the next hour.
  before(async () => {
    server = await startTestServer({ MEDIA_URL_TTL: '70m' });
  });
  after(() => server?.close());

  test("is a read in the owner's log once in a new hour, like any other", async () => {
    const owner = await createOwner(server);
    const reader = await createOwner(server);
    const profileId = (await createProfile(server, owner)).id;
    await insertAccessor(server, owner, reader.email, reader.id);
    const now = server.clock.now();
    let minute59 = Math.ceil(now / 3_600_000) * 3_600_000 - 60_000;
    if (minute59 <= now) minute59 += 3_600_000;
    server.clock.advance(minute59 - now);

    const path = `/app/profiles/${profileId}/`;
    assert.equal((await server.request('GET', path, { token: reader.token })).status, 200);
    server.clock.advance(120_000);
    const counts = server.server.ctx.cacheCounts.get('rendering')!;
    const hits = counts.hits;
    assert.equal((await server.request('GET', path, { token: reader.token })).status, 200);
    assert.equal(counts.hits, hits + 1, 'the second read is served from the rendering cache');

    const log = await server.request('GET', `/app/users/${owner.appUserId}/activity/`, { token: owner.token });
    assert.equal(log.status, 200, log.text);
    const reads = (log.body.events as Event[]).filter((e) => e.action === 'read');
    assert.deepEqual(
      reads.map((e) => e.actor?.id),
      [reader.id, reader.id],
      'one read in each hour',
    );
  });
});
