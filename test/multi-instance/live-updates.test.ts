// docs/offline-and-live.md across instances: a live stream on instance B hears the writes made on A
// (PostgreSQL LISTEN/NOTIFY); B is killed; the client reconnects to A with its Last-Event-ID
// and gets what it missed, nothing twice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createListItem, createOwner, createProfile, createTopic } from '../app-data/fixtures.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { nextEvents, openStream } from '../sync/event-reader.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const skip = !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)';

describe('live streams on two instances of one PostgreSQL database', { skip }, () => {
  let a: TestServer;
  let b: ServiceProcess;
  before(async () => {
    a = await startTestServer();
    // The longest heartbeat: a stream that hears of a write sooner was woken by a notification.
    b = await startServiceProcess(a.server.ctx.config.databaseUrl, tempDir('live-b-'), undefined, {
      EVENT_HEARTBEAT: '30s',
    });
  });
  after(async () => {
    b.child.kill('SIGKILL');
    await b.exited;
    await a.close();
  });

  test('list items of two accounts created in one turn on A: each stream on B hears its own, woken before a heartbeat', async () => {
    const owners = await Promise.all([createOwner(a), createOwner(a)]);
    const topics = await Promise.all(owners.map(async (owner) => createTopic(a, owner, (await createProfile(a, owner)).id)));
    const streams = await Promise.all(owners.map((owner) => openStream(b, `/app/users/${owner.appUserId}/events/`, owner.token)));
    // Sent together, they reach the database as one call of create_list_items: one commit
    // announces both accounts.
    const items = await Promise.all(owners.map((owner, i) => createListItem(a, owner, topics[i]!.id, [`entry ${i}`])));
    for (const [i, stream] of streams.entries()) {
      const events = await nextEvents(stream, 2);
      assert.deepEqual(
        events.map((e) => e.data),
        [
          { type: 'item', id: items[i].id, op: 'upsert' },
          { type: 'list_entry', id: items[i].list_content.entries[0].id, op: 'upsert' },
        ],
      );
      // A stream that missed its wake-up would have heard these with its next heartbeat.
      assert.deepEqual(
        stream.comments.filter((c) => c === 'keepalive'),
        [],
        'woken by the notification, not a heartbeat',
      );
      stream.close();
    }
  });

  test('B streams what A writes; B killed, A resumes from Last-Event-ID: nothing missed, nothing twice', async () => {
    const owner = await createOwner(a);
    const path = `/app/users/${owner.appUserId}/events/`;
    const onB = await openStream(b, path, owner.token);
    assert.equal(onB.status, 200);
    const profile = await createProfile(a, owner, { name: 'Home' });
    const [first] = await nextEvents(onB, 1);
    assert.deepEqual(first!.data, { type: 'profile', id: profile.id, op: 'upsert' });

    b.child.kill('SIGKILL');
    await onB.ended;
    const topic = await createTopic(a, owner, profile.id);
    const contact = await a.request('POST', `/app/users/${owner.appUserId}/emergency-contacts/`, {
      token: owner.token,
      body: { name: 'Mum', phone_number: '0123456789' },
    });
    assert.equal(contact.status, 201);

    const onA = await openStream(a, path, owner.token, first!.id);
    assert.equal(onA.status, 200);
    const missed = await nextEvents(onA, 2);
    assert.deepEqual(
      missed.map((e) => e.data),
      [
        { type: 'topic', id: topic.id, op: 'upsert' },
        { type: 'emergency_contact', id: contact.body.id, op: 'upsert' },
      ],
    );
    const later = await createTopic(a, owner, profile.id, { name: 'Later' });
    assert.deepEqual((await nextEvents(onA, 1))[0]!.data, { type: 'topic', id: later.id, op: 'upsert' });
    onA.close();
  });
});
