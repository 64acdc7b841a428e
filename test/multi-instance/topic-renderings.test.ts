// Two instances on one PostgreSQL database, each keeping its own topic renderings: a write on
// one is in the next read of the other, assembled from its kept topics, byte for byte what an
// instance without a rendering cache reads, for the owner and for an accessor.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  createImageItem,
  createListItem,
  createOwner,
  createProfile,
  createTopic,
  insertMedia,
  pathOf,
  type Owner,
} from '../app-data/fixtures.ts';
import { insertAccessor, setRights } from '../sharing/sharing-fixtures.ts';

const skip = !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)';

describe('topic renderings on two instances', { skip }, () => {
  let a: TestServer;
  let b: TestServer;
  let plain: TestServer;
  let owner: Owner;
  let reader: Owner;
  let readerId: number;
  let profile: any;
  let hidden: any;
  let list: any;
  let media: number;

  before(async () => {
    a = await startTestServer();
    const shared = { DATABASE_URL: a.server.ctx.config.databaseUrl };
    b = await startTestServer(shared);
    plain = await startTestServer({ ...shared, RENDER_CACHE_BYTES: '0' });
    for (const server of [b, plain]) server.clock.advance(a.clock.now() - server.clock.now());
    owner = await createOwner(a);
    reader = await createOwner(a, { firstName: 'Reed' });
    profile = await createProfile(a, owner, { name: 'Open' });
    hidden = await createProfile(a, owner, { name: 'Hidden', is_private: true });
    const topics = [await createTopic(a, owner, profile.id, { name: 'One' }), await createTopic(a, owner, profile.id, { name: 'Two' })];
    await createTopic(a, owner, hidden.id, { name: 'Secret' });
    list = await createListItem(a, owner, topics[0].id, ['bread']);
    media = await insertMedia(a, owner, 'a.png');
    await createImageItem(a, owner, topics[1].id, { image_resource: media });
    readerId = await insertAccessor(a, owner, reader.email, reader.id, { privateAccess: true });
  });
  after(async () => {
    await Promise.all([b, plain].map((server) => server?.close()));
    await a?.close();
  });

  async function agree(label: string): Promise<void> {
    for (const token of [owner.token, reader.token]) {
      for (const p of [profile, hidden]) {
        const path = `/app/profiles/${p.id}/`;
        const expected = await plain.request('GET', path, { token });
        for (const server of [a, b, a, b]) {
          const got = await server.request('GET', path, { token });
          assert.equal(got.status, expected.status, `${label}: ${p.name}`);
          assert.equal(got.text, expected.text, `${label}: ${p.name}`);
        }
      }
    }
  }

  const write = async (server: TestServer, method: string, path: string, body?: unknown) => {
    const response = await server.request(method, path, { token: owner.token, body });
    assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
    return response.body;
  };

  test("a write on one instance is in the other's next read, caches warm", async () => {
    await agree('warm');
    const entry = await write(a, 'POST', `/app/items/${list.id}/list-entries/`, { text: 'eggs' });
    await agree('an entry created on a');
    await write(b, 'PATCH', pathOf(entry.url), { text: 'milk' });
    await agree('an entry changed on b');
    await write(a, 'PATCH', `/app/media-resources/${media}/`, { name: 'b.png' });
    await agree('a media resource renamed on a');
    await write(b, 'PATCH', pathOf(profile.url), { is_private: true });
    await agree('a profile made private on b');
    await setRights(a, readerId, { canWrite: false, privateAccess: false });
    await agree('a share narrowed');
  });
});
