// The changes an accessor is sent (docs/sharing.md, docs/offline-and-live.md): only what they may see. For an accessor
// without private access a private profile does not exist: making one private reads as its
// deletion, making it public again sends it whole; access changed since a cursor is 410.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createListItem, createOwner, createProfile, createTopic } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { deleteAccessor, insertAccessor, setRights } from '../sharing/sharing-fixtures.ts';
import { applyChanges, changesSince, currentCursor, fullRead } from './sync-fixtures.ts';

describe('changes as an accessor sees them', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('a profile made private reads as a delete; made public again, it arrives whole; nothing under it leaks', async () => {
    const owner = await createOwner(server);
    const reader = await createOwner(server);
    await insertAccessor(server, owner, reader.email, reader.id, { canWrite: false, privateAccess: false });
    const profile = await createProfile(server, owner, { name: 'Family' });
    const topic = await createTopic(server, owner, profile.id);
    const item = await createListItem(server, owner, topic.id, ['x', 'y']);
    const hidden = await createProfile(server, owner, { name: 'Diary', is_private: true });
    const secretTopic = await createTopic(server, owner, hidden.id);

    const taken = await fullRead(server, reader.token, owner.appUserId);
    const start = await currentCursor(server, reader.token, owner.appUserId);
    const ownerStart = await currentCursor(server, owner.token, owner.appUserId);
    assert.equal(taken[`profile:${hidden.id}`], undefined);

    // Under the private profile: nothing reaches the reader, not even a deletion.
    await createListItem(server, owner, secretTopic.id, ['secret']);
    assert.equal(
      (await server.request('PATCH', `/app/topics/${secretTopic.id}/`, { token: owner.token, body: { name: 'Sec' } })).status,
      200,
    );
    assert.equal((await server.request('DELETE', `/app/topics/${secretTopic.id}/`, { token: owner.token })).status, 204);
    assert.deepEqual((await changesSince(server, reader.token, owner.appUserId, start)).changes, []);

    const closing = await server.request('PATCH', `/app/profiles/${profile.id}/`, { token: owner.token, body: { is_private: true } });
    assert.equal(closing.status, 200, closing.text);
    const closed = await changesSince(server, reader.token, owner.appUserId, start);
    assert.deepEqual(closed.changes, [{ type: 'profile', id: profile.id, op: 'delete' }]);
    assert.deepEqual(applyChanges(taken, closed.changes), await fullRead(server, reader.token, owner.appUserId));

    // While private, an entry changes; then it opens again: all of it arrives, as it is now.
    const entry = item.list_content.entries[0];
    assert.equal(
      (await server.request('PATCH', `/app/list-entries/${entry.id}/`, { token: owner.token, body: { text: 'z' } })).status,
      200,
    );
    assert.equal(
      (await server.request('PATCH', `/app/profiles/${profile.id}/`, { token: owner.token, body: { is_private: false } })).status,
      200,
    );
    const opened = await changesSince(server, reader.token, owner.appUserId, closed.cursor);
    assert.deepEqual(
      opened.changes.map((c) => `${c.type}:${c.id}:${c.op}`).sort(),
      [
        `profile:${profile.id}`,
        `topic:${topic.id}`,
        `item:${item.id}`,
        ...item.list_content.entries.map((e: { id: number }) => `list_entry:${e.id}`),
      ]
        .map((k) => `${k}:upsert`)
        .sort(),
    );
    const now = await fullRead(server, reader.token, owner.appUserId);
    assert.deepEqual(applyChanges(applyChanges(taken, closed.changes), opened.changes), now);
    assert.deepEqual(
      applyChanges(taken, (await changesSince(server, reader.token, owner.appUserId, start)).changes),
      now,
      'from the start too',
    );

    // The owner sees every change, the private ones included.
    const ownerChanges = await changesSince(server, owner.token, owner.appUserId, ownerStart);
    assert.ok(ownerChanges.changes.some((c) => c.type === 'topic' && c.id === secretTopic.id && c.op === 'delete'));
  });

  test('an accessor with private access sees it all; access changed since the cursor is 410; access ended is 404', async () => {
    const owner = await createOwner(server);
    const reader = await createOwner(server);
    const accessorId = await insertAccessor(server, owner, reader.email, reader.id, { canWrite: true, privateAccess: true });
    const hidden = await createProfile(server, owner, { name: 'Diary', is_private: true });
    const start = await currentCursor(server, reader.token, owner.appUserId);
    const topic = await createTopic(server, owner, hidden.id);
    const seen = await changesSince(server, reader.token, owner.appUserId, start);
    assert.deepEqual(
      seen.changes.map((c) => [c.type, c.id]),
      [['topic', topic.id]],
    );

    await setRights(server, accessorId, { canWrite: false, privateAccess: true });
    const changed = await server.request('GET', `/app/users/${owner.appUserId}/changes/?since=${seen.cursor}`, { token: reader.token });
    assert.equal(changed.status, 410, 'write access gone: the app user reads differently');
    const fresh = await currentCursor(server, reader.token, owner.appUserId);
    assert.equal(
      (await server.request('GET', `/app/users/${owner.appUserId}/changes/?since=${fresh}`, { token: reader.token })).status,
      200,
    );

    await deleteAccessor(server, accessorId);
    const ended = await server.request('GET', `/app/users/${owner.appUserId}/changes/?since=${fresh}`, { token: reader.token });
    assert.equal(ended.status, 404);
  });
});
