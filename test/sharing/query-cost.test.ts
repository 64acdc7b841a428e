// Sharing costs owners nothing and accessors little (docs/sharing.md: a shared app user reads as
// fast as one's own): an owner's request runs the same queries whether or not others share with
// them, and an accessor's read of a cached rendering runs no more queries than the owner's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, stopBackgroundWork, type TestServer } from '../helpers/server.ts';
import { createListItem, createOwner, createProfile, createTopic, type Owner } from '../app-data/fixtures.ts';
import { insertAccessor } from './sharing-fixtures.ts';

describe('what sharing costs in queries', () => {
  let server: TestServer;
  let owner: Owner;
  let plain: Owner;
  let accessor: Owner;
  let profileId: number;
  let plainProfileId: number;

  before(async () => {
    server = await startTestServer();
    await stopBackgroundWork(server);
    owner = await createOwner(server);
    plain = await createOwner(server);
    accessor = await createOwner(server);
    profileId = (await createProfile(server, owner)).id;
    plainProfileId = (await createProfile(server, plain)).id;
    await createListItem(server, owner, (await createTopic(server, owner, profileId)).id, ['a', 'b']);
    await createListItem(server, plain, (await createTopic(server, plain, plainProfileId)).id, ['a', 'b']);
    // `owner` is also an accessor of `plain`'s data; `accessor` reads `owner`'s.
    await insertAccessor(server, plain, 'o@example.com', owner.id);
    await insertAccessor(server, owner, 'a@example.com', accessor.id);
  });
  after(() => server.close());

  async function queriesFor(who: Owner, path: string): Promise<number> {
    const stats = server.server.ctx.db.stats;
    const before = stats.queries;
    const response = await server.request('GET', path, { token: who.token });
    assert.equal(response.status, 200, response.text);
    return stats.queries - before;
  }

  test('an owner who also holds grants reads their own data with the queries of one who holds none', async () => {
    // Warm the token caches (SQLite) with a read of something else first.
    for (const who of [owner, plain]) await queriesFor(who, '/app/users/');
    await server.request('PATCH', `/app/profiles/${profileId}/`, { token: owner.token, body: { name: 'Miss' } });
    await server.request('PATCH', `/app/profiles/${plainProfileId}/`, { token: plain.token, body: { name: 'Miss' } });
    const miss = await queriesFor(owner, `/app/profiles/${profileId}/`);
    const plainMiss = await queriesFor(plain, `/app/profiles/${plainProfileId}/`);
    assert.equal(miss, plainMiss, 'a rendering-cache miss');
    const hit = await queriesFor(owner, `/app/profiles/${profileId}/`);
    const plainHit = await queriesFor(plain, `/app/profiles/${plainProfileId}/`);
    assert.equal(hit, plainHit, 'a rendering-cache hit');
    for (const path of [`/app/users/${owner.appUserId}/`, `/app/users/${owner.appUserId}/profiles/`]) {
      const mine = await queriesFor(owner, path);
      const theirs = await queriesFor(plain, path.replace(String(owner.appUserId), String(plain.appUserId)));
      assert.equal(mine, theirs, path);
    }
  });

  test("an accessor's read of a cached rendering runs no more queries than the owner's", async () => {
    await queriesFor(accessor, `/app/profiles/${profileId}/`);
    await queriesFor(owner, `/app/profiles/${profileId}/`);
    const accessorHit = await queriesFor(accessor, `/app/profiles/${profileId}/`);
    const ownerHit = await queriesFor(owner, `/app/profiles/${profileId}/`);
    assert.equal(accessorHit, ownerHit, `accessor ${accessorHit}, owner ${ownerHit}`);
  });
});
