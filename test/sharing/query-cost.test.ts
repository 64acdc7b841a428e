// Sharing costs owners nothing and accessors little (docs/sharing.md: a shared app user reads as
// fast as one's own): an owner who holds no grants runs no query for the access decision; one
// who also holds grants has an object by id located first (one query), as an accessor has; an
// accessor's read of a cached rendering, or of an item, runs no more queries than the owner's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { onPostgres } from '../helpers/database.ts';
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
  let itemId: number;
  let plainItemId: number;

  before(async () => {
    server = await startTestServer();
    await stopBackgroundWork(server);
    owner = await createOwner(server);
    plain = await createOwner(server);
    accessor = await createOwner(server);
    profileId = (await createProfile(server, owner)).id;
    plainProfileId = (await createProfile(server, plain)).id;
    itemId = (await createListItem(server, owner, (await createTopic(server, owner, profileId)).id, ['a', 'b'])).id;
    plainItemId = (await createListItem(server, plain, (await createTopic(server, plain, plainProfileId)).id, ['a', 'b'])).id;
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

  test('an owner who also holds grants reads their own data with one query more than one who holds none, to locate it', async () => {
    // Warm the token caches (SQLite) with a read of something else first.
    for (const who of [owner, plain]) await queriesFor(who, '/app/users/');
    await server.request('PATCH', `/app/profiles/${profileId}/`, { token: owner.token, body: { name: 'Miss' } });
    await server.request('PATCH', `/app/profiles/${plainProfileId}/`, { token: plain.token, body: { name: 'Miss' } });
    const miss = await queriesFor(owner, `/app/profiles/${profileId}/`);
    const plainMiss = await queriesFor(plain, `/app/profiles/${plainProfileId}/`);
    assert.equal(miss, plainMiss + 1, 'a rendering-cache miss');
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

  test("after the owner's write, an accessor's read runs one query more than the owner's (to locate), and the next is a hit as cheap", async () => {
    // Each reads once first: the tokens kept (SQLite) and the accessor's read noted for the hour.
    await queriesFor(accessor, `/app/profiles/${profileId}/`);
    await queriesFor(plain, `/app/profiles/${plainProfileId}/`);
    await server.request('PATCH', `/app/profiles/${profileId}/`, { token: owner.token, body: { name: 'Shared' } });
    await server.request('PATCH', `/app/profiles/${plainProfileId}/`, { token: plain.token, body: { name: 'Own' } });
    // The data version comes with the tree for both (on SQLite the write made the kept one stale).
    const accessorMiss = await queriesFor(accessor, `/app/profiles/${profileId}/`);
    const ownerMiss = await queriesFor(plain, `/app/profiles/${plainProfileId}/`);
    assert.equal(ownerMiss, onPostgres ? 2 : 1, 'the tree (and on PostgreSQL the token check)');
    assert.equal(accessorMiss, ownerMiss + 1, `accessor ${accessorMiss}, owner ${ownerMiss}`);
    const hits = server.server.ctx.cacheCounts.get('rendering')!;
    const before = hits.hits;
    const accessorHit = await queriesFor(accessor, `/app/profiles/${profileId}/`);
    const ownerHit = await queriesFor(plain, `/app/profiles/${plainProfileId}/`);
    assert.equal(hits.hits, before + 2);
    assert.equal(accessorHit, ownerHit, `accessor ${accessorHit}, owner ${ownerHit}`);
  });

  test("an accessor's item read runs the queries of an owner's who holds no grants", async () => {
    const theirs = `/app/items/${itemId}/`;
    const own = `/app/items/${plainItemId}/`;
    // Warm the token caches (SQLite) first; then read again after a write, when data versions are read anew.
    await queriesFor(plain, own);
    await queriesFor(accessor, theirs);
    const ownerRead = await queriesFor(plain, own);
    const accessorRead = await queriesFor(accessor, theirs);
    assert.equal(accessorRead, ownerRead, `accessor ${accessorRead}, owner ${ownerRead}`);
    await server.request('PATCH', own, { token: plain.token, body: { name: 'Bread' } });
    const ownerAfterWrite = await queriesFor(plain, own);
    await server.request('PATCH', theirs, { token: owner.token, body: { name: 'Bread' } });
    const accessorAfterWrite = await queriesFor(accessor, theirs);
    assert.equal(accessorAfterWrite, ownerAfterWrite, `after a write: accessor ${accessorAfterWrite}, owner ${ownerAfterWrite}`);
  });
});
