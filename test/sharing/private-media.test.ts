// A media resource shown only by image items in private profiles is private (docs/sharing.md):
// an accessor without private profile access does not find it in the gallery, its detail and
// its file URL answer 404, they cannot rename or delete it, and the changes and the live stream
// treat it as a private profile: a deletion when it goes private, an upsert when it comes back.
// One shown nowhere (a fresh upload), or also in a profile that is not private or by an
// emergency item, is seen by every accessor. An accessor limited to some profiles, with private
// access, sees a private one only while an image item under one of its profiles shows it.
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

/** The media resource does not exist for the token's holder: it reads, renames, replaces and deletes nothing. */
async function assertNotFound(server: TestServer, token: string, media: number): Promise<void> {
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { name: 'Renamed' }],
    ['PUT', { name: 'Replaced' }],
    ['DELETE', undefined],
  ] as const) {
    const response = await server.request(method, `/app/media-resources/${media}/`, { token, body });
    assert.equal(response.status, 404, `${method}: ${response.text}`);
    assert.deepEqual(response.body, { detail: 'Not found.' });
  }
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

    await assertNotFound(server, s.writer.token, hidden);
    const seen = await send(s, 'GET', `/app/media-resources/${hidden}/`);
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

describe('private media and an accessor limited to some profiles, with private access', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  interface Limited {
    owner: Owner;
    /** A writer with private access, limited to `listed`. */
    writer: Owner;
    writerAccessor: number;
    /** A private profile the writer is limited to, and a topic in it. */
    listed: number;
    listedTopic: number;
    /** A private profile the writer does not see, and a topic in it. */
    unlistedTopic: number;
  }

  async function limitedScene(): Promise<Limited> {
    const owner = await createOwner(server);
    const writer = await createOwner(server);
    const writerAccessor = await insertAccessor(server, owner, writer.email, writer.id, { canWrite: true, privateAccess: true });
    const listed = await createProfile(server, owner, { name: 'Health', is_private: true });
    const unlisted = await createProfile(server, owner, { name: 'Diary', is_private: true });
    const limited = await server.request('PATCH', `/app/accessors/${writerAccessor}/`, {
      token: owner.token,
      body: { profiles: [listed.id] },
    });
    assert.equal(limited.status, 200, limited.text);
    return {
      owner,
      writer,
      writerAccessor,
      listed: listed.id,
      listedTopic: (await createTopic(server, owner, listed.id)).id,
      unlistedTopic: (await createTopic(server, owner, unlisted.id)).id,
    };
  }

  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const show = async (s: Limited, topic: number, media: number): Promise<number> =>
    (await create(server, s.owner.token, `/app/topics/${topic}/items/`, { name: 'Picture', image_content: { media_resource: media } })).id;
  const gallery = async (s: Limited): Promise<number[]> => {
    const response = await as(s.writer.token, 'GET', `/app/users/${s.owner.appUserId}/gallery/`);
    assert.equal(response.status, 200, response.text);
    return response.body.map((media: { id: number }) => media.id);
  };

  test('one shown only under a profile it is not limited to does not exist for it: gallery, detail, rename, delete, references', async () => {
    const s = await limitedScene();
    const elsewhere = await uploadPicture(server, s.owner, 'Only in the diary');
    await show(s, s.unlistedTopic, elsewhere);
    const listed = await uploadPicture(server, s.owner, 'In the health profile');
    await show(s, s.listedTopic, listed);
    const both = await uploadPicture(server, s.owner, 'In both');
    await show(s, s.listedTopic, both);
    await show(s, s.unlistedTopic, both);
    const unused = await uploadPicture(server, s.owner, 'Unused');

    assert.deepEqual(await gallery(s), [listed, both, unused]);
    for (const media of [listed, both, unused])
      assert.equal((await as(s.writer.token, 'GET', `/app/media-resources/${media}/`)).status, 200);
    await assertNotFound(server, s.writer.token, elsewhere);
    const kept = await as(s.owner.token, 'GET', `/app/media-resources/${elsewhere}/`);
    assert.equal(kept.body.name, 'Only in the diary', 'nothing changed');

    const missing = [`Invalid pk "${elsewhere}" - object does not exist.`];
    const item = await as(s.writer.token, 'POST', `/app/topics/${s.listedTopic}/items/`, {
      name: 'Mine',
      image_content: { image_resource: elsewhere },
    });
    assert.equal(item.status, 400, item.text);
    assert.deepEqual(item.body, { image_content: { image_resource: missing } });
    const card = await as(s.writer.token, 'POST', `/app/users/${s.owner.appUserId}/emergency-items/`, {
      name: 'Card',
      description: '',
      media_resource: elsewhere,
    });
    assert.equal(card.status, 400, card.text);
    assert.deepEqual(card.body, { media_resource: missing });
    const mine = await as(s.writer.token, 'POST', `/app/topics/${s.listedTopic}/items/`, {
      name: 'Mine',
      image_content: { image_resource: both },
    });
    assert.equal(mine.status, 201, mine.text);
    assert.equal((await as(s.writer.token, 'PATCH', `/app/media-resources/${both}/`, { name: 'Seen by both' })).status, 200);
  });

  test('a file URL handed while it was seen answers 404 once only a profile it is not limited to shows it', async () => {
    const s = await limitedScene();
    const media = await uploadPicture(server, s.owner);
    const handed = await as(s.writer.token, 'GET', `/app/media-resources/${media}/`);
    assert.equal(handed.status, 200, handed.text);
    const file = localPath(handed.body.file);
    assert.equal((await server.request('GET', file)).status, 200);

    await show(s, s.unlistedTopic, media);
    for (const method of ['GET', 'HEAD']) assert.equal((await server.request(method, file)).status, 404, method);
    const item = await show(s, s.listedTopic, media);
    assert.equal((await server.request('GET', file)).status, 200, 'shown under its profile too');
    assert.equal((await as(s.owner.token, 'DELETE', `/app/items/${item}/`)).status, 204);
    assert.equal((await server.request('GET', file)).status, 404);
  });

  test('the changes follow what its profiles show, and a narrowed list loses what only the lost profile showed', async () => {
    const s = await limitedScene();
    const appUser = s.owner.appUserId;
    const media = await uploadPicture(server, s.owner);
    const kept = await uploadPicture(server, s.owner, 'Kept');
    await show(s, s.listedTopic, kept);
    const taken = await fullRead(server, s.writer.token, appUser);
    assert.ok(taken[`media_resource:${media}`] && taken[`media_resource:${kept}`]);
    const start = await currentCursor(server, s.writer.token, appUser);

    await show(s, s.unlistedTopic, media);
    const hidden = await changesSince(server, s.writer.token, appUser, start);
    assert.deepEqual(hidden.changes, [{ type: 'media_resource', id: media, op: 'delete' }]);
    assert.deepEqual(applyChanges(taken, hidden.changes), await fullRead(server, s.writer.token, appUser));

    // Shown under its profile while it stays private: the item and the resource arrive.
    const item = await show(s, s.listedTopic, media);
    const shown = await changesSince(server, s.writer.token, appUser, hidden.cursor);
    const now = await fullRead(server, s.writer.token, appUser);
    assert.ok(now[`media_resource:${media}`], 'seen again');
    assert.ok(
      shown.changes.some((c) => c.type === 'media_resource' && c.id === media && c.op === 'upsert'),
      JSON.stringify(shown.changes),
    );
    assert.deepEqual(applyChanges(applyChanges(taken, hidden.changes), shown.changes), now);

    // The item shows another picture: the resource is only the diary's again.
    assert.equal((await as(s.owner.token, 'PATCH', `/app/items/${item}/`, { image_content: { media_resource: kept } })).status, 200);
    const swapped = await changesSince(server, s.writer.token, appUser, shown.cursor);
    assert.ok(
      swapped.changes.some((c) => c.type === 'media_resource' && c.id === media && c.op === 'delete'),
      JSON.stringify(swapped.changes),
    );
    const after = await fullRead(server, s.writer.token, appUser);
    assert.deepEqual(applyChanges(now, swapped.changes), after);

    // Narrowed to no profile: the profile and what only it showed read as deleted.
    const narrowed = await as(s.owner.token, 'PATCH', `/app/accessors/${s.writerAccessor}/`, { profiles: [] });
    assert.equal(narrowed.status, 200, narrowed.text);
    const lost = await changesSince(server, s.writer.token, appUser, swapped.cursor);
    assert.deepEqual(lost.changes, [
      { type: 'profile', id: s.listed, op: 'delete' },
      { type: 'media_resource', id: kept, op: 'delete' },
    ]);
    const last = await fullRead(server, s.writer.token, appUser);
    assert.equal(last[`media_resource:${kept}`], undefined);
    assert.deepEqual(applyChanges(after, lost.changes), last);
  });
});
