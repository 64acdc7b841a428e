// Where an object sits, for a caller with grants (src/app-data/kernel/access-queries.ts): each
// kind located by id, a missing id found nowhere; the locates of one turn of the event loop read
// in one statement, each answered with its own object.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { locate } from '../../src/app-data/kernel/access-queries.ts';
import { createListItem, createOwner, createProfile, createTopic, insertMedia, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, stopBackgroundWork, type TestServer } from '../helpers/server.ts';

describe('locating what an accessor names', () => {
  let server: TestServer;
  let owner: Owner;
  let publicProfile: number;
  let privateProfile: number;
  let topics: number[];
  let item: { id: number; list_content: { entries: { id: number }[] } };
  let media: number;

  before(async () => {
    server = await startTestServer();
    await stopBackgroundWork(server);
    owner = await createOwner(server);
    publicProfile = (await createProfile(server, owner, { name: 'Home' })).id;
    privateProfile = (await createProfile(server, owner, { name: 'Health', is_private: true })).id;
    topics = [(await createTopic(server, owner, publicProfile)).id, (await createTopic(server, owner, privateProfile)).id];
    item = await createListItem(server, owner, topics[1]!, ['one']);
    media = await insertMedia(server, owner);
  });
  after(() => server?.close());

  const where = (profileId: number | null, inPrivate: number) => ({
    account_id: owner.id,
    app_user_id: owner.appUserId,
    in_private: inPrivate,
    profile_id: profileId,
  });

  test('each kind, and a missing id, asked for together', async () => {
    const { db } = server.server.ctx;
    const found = await Promise.all([
      locate(db, 'profile', privateProfile),
      locate(db, 'topic', topics[0]!),
      locate(db, 'topic', topics[1]!),
      locate(db, 'item', item.id),
      locate(db, 'list_entry', item.list_content.entries[0]!.id),
      locate(db, 'media_resource', media),
      locate(db, 'topic', 999_999_999),
    ]);
    assert.deepEqual(
      found.map((location) => location && { ...location, in_private: Number(location.in_private) }),
      [
        where(privateProfile, 1),
        where(publicProfile, 0),
        where(privateProfile, 1),
        where(privateProfile, 1),
        where(privateProfile, 1),
        where(null, 0),
        undefined,
      ],
    );
  });

  test('the locates of one turn are one statement per kind', async () => {
    const { db } = server.server.ctx;
    const before = db.stats.queries;
    const found = await Promise.all([locate(db, 'topic', topics[1]!), locate(db, 'topic', 999_999_999), locate(db, 'topic', topics[0]!)]);
    assert.equal(db.stats.queries - before, 1);
    assert.deepEqual(
      found.map((location) => location?.profile_id),
      [privateProfile, undefined, publicProfile],
    );
  });
});
