// Cached renderings of the profile detail and a topic's items never outlive a change to
// what they show, and never bypass ownership.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, stopBackgroundWork, type TestServer } from '../helpers/server.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic, insertMedia, type Owner } from './fixtures.ts';

describe('rendering cache', () => {
  let server: TestServer;
  let owner: Owner;
  let profileId: number;
  let topicId: number;
  let listItem: any;
  let imageItem: any;
  let mediaId: number;

  before(async () => {
    server = await startTestServer();
    // No background queries: the counts below are the requests' own.
    await stopBackgroundWork(server);
    owner = await createOwner(server);
    profileId = (await createProfile(server, owner)).id;
    topicId = (await createTopic(server, owner, profileId)).id;
    listItem = await createListItem(server, owner, topicId, ['milk', 'eggs']);
    mediaId = await insertMedia(server, owner, 'holiday.png');
    imageItem = await createImageItem(server, owner, topicId, { image_resource: mediaId });
  });
  after(() => server.close());

  const profile = async () => {
    const response = await server.request('GET', `/app/profiles/${profileId}/`, { token: owner.token });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const topicItems = async () => {
    const response = await server.request('GET', `/app/topics/${topicId}/items/`, { token: owner.token });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const itemIn = (body: any, id: number) => body.topics[0].items.find((item: any) => item.id === id);
  const change = async (method: string, path: string, body?: unknown) => {
    const response = await server.request(method, path, { token: owner.token, body });
    assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
  };

  test('a repeated read is served from the cache: no query on SQLite, the token check (which reads the data version) on PostgreSQL', async () => {
    const first = await server.request('GET', `/app/profiles/${profileId}/`, { token: owner.token });
    const stats = server.server.ctx.db.stats;
    const before = stats.queries;
    const second = await server.request('GET', `/app/profiles/${profileId}/`, { token: owner.token });
    // SQLite keeps the token row, data version included, in memory (src/db/change-feed.ts).
    assert.equal(stats.queries - before, onPostgres ? 1 : 0);
    assert.equal(second.text, first.text);
    assert.match(second.headers.get('content-type') ?? '', /^application\/json/);
  });

  test('a read after a write takes the data version from the statement that reads the tree, and the next read is a hit', async () => {
    await profile();
    await change('PATCH', new URL(listItem.list_content.entries[1].url).pathname, { text: 'free-range eggs' });
    const stats = server.server.ctx.db.stats;
    const before = stats.queries;
    const body = await profile();
    // SQLite: the tree alone (the write made the data version kept in memory stale); PostgreSQL: the token check too.
    assert.equal(stats.queries - before, onPostgres ? 2 : 1);
    assert.equal(itemIn(body, listItem.id).list_content.entries[1].text, 'free-range eggs');
    const again = stats.queries;
    const counts = server.server.ctx.cacheCounts.get('rendering')!;
    const hits = counts.hits;
    assert.deepEqual(await profile(), body);
    // The version the tree read is what the hit compares with: no query of its own on SQLite.
    assert.equal(counts.hits, hits + 1);
    assert.equal(stats.queries - again, onPostgres ? 1 : 0);
  });

  test('editing a list entry shows in the next read of the profile and of the topic items', async () => {
    await profile();
    await topicItems();
    const entry = listItem.list_content.entries[0];
    await change('PATCH', new URL(entry.url).pathname, { text: 'oat milk' });
    assert.equal(itemIn(await profile(), listItem.id).list_content.entries[0].text, 'oat milk');
    assert.equal((await topicItems()).find((i: any) => i.id === listItem.id).list_content.entries[0].text, 'oat milk');
  });

  test('replacing a list, renaming and creating items, renaming topic and profile all show', async () => {
    await profile();
    await change('PATCH', `/app/items/${listItem.id}/`, { name: 'Groceries', list_content: { entries: [{ text: 'bread' }] } });
    let body = await profile();
    assert.equal(itemIn(body, listItem.id).name, 'Groceries');
    assert.deepEqual(
      itemIn(body, listItem.id).list_content.entries.map((e: any) => e.text),
      ['bread'],
    );

    const added = await createListItem(server, owner, topicId, ['new']);
    assert.ok(itemIn(await profile(), added.id));
    assert.ok((await topicItems()).some((i: any) => i.id === added.id));
    await change('DELETE', `/app/items/${added.id}/`);
    assert.equal(itemIn(await profile(), added.id), undefined);
    assert.ok(!(await topicItems()).some((i: any) => i.id === added.id));

    await change('PATCH', `/app/topics/${topicId}/`, { name: 'Shopping' });
    assert.equal((await profile()).topics[0].name, 'Shopping');
    await change('PATCH', `/app/profiles/${profileId}/`, { name: 'Everyday' });
    body = await profile();
    assert.equal(body.name, 'Everyday');
  });

  test('renaming and deleting a media resource show in the item that references it', async () => {
    assert.equal(itemIn(await profile(), imageItem.id).image_content.image_resource.name, 'holiday.png');
    await change('PATCH', `/app/media-resources/${mediaId}/`, { name: 'beach.png' });
    assert.equal(itemIn(await profile(), imageItem.id).image_content.image_resource.name, 'beach.png');
    await change('DELETE', `/app/media-resources/${mediaId}/`);
    assert.equal(itemIn(await profile(), imageItem.id).image_content.image_resource, null);
  });

  test('signed file URLs in a cached rendering are renewed as time passes', async () => {
    const media = await insertMedia(server, owner, 'fresh.png');
    await change('PATCH', `/app/items/${imageItem.id}/`, { image_content: { media_resource: media } });
    const before = itemIn(await profile(), imageItem.id).image_content.media_resource.file;
    assert.equal(itemIn(await profile(), imageItem.id).image_content.media_resource.file, before);
    server.clock.advance(20 * 60_000);
    const after = itemIn(await profile(), imageItem.id).image_content.media_resource.file;
    assert.notEqual(after, before);
    const expires = Number(new URL(after).searchParams.get('expires')) * 1000;
    assert.ok(expires >= server.clock.now() + 60 * 60_000, 'a served URL is valid for at least MEDIA_URL_TTL');
  });

  test('a cached rendering is not served to another account', async () => {
    await profile();
    await topicItems();
    // One without an app user, and one whose app user has the owner's data version (the same stamp).
    const stranger = await createAccount(server);
    const lookalike = await createOwner(server);
    const db = server.server.ctx.db.kysely;
    const { data_version } = await db
      .selectFrom('app_users')
      .select('data_version')
      .where('id', '=', owner.appUserId)
      .executeTakeFirstOrThrow();
    await db.updateTable('app_users').set({ data_version }).where('id', '=', lookalike.appUserId).execute();
    for (const token of [stranger.token, lookalike.token]) {
      for (const path of [`/app/profiles/${profileId}/`, `/app/topics/${topicId}/items/`]) {
        const response = await server.request('GET', path, { token });
        assert.equal(response.status, 404);
        assert.deepEqual(response.body, { detail: 'Not found.' });
      }
    }
  });

  test("a deleted app user's cached profile is 404 once a new app user reaches the same data version", async () => {
    const former = await createOwner(server);
    const formerProfile = await createProfile(server, former, { name: 'Gone' });
    const path = `/app/profiles/${formerProfile.id}/`;
    const topic = `/app/topics/${(await createTopic(server, former, formerProfile.id)).id}/items/`;
    for (const read of [path, topic]) assert.equal((await server.request('GET', read, { token: former.token })).status, 200);
    const db = server.server.ctx.db.kysely;
    const versionOf = async (appUserId: number) =>
      (await db.selectFrom('app_users').select('data_version').where('id', '=', appUserId).executeTakeFirstOrThrow()).data_version;
    const cachedAt = await versionOf(former.appUserId);
    assert.equal((await server.request('DELETE', `/app/users/${former.appUserId}/`, { token: former.token })).status, 204);

    const created = await server.request('POST', '/app/users/', { token: former.token, body: {} });
    assert.equal(created.status, 201, created.text);
    const newcomer = created.body.id as number;
    for (let version = await versionOf(newcomer); version < cachedAt; version = await versionOf(newcomer)) {
      const renamed = await server.request('PATCH', `/app/users/${newcomer}/`, { token: former.token, body: { name: `v${version}` } });
      assert.equal(renamed.status, 200, renamed.text);
    }
    assert.equal(await versionOf(newcomer), cachedAt);
    for (const read of [path, topic]) {
      const response = await server.request('GET', read, { token: former.token });
      assert.equal(response.status, 404, `${read}: ${response.text}`);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
  });

  test('a deleted profile is 404 even though it was cached', async () => {
    const other = await createProfile(server, owner, { name: 'Temporary' });
    assert.equal((await server.request('GET', `/app/profiles/${other.id}/`, { token: owner.token })).status, 200);
    await change('DELETE', `/app/profiles/${other.id}/`);
    assert.equal((await server.request('GET', `/app/profiles/${other.id}/`, { token: owner.token })).status, 404);
  });
});
