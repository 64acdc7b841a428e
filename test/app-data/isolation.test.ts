// Every personal-data object, every method: another account gets the same 404 as a missing
// id, and the object is unchanged afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  create,
  createImageItem,
  createListItem,
  createOwner,
  createProfile,
  createTopic,
  insertMedia,
  pathOf,
  type Owner,
} from './fixtures.ts';

interface DetailCase {
  type: string;
  path: string;
  /** A body that would be a valid PATCH and PUT for the owner. */
  body: object;
}

interface CollectionCase {
  type: string;
  path: string;
  /** A body that would be a valid POST for the owner. */
  body: object;
}

const MISSING_ID = 2_000_000_000;

describe('isolation between accounts', () => {
  let server: TestServer;
  let owner: Owner;
  let intruder: Owner;
  let details: DetailCase[];
  let collections: CollectionCase[];

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
    intruder = await createOwner(server);
    const media = await insertMedia(server, owner);
    const profile = await createProfile(server, owner, { is_default: true });
    const topic = await createTopic(server, owner, profile.id);
    const listItem = await createListItem(server, owner, topic.id, ['a', 'b']);
    const imageItem = await createImageItem(server, owner, topic.id, { media_resource: media });
    const entry = listItem.list_content.entries[0];
    const emergencyItem = await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-items/`, {
      name: 'E',
      media_resource: media,
    });
    const contact = await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-contacts/`, {
      name: 'C',
      phone_number: '123456789',
    });
    // The intruder has data of their own, so "their" objects exist alongside.
    const intruderProfile = await createProfile(server, intruder);
    await createTopic(server, intruder, intruderProfile.id);

    details = [
      { type: 'app user', path: `/app/users/${owner.appUserId}/`, body: { name: 'Mallory', quote: 'pwned' } },
      { type: 'profile', path: pathOf(profile.url), body: { name: 'Mallory', is_default: false } },
      { type: 'topic', path: pathOf(topic.url), body: { name: 'Mallory', topic_type: 4 } },
      { type: 'list item', path: pathOf(listItem.url), body: { name: 'Mallory', list_content: { entries: [] } } },
      { type: 'image item', path: pathOf(imageItem.url), body: { name: 'Mallory', image_content: { media_resource: null } } },
      { type: 'list entry', path: pathOf(entry.url), body: { text: 'Mallory' } },
      { type: 'emergency item', path: pathOf(emergencyItem.url), body: { name: 'Mallory', media_resource: null } },
      { type: 'emergency contact', path: pathOf(contact.url), body: { name: 'Mallory', phone_number: '999999999' } },
    ];
    collections = [
      { type: 'profiles', path: `/app/users/${owner.appUserId}/profiles/`, body: { name: 'Mallory', is_default: true } },
      { type: 'emergency items', path: `/app/users/${owner.appUserId}/emergency-items/`, body: { name: 'Mallory' } },
      {
        type: 'emergency contacts',
        path: `/app/users/${owner.appUserId}/emergency-contacts/`,
        body: { name: 'Mallory', phone_number: '999999999' },
      },
      { type: 'topics', path: `/app/profiles/${profile.id}/topics/`, body: { name: 'Mallory', topic_type: 3 } },
      { type: 'items', path: `/app/topics/${topic.id}/items/`, body: { name: 'Mallory', list_content: {} } },
      { type: 'list entries', path: `/app/items/${listItem.id}/list-entries/`, body: { text: 'Mallory' } },
    ];
  });
  after(() => server.close());

  /** Everything the owner can see, to compare before and after the intruder's attempts. */
  async function snapshot(): Promise<unknown[]> {
    const views = [...details.map((d) => d.path), ...collections.map((c) => c.path)];
    const bodies = [];
    for (const path of views) {
      const response = await server.request('GET', path, { token: owner.token });
      assert.equal(response.status, 200, `owner GET ${path}`);
      bodies.push(response.body);
    }
    const version = await server.server.ctx.db.kysely
      .selectFrom('app_users')
      .select('data_version')
      .where('id', '=', owner.appUserId)
      .executeTakeFirstOrThrow();
    bodies.push(version);
    return bodies;
  }

  /** The path with the object's id swapped for one that does not exist. */
  function missing(path: string): string {
    return path.replace(/\/\d+\//, `/${MISSING_ID}/`);
  }

  test('details: GET, PATCH, PUT, DELETE by another account are 404, like a missing id', async () => {
    const before = await snapshot();
    for (const detail of details) {
      for (const method of ['GET', 'PATCH', 'PUT', 'DELETE']) {
        const body = method === 'PATCH' || method === 'PUT' ? detail.body : undefined;
        const attempt = await server.request(method, detail.path, { token: intruder.token, body });
        const absent = await server.request(method, missing(detail.path), { token: intruder.token, body });
        assert.equal(attempt.status, 404, `${method} ${detail.type}: ${attempt.text}`);
        assert.equal(absent.status, 404, `${method} missing ${detail.type}`);
        assert.equal(attempt.text, absent.text, `${method} ${detail.type}: same body as a missing id`);
        assert.deepEqual(attempt.body, { detail: 'Not found.' });
      }
    }
    assert.deepEqual(await snapshot(), before, 'nothing of the owner changed');
  });

  test("collections: GET and POST under another account's parent are 404, like a missing parent", async () => {
    const before = await snapshot();
    for (const collection of collections) {
      for (const method of ['GET', 'POST']) {
        const body = method === 'POST' ? collection.body : undefined;
        const attempt = await server.request(method, collection.path, { token: intruder.token, body });
        const absent = await server.request(method, missing(collection.path), { token: intruder.token, body });
        assert.equal(attempt.status, 404, `${method} ${collection.type}: ${attempt.text}`);
        assert.equal(absent.status, 404, `${method} missing parent of ${collection.type}`);
        assert.equal(attempt.text, absent.text);
      }
    }
    assert.deepEqual(await snapshot(), before, 'nothing of the owner changed');
  });

  test('the owner still can do all of it (the table is not 404 for everyone)', async () => {
    for (const detail of details) {
      const response = await server.request('GET', detail.path, { token: owner.token });
      assert.equal(response.status, 200, detail.type);
    }
    for (const collection of collections) {
      const response = await server.request('GET', collection.path, { token: owner.token });
      assert.equal(response.status, 200, collection.type);
    }
  });

  test("the intruder's own list of app users shows only their own", async () => {
    const response = await server.request('GET', '/app/users/', { token: intruder.token });
    assert.deepEqual(
      response.body.map((u: { id: number }) => u.id),
      [intruder.appUserId],
    );
  });
});
