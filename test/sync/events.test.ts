// GET /app/users/{id}/events/ (docs/offline-and-live.md): one event per change, resumable with
// Last-Event-ID with no gap and no repeat, heartbeats, ended when the token or access goes,
// a limit of streams per account, ended cleanly when the server stops.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOwner, createProfile, createTopic, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { deleteAccessor, insertAccessor, setRights } from '../sharing/sharing-fixtures.ts';
import { nextEvents, openStream } from './event-reader.ts';
import { changesSince } from './sync-fixtures.ts';

const eventsPath = (owner: Owner) => `/app/users/${owner.appUserId}/events/`;

describe('live updates', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ EVENT_HEARTBEAT: '200ms', EVENT_STREAMS_PER_ACCOUNT: '3' });
  });
  after(() => server.close());

  test('a write appears as an event whose id is its cursor; a reconnect with Last-Event-ID resumes with no gap and no repeat', async () => {
    const owner = await createOwner(server);
    const stream = await openStream(server, eventsPath(owner), owner.token);
    assert.equal(stream.status, 200);
    assert.match(String(stream.contentType), /^text\/event-stream/);
    const profile = await createProfile(server, owner, { name: 'Home' });
    const [created] = await nextEvents(stream, 1);
    assert.deepEqual(created!.data, { type: 'profile', id: profile.id, op: 'upsert' });
    stream.close();

    // While away: a topic, a rename, a delete.
    const topic = await createTopic(server, owner, profile.id);
    assert.equal(
      (await server.request('PATCH', `/app/topics/${topic.id}/`, { token: owner.token, body: { name: 'Renamed' } })).status,
      200,
    );
    const emergency = await server.request('POST', `/app/users/${owner.appUserId}/emergency-contacts/`, {
      token: owner.token,
      body: { name: 'Mum', phone_number: '0123456789' },
    });
    assert.equal((await server.request('DELETE', `/app/emergency-contacts/${emergency.body.id}/`, { token: owner.token })).status, 204);

    const resumed = await openStream(server, eventsPath(owner), owner.token, created!.id);
    const missed = await nextEvents(resumed, 2);
    assert.deepEqual(
      missed.map((e) => e.data),
      [
        { type: 'topic', id: topic.id, op: 'upsert' },
        { type: 'emergency_contact', id: emergency.body.id, op: 'delete' },
      ],
      'each object once, at its last change, as GET …/changes/ says',
    );
    const { changes } = await changesSince(server, owner.token, owner.appUserId, created!.id!);
    assert.deepEqual(
      missed.map((e) => e.data),
      changes.map(({ type, id, op }) => ({ type, id, op })),
    );
    const later = await createTopic(server, owner, profile.id, { name: 'Later' });
    assert.deepEqual((await nextEvents(resumed, 1))[0]!.data, { type: 'topic', id: later.id, op: 'upsert' }, 'nothing twice');
    resumed.close();
  });

  test('heartbeats come as comment lines; an accessor without private access hears nothing of a private profile', async () => {
    const owner = await createOwner(server);
    const reader = await createOwner(server);
    await insertAccessor(server, owner, reader.email, reader.id, { privateAccess: false });
    const stream = await openStream(server, eventsPath(owner), reader.token);
    assert.equal(stream.status, 200);
    await waitFor(() => stream.comments.filter((c) => c === 'keepalive').length >= 2, 'two heartbeats');
    await createProfile(server, owner, { name: 'Secret', is_private: true });
    const open = await createProfile(server, owner, { name: 'Open' });
    const [event] = await nextEvents(stream, 1);
    assert.deepEqual(event!.data, { type: 'profile', id: open.id, op: 'upsert' });
    const since = await server.request('GET', `/app/users/${owner.appUserId}/changes/?since=${event!.id}`, { token: reader.token });
    assert.deepEqual(since.body.changes, [], "the event's id is the reader's cursor");
    assert.equal(
      (await server.request('GET', `/app/users/${owner.appUserId}/changes/?since=${event!.id}`, { token: owner.token })).status,
      410,
      "the reader's cursor is not the owner's",
    );
    stream.close();
  });

  test('the stream ends when the token is revoked, or access changes or ends; reconnecting is then 401, 410 or 404', async () => {
    const owner = await createOwner(server);
    const ownStream = await openStream(server, eventsPath(owner), owner.token);
    assert.equal((await server.request('POST', '/auth/logout/', { token: owner.token })).status, 204);
    await ownStream.ended;
    assert.equal((await openStream(server, eventsPath(owner), owner.token)).status, 401);

    const other = await createOwner(server);
    const reader = await createOwner(server);
    const accessorId = await insertAccessor(server, other, reader.email, reader.id, { privateAccess: true });
    const first = await openStream(server, eventsPath(other), reader.token);
    await createProfile(server, other);
    const [seen] = await nextEvents(first, 1);
    await setRights(server, accessorId, { canWrite: false, privateAccess: false });
    await first.ended;
    const stale = await openStream(server, eventsPath(other), reader.token, seen!.id);
    assert.equal(stale.status, 410, 'the cursor was taken with other access');
    const second = await openStream(server, eventsPath(other), reader.token);
    assert.equal(second.status, 200);
    await deleteAccessor(server, accessorId);
    await second.ended;
    assert.equal((await openStream(server, eventsPath(other), reader.token)).status, 404);
  });

  test('at most EVENT_STREAMS_PER_ACCOUNT at once (429); bad Last-Event-ID 410; a stranger 404; no token 401', async () => {
    const owner = await createOwner(server);
    const streams = [];
    for (let i = 0; i < 3; i += 1) streams.push(await openStream(server, eventsPath(owner), owner.token));
    assert.deepEqual(
      streams.map((s) => s.status),
      [200, 200, 200],
    );
    const refused = await server.request('GET', eventsPath(owner), { token: owner.token });
    assert.equal(refused.status, 429, refused.text);
    assert.ok(refused.headers.get('retry-after'));
    streams[0]!.close();
    await waitFor(async () => {
      const again = await openStream(server, eventsPath(owner), owner.token);
      again.close();
      return again.status === 200;
    }, 'a closed stream frees its place');
    for (const stream of streams) stream.close();

    assert.equal(
      (await server.request('GET', eventsPath(owner), { token: owner.token, headers: { 'last-event-id': 'nonsense' } })).status,
      410,
    );
    const stranger = await createOwner(server);
    assert.equal((await server.request('GET', eventsPath(owner), { token: stranger.token })).status, 404);
    assert.equal((await server.request('GET', eventsPath(owner))).status, 401);
  });

  test('the server stopping ends every stream at once', async () => {
    const own = await startTestServer();
    const owner = await createOwner(own);
    const stream = await openStream(own, eventsPath(owner), owner.token);
    assert.equal(stream.status, 200);
    await own.close();
    await stream.ended;
  });
});
