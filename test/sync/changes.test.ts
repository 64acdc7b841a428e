// GET /app/users/{id}/changes/ (docs/offline-and-live.md): pages of upserts and deletes in commit order,
// that bring a full read taken at a cursor to a full read taken now.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOwner, createListItem, createProfile, createTopic, insertMedia, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { applyChanges, changesSince, currentCursor, fullRead } from './sync-fixtures.ts';

const DAY_MS = 86_400_000;

describe('changes since a cursor', () => {
  let server: TestServer;
  before(async () => {
    // Tokens that never expire from idleness: the retention test moves the clock a month.
    server = await startTestServer({ TOKEN_IDLE_TTL: '0' });
  });
  after(() => server.close());

  const changesPath = (owner: Owner, since?: string) =>
    `/app/users/${owner.appUserId}/changes/${since === undefined ? '' : `?since=${encodeURIComponent(since)}`}`;

  test('without since: the current cursor and no changes; with it, every write in commit order with its parent', async () => {
    const owner = await createOwner(server);
    const start = await currentCursor(server, owner.token, owner.appUserId);
    assert.deepEqual((await changesSince(server, owner.token, owner.appUserId, start)).changes, []);

    const profile = await createProfile(server, owner, { name: 'Home' });
    const topic = await createTopic(server, owner, profile.id);
    const item = await createListItem(server, owner, topic.id, ['passport', 'charger']);
    const [first, second] = item.list_content.entries;
    const { changes, cursor } = await changesSince(server, owner.token, owner.appUserId, start);
    assert.deepEqual(
      changes.map((c) => [c.type, c.id, c.op]),
      [
        ['profile', profile.id, 'upsert'],
        ['topic', topic.id, 'upsert'],
        ['item', item.id, 'upsert'],
        ['list_entry', first.id, 'upsert'],
        ['list_entry', second.id, 'upsert'],
      ],
    );
    assert.deepEqual(changes[0]!.data, { ...profile, parent: { type: 'app_user', id: owner.appUserId } });
    const { items: _items, ...plainTopic } = topic;
    assert.deepEqual(changes[1]!.data, { ...plainTopic, parent: { type: 'profile', id: profile.id } });
    assert.deepEqual(changes[2]!.data, { ...item, list_content: { id: item.list_content.id }, parent: { type: 'topic', id: topic.id } });
    assert.deepEqual(changes[3]!.data, { ...first, parent: { type: 'item', id: item.id } });
    assert.deepEqual((await changesSince(server, owner.token, owner.appUserId, cursor)).changes, [], 'nothing after the last cursor');
  });

  test('an object changed twice is sent once, as it is now; deletes are tombstones; a delete takes what it holds', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const item = await createListItem(server, owner, topic.id, ['a', 'b']);
    const taken = await fullRead(server, owner.token, owner.appUserId);
    const start = await currentCursor(server, owner.token, owner.appUserId);

    for (const name of ['Work', 'Office']) {
      assert.equal((await server.request('PATCH', `/app/profiles/${profile.id}/`, { token: owner.token, body: { name } })).status, 200);
    }
    const entry = item.list_content.entries[0];
    assert.equal((await server.request('DELETE', `/app/list-entries/${entry.id}/`, { token: owner.token })).status, 204);
    const { changes } = await changesSince(server, owner.token, owner.appUserId, start);
    assert.deepEqual(
      changes.map((c) => [c.type, c.id, c.op, c.data?.name]),
      [
        ['profile', profile.id, 'upsert', 'Office'],
        ['list_entry', entry.id, 'delete', undefined],
      ],
    );
    assert.deepEqual(applyChanges(taken, changes), await fullRead(server, owner.token, owner.appUserId));

    const before = await currentCursor(server, owner.token, owner.appUserId);
    assert.equal((await server.request('DELETE', `/app/profiles/${profile.id}/`, { token: owner.token })).status, 204);
    const deleted = await changesSince(server, owner.token, owner.appUserId, before);
    assert.deepEqual(deleted.changes, [{ type: 'profile', id: profile.id, op: 'delete' }], 'what the profile held goes with it');
  });

  test('everything an app user holds is logged: emergency data, media (a rename reaches the items showing it), the app user', async () => {
    const owner = await createOwner(server);
    const taken = await fullRead(server, owner.token, owner.appUserId);
    const start = await currentCursor(server, owner.token, owner.appUserId);
    const media = await insertMedia(server, owner, 'scan.png');
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const picture = await server.request('POST', `/app/topics/${topic.id}/items/`, {
      token: owner.token,
      body: { name: 'Scan', image_content: { description: 'x', image_resource: media } },
    });
    assert.equal(picture.status, 201, picture.text);
    const contact = await server.request('POST', `/app/users/${owner.appUserId}/emergency-contacts/`, {
      token: owner.token,
      body: { name: 'Mum', phone_number: '0123456789' },
    });
    assert.equal(contact.status, 201);
    const emergency = await server.request('POST', `/app/users/${owner.appUserId}/emergency-items/`, {
      token: owner.token,
      body: { name: 'Allergies', description: 'Peanuts', media_resource: media },
    });
    assert.equal(emergency.status, 201, emergency.text);
    assert.equal(
      (await server.request('PATCH', `/app/users/${owner.appUserId}/`, { token: owner.token, body: { quote: 'Hello' } })).status,
      200,
    );
    const middle = await currentCursor(server, owner.token, owner.appUserId);
    const renamed = await server.request('PATCH', `/app/media-resources/${media}/`, { token: owner.token, body: { name: 'renamed.png' } });
    assert.equal(renamed.status, 200, renamed.text);

    const afterRename = await changesSince(server, owner.token, owner.appUserId, middle);
    assert.deepEqual(
      afterRename.changes.map((c) => [c.type, c.id]).sort(),
      [
        ['emergency_item', emergency.body.id],
        ['item', picture.body.id],
        ['media_resource', media],
      ].sort(),
    );
    const all = await changesSince(server, owner.token, owner.appUserId, start);
    assert.deepEqual(applyChanges(taken, all.changes), await fullRead(server, owner.token, owner.appUserId));

    const removed = await currentCursor(server, owner.token, owner.appUserId);
    assert.equal((await server.request('DELETE', `/app/media-resources/${media}/`, { token: owner.token })).status, 204);
    const afterRemove = await changesSince(server, owner.token, owner.appUserId, removed);
    assert.deepEqual(
      afterRemove.changes.map((c) => [c.type, c.id, c.op]).sort(),
      [
        ['emergency_item', emergency.body.id, 'upsert'],
        ['item', picture.body.id, 'upsert'],
        ['media_resource', media, 'delete'],
      ].sort(),
      'the items that showed it lose it',
    );
    assert.equal(afterRemove.changes.find((c) => c.type === 'item')?.data?.image_content.image_resource, null);
  });

  test('a list item create is logged once: the item, then each entry, also for creates that arrive together', async () => {
    const owner = await createOwner(server);
    const topic = await createTopic(server, owner, (await createProfile(server, owner)).id);
    const start = await server.server.ctx.db.kysely
      .selectFrom('changes')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    // Sent in one turn: on PostgreSQL they reach the database as one call of create_list_items.
    const items = await Promise.all(
      [['a'], ['b', 'c'], [], ['d', 'e', 'f']].map((texts) => createListItem(server, owner, topic.id, texts)),
    );
    const entry = await server.request('POST', `/app/items/${items[0].id}/list-entries/`, { token: owner.token, body: { text: 'g' } });
    assert.equal(entry.status, 201, entry.text);

    const rows = await server.server.ctx.db.kysely
      .selectFrom('changes')
      .select(['type', 'object_id', 'op', 'account_id'])
      .where('app_user_id', '=', owner.appUserId)
      .where('id', '>', Number(start.id))
      .orderBy('id')
      .execute();
    const logged = rows.map((row) => [row.type, row.object_id, row.op, row.account_id]);
    const created = items
      .slice()
      .sort((a, b) => a.id - b.id)
      .flatMap((item) => [
        ['item', item.id, 'upsert', owner.id],
        ...item.list_content.entries.map((e: { id: number }) => ['list_entry', e.id, 'upsert', owner.id]),
      ]);
    assert.deepEqual(logged, [...created, ['list_entry', entry.body.id, 'upsert', owner.id]]);
  });

  test("an app user's changes go with it; a new app user of the same account starts afresh", async () => {
    const owner = await createOwner(server);
    await createProfile(server, owner);
    const logged = () =>
      server.server.ctx.db.kysely.selectFrom('changes').select('id').where('app_user_id', '=', owner.appUserId).execute();
    assert.ok((await logged()).length >= 2);
    const old = await currentCursor(server, owner.token, owner.appUserId);
    assert.equal((await server.request('DELETE', `/app/users/${owner.appUserId}/`, { token: owner.token })).status, 204);
    assert.deepEqual(await logged(), []);
    const again = await server.request('POST', '/app/users/', { token: owner.token, body: {} });
    assert.equal(again.status, 201, again.text);
    const stale = await server.request('GET', `/app/users/${again.body.id}/changes/?since=${old}`, { token: owner.token });
    assert.equal(stale.status, 410, "the old app user's cursor, though the account is the same");
    const fresh = await server.server.ctx.db.kysely.selectFrom('changes').select('type').where('app_user_id', '=', again.body.id).execute();
    assert.deepEqual(
      fresh.map((row) => row.type),
      ['app_user'],
      'nothing of the old one',
    );
  });

  test('pages of at most 500, following has_more, in order', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const start = await currentCursor(server, owner.token, owner.appUserId);
    const texts = Array.from({ length: 700 }, (_, i) => `entry ${i}`);
    const item = await createListItem(server, owner, topic.id, texts);
    const first = await server.request('GET', changesPath(owner, start), { token: owner.token });
    assert.equal(first.status, 200);
    assert.equal(first.body.changes.length, 500);
    assert.equal(first.body.has_more, true);
    const { changes, pages } = await changesSince(server, owner.token, owner.appUserId, start);
    assert.equal(pages, 2);
    assert.equal(changes.length, 701);
    assert.deepEqual(
      changes.slice(1).map((c) => c.id),
      item.list_content.entries.map((e: { id: number }) => e.id),
    );
  });

  test('410 for a cursor not recognised or past the retention; 404 and 401 as everywhere', async () => {
    const owner = await createOwner(server);
    const cursor = await currentCursor(server, owner.token, owner.appUserId);
    for (const since of ['', 'abc', '12', '12.o', `-1.o`, `${cursor}.x`, `x${cursor}`, cursor.repeat(2)]) {
      const response = await server.request('GET', changesPath(owner, since), { token: owner.token });
      assert.equal(response.status, 410, `since=${since}: ${response.text}`);
      assert.match(response.body.detail, /read everything again/);
    }
    const stranger = await createOwner(server);
    assert.equal((await server.request('GET', changesPath(owner), { token: stranger.token })).status, 404);
    assert.equal((await server.request('GET', changesPath(owner))).status, 401);
    const junk = await server.request('GET', `/app/users/%20/changes/?since=${cursor}&other=1`, { token: owner.token });
    assert.equal(junk.status, 404, 'a junk id is 404, whatever the query says');

    await createProfile(server, owner);
    server.clock.advance(31 * DAY_MS);
    await server.server.sweeper.runOnce();
    const expired = await server.request('GET', changesPath(owner, cursor), { token: owner.token });
    assert.equal(expired.status, 410, expired.text);
    const fresh = await currentCursor(server, owner.token, owner.appUserId);
    assert.equal((await server.request('GET', changesPath(owner, fresh), { token: owner.token })).status, 200, 'a fresh cursor works');
  });
});
