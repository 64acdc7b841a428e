// Change cursors (GET …/changes/ and the live stream's event ids) are opaque: sealed to the app
// user and the view they were read with, so a cursor says nothing of the service's change log
// (where the owner wrote to profiles an accessor may not see, how fast anyone writes), and one
// for another app user, another view, altered, or in the old readable form is 410.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOwner, createProfile, createTopic, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertAccessor } from '../sharing/sharing-fixtures.ts';
import { nextEvents, openStream } from './event-reader.ts';
import { changesSince, currentCursor } from './sync-fixtures.ts';

const changesPath = (appUserId: number, since: string) => `/app/users/${appUserId}/changes/?since=${encodeURIComponent(since)}`;

/** The cursor with one character of its sealed part changed. */
function tampered(cursor: string): string {
  const at = cursor.length - 20;
  return cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
}

describe('change cursors', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function sinceStatus(caller: Owner, appUserId: number, since: string): Promise<number> {
    const response = await server.request('GET', changesPath(appUserId, since), { token: caller.token });
    if (response.status === 410) assert.match(response.body.detail, /read everything again/);
    return response.status;
  }

  async function newestChangeId(appUserId: number): Promise<number> {
    const row = await server.server.ctx.db.kysely
      .selectFrom('changes')
      .select('id')
      .where('app_user_id', '=', appUserId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  test("another app user's cursor is 410, even for a caller who may read both", async () => {
    const first = await createOwner(server);
    const second = await createOwner(server);
    const reader = await createOwner(server);
    await insertAccessor(server, first, reader.email, reader.id);
    await insertAccessor(server, second, reader.email, reader.id);
    const ofFirst = await currentCursor(server, reader.token, first.appUserId);
    // The second app user's log goes past the first's cursor: a bare position would fit it.
    await createProfile(server, second);
    assert.equal(await sinceStatus(reader, second.appUserId, ofFirst), 410);
    assert.equal(await sinceStatus(reader, first.appUserId, ofFirst), 200);

    const ownFirst = await currentCursor(server, first.token, first.appUserId);
    await createProfile(server, second);
    assert.equal(await sinceStatus(second, second.appUserId, ownFirst), 410, "the owner's cursor of another owner's app user");
  });

  test("another view's cursor is 410: the owner's for an accessor, and the other way round", async () => {
    const owner = await createOwner(server);
    const reader = await createOwner(server);
    await insertAccessor(server, owner, reader.email, reader.id);
    const ownerCursor = await currentCursor(server, owner.token, owner.appUserId);
    const readerCursor = await currentCursor(server, reader.token, owner.appUserId);
    assert.equal(await sinceStatus(reader, owner.appUserId, ownerCursor), 410);
    assert.equal(await sinceStatus(owner, owner.appUserId, readerCursor), 410);
    assert.equal(
      (await openStream(server, `/app/users/${owner.appUserId}/events/`, reader.token, ownerCursor)).status,
      410,
      'as Last-Event-ID too',
    );
  });

  test('an altered cursor, or one in the old readable form (<change id>.<view>), is 410', async () => {
    const owner = await createOwner(server);
    const cursor = await currentCursor(server, owner.token, owner.appUserId);
    assert.equal(await sinceStatus(owner, owner.appUserId, tampered(cursor)), 410);
    const newest = await newestChangeId(owner.appUserId);
    assert.equal(await sinceStatus(owner, owner.appUserId, `${newest}.o`), 410);
    assert.equal(
      (await openStream(server, `/app/users/${owner.appUserId}/events/`, owner.token, tampered(cursor))).status,
      410,
      'as Last-Event-ID too',
    );
    assert.equal(await sinceStatus(owner, owner.appUserId, cursor), 200);
  });

  test("an accessor's cursors say nothing of writes they may not see", async () => {
    const owner = await createOwner(server);
    const reader = await createOwner(server);
    await insertAccessor(server, owner, reader.email, reader.id, { privateAccess: false });
    const hidden = await createProfile(server, owner, { name: 'Diary', is_private: true });

    const before = await currentCursor(server, reader.token, owner.appUserId);
    const again = await currentCursor(server, reader.token, owner.appUserId);
    assert.notEqual(before, again, 'two cursors at the same place differ, as two around a write do');

    for (let i = 0; i < 3; i += 1) await createTopic(server, owner, hidden.id, { name: `Secret ${i}` });
    const page = await changesSince(server, reader.token, owner.appUserId, before);
    assert.deepEqual(page.changes, []);
    const after = await currentCursor(server, reader.token, owner.appUserId);

    const newest = await newestChangeId(owner.appUserId);
    for (const cursor of [before, again, page.cursor, after]) {
      assert.doesNotMatch(cursor, /^\d+\./, 'no change id in the clear');
      assert.equal(cursor.length, before.length, 'every cursor the same length, wherever it stands');
    }
    assert.ok(!after.includes(`${newest}.`));
    // Each still works, and from either side of the private writes nothing is sent.
    for (const cursor of [before, again, page.cursor, after]) {
      assert.deepEqual((await changesSince(server, reader.token, owner.appUserId, cursor)).changes, []);
    }
  });

  test("an accessor's stream resumes from its Last-Event-ID past private writes: no gap, no repeat", async () => {
    const owner = await createOwner(server);
    const reader = await createOwner(server);
    await insertAccessor(server, owner, reader.email, reader.id, { privateAccess: false });
    const hidden = await createProfile(server, owner, { name: 'Diary', is_private: true });
    const path = `/app/users/${owner.appUserId}/events/`;
    const stream = await openStream(server, path, reader.token);
    const open = await createProfile(server, owner, { name: 'Open' });
    const [seen] = await nextEvents(stream, 1);
    assert.deepEqual(seen!.data, { type: 'profile', id: open.id, op: 'upsert' });
    stream.close();

    await createTopic(server, owner, hidden.id);
    const topic = await createTopic(server, owner, open.id);
    await createTopic(server, owner, hidden.id);
    const resumed = await openStream(server, path, reader.token, seen!.id);
    assert.equal(resumed.status, 200);
    const [missed] = await nextEvents(resumed, 1);
    assert.deepEqual(missed!.data, { type: 'topic', id: topic.id, op: 'upsert' });
    const later = await createTopic(server, owner, open.id, { name: 'Later' });
    assert.deepEqual((await nextEvents(resumed, 1))[0]!.data, { type: 'topic', id: later.id, op: 'upsert' }, 'nothing twice');
    resumed.close();
    const { changes } = await changesSince(server, reader.token, owner.appUserId, seen!.id!);
    assert.deepEqual(
      changes.map((c) => c.id),
      [topic.id, later.id],
    );
  });
});
