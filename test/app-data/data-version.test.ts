// Every write to what an app user holds moves its data_version (caches key on it); reads and
// refused writes do not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createListItem, createOwner, createProfile, createTopic, insertMedia, pathOf, type Owner } from './fixtures.ts';

describe('data version', () => {
  let server: TestServer;
  let owner: Owner;
  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
  });
  after(() => server.close());

  async function version(): Promise<number> {
    const row = await server.server.ctx.db.kysely
      .selectFrom('app_users')
      .select('data_version')
      .where('id', '=', owner.appUserId)
      .executeTakeFirstOrThrow();
    return row.data_version;
  }

  async function expectBump(method: string, path: string, body?: unknown): Promise<any> {
    const before = await version();
    const response = await server.request(method, path, { token: owner.token, body });
    assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
    assert.ok((await version()) > before, `${method} ${path} moves the data version`);
    return response.body;
  }

  test('creates, changes and deletes of every kind move it', async () => {
    const media = await insertMedia(server, owner);
    await expectBump('PATCH', `/app/users/${owner.appUserId}/`, { quote: 'q' });
    await expectBump('PUT', `/app/users/${owner.appUserId}/`, { name: 'N' });
    const profile = await expectBump('POST', `/app/users/${owner.appUserId}/profiles/`, { name: 'P' });
    await expectBump('PATCH', pathOf(profile.url), { is_default: true });
    await expectBump('PUT', pathOf(profile.url), { name: 'P2' });
    const topic = await expectBump('POST', `/app/profiles/${profile.id}/topics/`, { name: 'T', topic_type: 3 });
    await expectBump('PATCH', pathOf(topic.url), { name: 'T2' });
    await expectBump('PUT', pathOf(topic.url), { name: 'T3', topic_type: 4 });
    const item = await expectBump('POST', `/app/topics/${topic.id}/items/`, { name: 'I', list_content: { entries: [{ text: 'a' }] } });
    await expectBump('PATCH', pathOf(item.url), { list_content: { entries: [{ text: 'b' }] } });
    await expectBump('PUT', pathOf(item.url), { name: 'I2' });
    const image = await expectBump('POST', `/app/topics/${topic.id}/items/`, { name: 'Img', image_content: { media_resource: media } });
    await expectBump('PATCH', pathOf(image.url), { image_content: { media_resource: null } });
    const entry = await expectBump('POST', `/app/items/${item.id}/list-entries/`, { text: 'c' });
    await expectBump('PATCH', pathOf(entry.url), { text: 'd' });
    await expectBump('PUT', pathOf(entry.url), { text: 'e' });
    await expectBump('DELETE', pathOf(entry.url));
    const emergency = await expectBump('POST', `/app/users/${owner.appUserId}/emergency-items/`, { name: 'E' });
    await expectBump('PATCH', pathOf(emergency.url), { media_resource: media });
    await expectBump('PUT', pathOf(emergency.url), { name: 'E2' });
    await expectBump('DELETE', pathOf(emergency.url));
    const contact = await expectBump('POST', `/app/users/${owner.appUserId}/emergency-contacts/`, { name: 'C', phone_number: '123456789' });
    await expectBump('PATCH', pathOf(contact.url), { relation: 'r' });
    await expectBump('PUT', pathOf(contact.url), { name: 'C2', phone_number: '123456780' });
    await expectBump('DELETE', pathOf(contact.url));
    await expectBump('DELETE', pathOf(image.url));
    await expectBump('DELETE', pathOf(topic.url));
    await expectBump('DELETE', pathOf(profile.url));
  });

  test('reads and refused writes leave it alone', async () => {
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const item = await createListItem(server, owner, topic.id);
    const before = await version();
    for (const path of [
      `/app/users/${owner.appUserId}/`,
      `/app/profiles/${profile.id}/`,
      `/app/topics/${topic.id}/items/`,
      pathOf(item.url),
    ]) {
      assert.equal((await server.request('GET', path, { token: owner.token })).status, 200);
    }
    const refused = await server.request('PATCH', pathOf(item.url), { token: owner.token, body: { image_content: {} } });
    assert.equal(refused.status, 400);
    const badMedia = await server.request('POST', `/app/users/${owner.appUserId}/emergency-items/`, {
      token: owner.token,
      body: { name: 'E', media_resource: 99999 },
    });
    assert.equal(badMedia.status, 400);
    assert.equal(await version(), before);
  });
});
