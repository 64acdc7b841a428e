// A media resource shown only by image items in private profiles is private (docs/sharing.md):
// an accessor without private profile access does not find it in the gallery, its detail and
// its file URL answer 404, they cannot rename or delete it, and the changes and the live stream
// treat it as a private profile: a deletion when it goes private, an upsert when it comes back.
// One shown nowhere (a fresh upload), or also in a profile that is not private or by an
// emergency item, is seen by every accessor.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { create, createOwner, createProfile, createTopic, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { nextEvents, openStream } from '../sync/event-reader.ts';
import { applyChanges, changesSince, currentCursor, fullRead } from '../sync/sync-fixtures.ts';
import { insertAccessor, localPath, uploadPicture } from './sharing-fixtures.ts';

interface Scene {
  owner: Owner;
  /** A writer without private profile access. */
  writer: Owner;
  /** A reader with private profile access. */
  reader: Owner;
  publicTopic: number;
  privateProfile: number;
  privateTopic: number;
}

describe('media shown only in private profiles', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function scene(): Promise<Scene> {
    const owner = await createOwner(server);
    const writer = await createOwner(server);
    const reader = await createOwner(server);
    await insertAccessor(server, owner, writer.email, writer.id, { canWrite: true, privateAccess: false });
    await insertAccessor(server, owner, reader.email, reader.id, { canWrite: false, privateAccess: true });
    const open = await createProfile(server, owner, { name: 'Open' });
    const hidden = await createProfile(server, owner, { name: 'Diary', is_private: true });
    return {
      owner,
      writer,
      reader,
      publicTopic: (await createTopic(server, owner, open.id)).id,
      privateProfile: hidden.id,
      privateTopic: (await createTopic(server, owner, hidden.id)).id,
    };
  }

  const send = async (s: Scene, method: string, path: string, body?: unknown, token = s.owner.token) =>
    server.request(method, path, { token, body });
  const ok = async (s: Scene, method: string, path: string, body?: unknown) => {
    const response = await send(s, method, path, body);
    assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
    return response.body;
  };
  /** An image item in `topic` showing `media`; its id. */
  const show = async (s: Scene, topic: number, media: number): Promise<number> =>
    (await create(server, s.owner.token, `/app/topics/${topic}/items/`, { name: 'Picture', image_content: { media_resource: media } })).id;
  const gallery = async (s: Scene, token: string): Promise<number[]> => {
    const response = await send(s, 'GET', `/app/users/${s.owner.appUserId}/gallery/`, undefined, token);
    assert.equal(response.status, 200, response.text);
    return response.body.map((media: { id: number }) => media.id);
  };
  const detailStatus = async (s: Scene, media: number, token: string) =>
    (await send(s, 'GET', `/app/media-resources/${media}/`, undefined, token)).status;

  test('absent from the gallery, 404 on its detail, and a writer without private access cannot rename or delete it', async () => {
    const s = await scene();
    const hidden = await uploadPicture(server, s.owner, 'Hidden');
    await show(s, s.privateTopic, hidden);
    const unused = await uploadPicture(server, s.owner, 'Unused');
    const shared = await uploadPicture(server, s.owner, 'Also public');
    await show(s, s.privateTopic, shared);
    await show(s, s.publicTopic, shared);
    const emergency = await uploadPicture(server, s.owner, 'Also in an emergency item');
    await show(s, s.privateTopic, emergency);
    await create(server, s.owner.token, `/app/users/${s.owner.appUserId}/emergency-items/`, {
      name: 'Allergies',
      description: 'Nuts',
      media_resource: emergency,
    });

    assert.deepEqual(await gallery(s, s.writer.token), [unused, shared, emergency]);
    assert.deepEqual(await gallery(s, s.reader.token), [hidden, unused, shared, emergency]);
    assert.deepEqual(await gallery(s, s.owner.token), [hidden, unused, shared, emergency]);
    for (const media of [unused, shared, emergency]) assert.equal(await detailStatus(s, media, s.writer.token), 200);
    assert.equal(await detailStatus(s, hidden, s.reader.token), 200);

    const path = `/app/media-resources/${hidden}/`;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Renamed' }],
      ['PUT', { name: 'Replaced' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await send(s, method, path, body, s.writer.token);
      assert.equal(response.status, 404, `${method} as the writer without private access: ${response.text}`);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
    const seen = await send(s, 'GET', path);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.name, 'Hidden', 'nothing changed');
    // The same writer may rename what they see.
    assert.equal((await send(s, 'PATCH', `/app/media-resources/${unused}/`, { name: 'Mine' }, s.writer.token)).status, 200);
  });

  test('a writer without private access cannot show it where they can read it: its id does not exist for them', async () => {
    const s = await scene();
    const hidden = await uploadPicture(server, s.owner, 'Hidden');
    await show(s, s.privateTopic, hidden);
    const unused = await uploadPicture(server, s.owner, 'Unused');
    const missing = [`Invalid pk "${hidden}" - object does not exist.`];
    const as = (method: string, path: string, body: unknown) => send(s, method, path, body, s.writer.token);

    const item = await as('POST', `/app/topics/${s.publicTopic}/items/`, { name: 'Mine', image_content: { image_resource: hidden } });
    assert.equal(item.status, 400, item.text);
    assert.deepEqual(item.body, { image_content: { image_resource: missing } });
    const own = await as('POST', `/app/topics/${s.publicTopic}/items/`, { name: 'Mine', image_content: { media_resource: unused } });
    assert.equal(own.status, 201, own.text);
    const changed = await as('PATCH', `/app/items/${own.body.id}/`, { image_content: { media_resource: hidden } });
    assert.equal(changed.status, 400, changed.text);
    assert.deepEqual(changed.body, { image_content: { media_resource: missing } });

    const emergencyItems = `/app/users/${s.owner.appUserId}/emergency-items/`;
    const emergency = await as('POST', emergencyItems, { name: 'Card', description: '', media_resource: hidden });
    assert.equal(emergency.status, 400, emergency.text);
    assert.deepEqual(emergency.body, { media_resource: missing });
    const card = await as('POST', emergencyItems, { name: 'Card', description: '' });
    assert.equal(card.status, 201, card.text);
    const put = await as('PATCH', `/app/emergency-items/${card.body.id}/`, { media_resource: hidden });
    assert.equal(put.status, 400, put.text);
    assert.deepEqual(put.body, { media_resource: missing });

    assert.equal(await detailStatus(s, hidden, s.writer.token), 404, 'still private');
    // The owner may show it anywhere (and so make it seen).
    await ok(s, 'PATCH', `/app/emergency-items/${card.body.id}/`, { media_resource: hidden });
    assert.equal(await detailStatus(s, hidden, s.writer.token), 200);
  });

  test('it is seen again as soon as something not private shows it, or nothing does', async () => {
    const s = await scene();
    const media = await uploadPicture(server, s.owner);
    const visible = async () => (await detailStatus(s, media, s.writer.token)) === 200;
    assert.ok(await visible(), 'a fresh upload is seen');
    const item = await show(s, s.privateTopic, media);
    assert.ok(!(await visible()), 'shown only in the private profile');

    await ok(s, 'PATCH', `/app/profiles/${s.privateProfile}/`, { is_private: false });
    assert.ok(await visible(), 'the profile made public');
    await ok(s, 'PATCH', `/app/profiles/${s.privateProfile}/`, { is_private: true });
    assert.ok(!(await visible()), 'the profile made private again');

    const emergency = await create(server, s.owner.token, `/app/users/${s.owner.appUserId}/emergency-items/`, {
      name: 'Card',
      description: 'Insurance',
      media_resource: media,
    });
    assert.ok(await visible(), 'an emergency item shows it');
    await ok(s, 'DELETE', `/app/emergency-items/${emergency.id}/`);
    assert.ok(!(await visible()), 'the emergency item deleted');

    const other = await uploadPicture(server, s.owner, 'Other');
    await ok(s, 'PATCH', `/app/items/${item}/`, { image_content: { media_resource: other } });
    assert.ok(await visible(), 'the private item shows another picture');
    assert.equal(await detailStatus(s, other, s.writer.token), 404, 'which is now the private one');
    await ok(s, 'PATCH', `/app/items/${item}/`, { image_content: { image_resource: media } });
    assert.ok(!(await visible()), 'shown again, as the image resource');

    await ok(s, 'DELETE', `/app/profiles/${s.privateProfile}/`);
    assert.ok(await visible(), 'the private profile deleted, with what it held');
    assert.equal(await detailStatus(s, other, s.writer.token), 200);
  });

  test('a file URL handed before it went private answers 404, and works again once it is seen', async () => {
    const s = await scene();
    const media = await uploadPicture(server, s.owner);
    const handed = await send(s, 'GET', `/app/media-resources/${media}/`, undefined, s.writer.token);
    assert.equal(handed.status, 200, handed.text);
    const file = localPath(handed.body.file);
    assert.equal((await server.request('GET', file)).status, 200);

    const item = await show(s, s.privateTopic, media);
    for (const method of ['GET', 'HEAD']) {
      const response = await server.request(method, file);
      assert.equal(response.status, 404, `${method} of the writer's URL`);
    }
    // One signed for an accessor with private access still works.
    const readers = await send(s, 'GET', `/app/media-resources/${media}/`, undefined, s.reader.token);
    assert.equal((await server.request('GET', localPath(readers.body.file))).status, 200);

    await ok(s, 'DELETE', `/app/items/${item}/`);
    assert.equal((await server.request('GET', file)).status, 200, 'unused again');
  });

  test('the changes and the live stream: a deletion when it goes private, an upsert when it comes back, nothing while private', async () => {
    const s = await scene();
    const media = await uploadPicture(server, s.owner);
    const { writer } = s;
    const taken = await fullRead(server, writer.token, s.owner.appUserId);
    assert.ok(taken[`media_resource:${media}`], 'a fresh upload is in the full read');
    const start = await currentCursor(server, writer.token, s.owner.appUserId);
    const readerStart = await currentCursor(server, s.reader.token, s.owner.appUserId);
    const stream = await openStream(server, `/app/users/${s.owner.appUserId}/events/`, writer.token);
    assert.equal(stream.status, 200);

    const item = await show(s, s.privateTopic, media);
    const closed = await changesSince(server, writer.token, s.owner.appUserId, start);
    assert.deepEqual(closed.changes, [{ type: 'media_resource', id: media, op: 'delete' }]);
    assert.deepEqual(applyChanges(taken, closed.changes), await fullRead(server, writer.token, s.owner.appUserId));
    assert.deepEqual((await nextEvents(stream, 1))[0]!.data, { type: 'media_resource', id: media, op: 'delete' });

    // While private: renamed, and a picture uploaded and hidden at once, then deleted. None of it is told.
    await ok(s, 'PATCH', `/app/media-resources/${media}/`, { name: 'Secret' });
    const brief = await uploadPicture(server, s.owner, 'Brief');
    await show(s, s.privateTopic, brief);
    await ok(s, 'DELETE', `/app/media-resources/${brief}/`);
    // Shown in a second private item, then that item goes: still private.
    const second = await show(s, s.privateTopic, media);
    await ok(s, 'DELETE', `/app/items/${second}/`);
    const quiet = await changesSince(server, writer.token, s.owner.appUserId, closed.cursor);
    assert.deepEqual(quiet.changes, []);

    await ok(s, 'DELETE', `/app/items/${item}/`);
    const opened = await changesSince(server, writer.token, s.owner.appUserId, quiet.cursor);
    assert.deepEqual(
      opened.changes.map((c) => `${c.type}:${c.id}:${c.op}`),
      [`media_resource:${media}:upsert`],
    );
    assert.equal(opened.changes[0]!.data!.name, 'Secret', 'as it is now');
    const now = await fullRead(server, writer.token, s.owner.appUserId);
    assert.deepEqual(applyChanges(applyChanges(taken, closed.changes), [...quiet.changes, ...opened.changes]), now);
    assert.deepEqual(
      applyChanges(taken, (await changesSince(server, writer.token, s.owner.appUserId, start)).changes),
      now,
      'from the start too',
    );
    // The stream tells nothing of it while private, then the upsert. (It reads the log as commits
    // wake it, so `brief` may have been seen between its upload and its showing: skip it.)
    for (;;) {
      const [event] = await nextEvents(stream, 1);
      if (event!.data.id === brief) continue;
      assert.deepEqual(event!.data, { type: 'media_resource', id: media, op: 'upsert' });
      break;
    }
    stream.close();

    // The reader with private access was told everything.
    const readers = await changesSince(server, s.reader.token, s.owner.appUserId, readerStart);
    assert.ok(readers.changes.some((c) => c.type === 'media_resource' && c.id === brief && c.op === 'delete'));
  });
});
