// The access kernel through the API (app-data/kernel/access.ts): what an accepted accessor reads and
// writes, what stays the owner's, and that a revocation or a permission change counts from the
// next request, through the rendering cache and the media URLs handed out. The accessor rows
// are written as accepting an invitation leaves them; the invitation flow has its own tests.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createListItem, createOwner, createProfile, createTopic, type Owner } from '../app-data/fixtures.ts';
import { png, upload } from '../media/media-fixtures.ts';
import { insertAccessor } from './sharing-fixtures.ts';

/** `to` becomes an accepted accessor of the owner's app user (as accepting an invitation leaves it). */
const share = (server: TestServer, owner: Owner, to: Owner, rights: { canWrite?: boolean; privateAccess?: boolean } = {}) =>
  insertAccessor(server, owner, `${to.id}@example.com`, to.id, rights);

const db = (server: TestServer) => server.server.ctx.db.kysely;

describe('access kernel', () => {
  let server: TestServer;
  let owner: Owner;
  let reader: Owner;
  let writer: Owner;
  let stranger: Owner;
  let open: { id: number };
  let hidden: { id: number };
  let topic: { id: number };
  let media: number;

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server, { firstName: 'Olive' });
    reader = await createOwner(server);
    writer = await createOwner(server);
    stranger = await createOwner(server);
    open = await createProfile(server, owner, { name: 'Open' });
    hidden = await createProfile(server, owner, { name: 'Hidden', is_private: true });
    topic = await createTopic(server, owner, open.id);
    const uploaded = await upload(server, owner.token, owner.appUserId, { name: 'Photo', file: png(), type: 'image/png' });
    assert.equal(uploaded.status, 201, uploaded.text);
    media = uploaded.body.id;
    await createListItem(server, owner, topic.id, ['bread']);
    await share(server, owner, reader);
    await share(server, owner, writer, { canWrite: true, privateAccess: true });
  });
  after(() => server?.close());

  test('GET /app/users/ lists the own app user first, then the shared ones with what the caller may do', async () => {
    const list = await server.request('GET', '/app/users/', { token: reader.token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((u: any) => [u.id, u.is_owned_by_current_user, u.permissions]),
      [
        [reader.appUserId, true, { read: true, write: true }],
        [owner.appUserId, false, { read: true, write: false }],
      ],
    );
    const detail = await server.request('GET', `/app/users/${owner.appUserId}/`, { token: reader.token });
    assert.equal(detail.status, 200);
    assert.deepEqual(
      detail.body.profiles.map((p: any) => p.name),
      ['Open'],
      'a reader without private access does not see the private profile',
    );
    const writers = await server.request('GET', `/app/users/${owner.appUserId}/`, { token: writer.token });
    assert.deepEqual(
      writers.body.profiles.map((p: any) => p.name),
      ['Open', 'Hidden'],
    );
  });

  test('a reader reads, and gets 403 on writes; a private profile is 404 for them, and everything under it', async () => {
    const profile = await server.request('GET', `/app/profiles/${open.id}/`, { token: reader.token });
    assert.equal(profile.status, 200);
    const again = await server.request('GET', `/app/profiles/${open.id}/`, { token: reader.token });
    assert.equal(again.text, profile.text, 'the rendering cache serves the same body');
    const patch = await server.request('PATCH', `/app/profiles/${open.id}/`, { token: reader.token, body: { name: 'X' } });
    assert.equal(patch.status, 403);
    assert.match(patch.body.detail, /read-only/);
    assert.equal((await server.request('GET', `/app/profiles/${hidden.id}/`, { token: reader.token })).status, 404);
    assert.equal((await server.request('PATCH', `/app/profiles/${hidden.id}/`, { token: reader.token, body: { name: 'X' } })).status, 404);
    assert.equal((await server.request('GET', `/app/profiles/${open.id}/`, { token: stranger.token })).status, 404);
    const post = await server.request('POST', `/app/users/${owner.appUserId}/profiles/`, { token: reader.token, body: { name: 'Mine' } });
    assert.equal(post.status, 403);
  });

  test('a writer writes under the owner; is_private and the app user itself stay the owner’s (403)', async () => {
    const created = await server.request('POST', `/app/profiles/${open.id}/topics/`, {
      token: writer.token,
      body: { name: 'From the writer', topic_type: 3 },
    });
    assert.equal(created.status, 201, created.text);
    const row = await db(server).selectFrom('topics').select('account_id').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    assert.equal(row.account_id, owner.id, 'the owner holds what a writer creates');
    const privacy = await server.request('PATCH', `/app/profiles/${open.id}/`, { token: writer.token, body: { is_private: true } });
    assert.equal(privacy.status, 403);
    const same = await server.request('PATCH', `/app/profiles/${open.id}/`, {
      token: writer.token,
      body: { is_private: false, name: 'Open' },
    });
    assert.equal(same.status, 200, 'sending the value it has changes nothing');
    const privateCreate = await server.request('POST', `/app/users/${owner.appUserId}/profiles/`, {
      token: writer.token,
      body: { name: 'P', is_private: true },
    });
    assert.equal(privateCreate.status, 403);
    assert.equal(
      (await server.request('PATCH', `/app/users/${owner.appUserId}/`, { token: writer.token, body: { name: 'Z' } })).status,
      403,
    );
    assert.equal((await server.request('DELETE', `/app/users/${owner.appUserId}/`, { token: writer.token })).status, 403);
  });

  test('a revocation counts from the next request: the cached rendering and the media URL stop working', async () => {
    const viewer = await createOwner(server);
    const accessorId = await share(server, owner, viewer);
    const item = await server.request('POST', `/app/topics/${topic.id}/items/`, {
      token: owner.token,
      body: { name: 'Picture', image_content: { media_resource: media } },
    });
    assert.equal(item.status, 201, item.text);
    const seen = await server.request('GET', `/app/profiles/${open.id}/`, { token: viewer.token });
    assert.equal(seen.status, 200);
    const ownerView = await server.request('GET', `/app/profiles/${open.id}/`, { token: owner.token });
    const fileUrl = (body: any) => body.topics[0].items.find((i: any) => i.image_content).image_content.media_resource.file as string;
    assert.match(fileUrl(seen.body), new RegExp(`accessor=${accessorId}&`));
    assert.doesNotMatch(fileUrl(ownerView.body), /accessor=/, 'the owner gets URLs of their own');
    const file = new URL(fileUrl(seen.body));
    assert.equal((await server.request('GET', `${file.pathname}${file.search}`)).status, 200);

    await db(server).deleteFrom('accessors').where('id', '=', accessorId).execute();
    assert.equal((await server.request('GET', `/app/profiles/${open.id}/`, { token: viewer.token })).status, 404);
    assert.equal((await server.request('GET', `${file.pathname}${file.search}`)).status, 404);
    const forged = `${file.pathname}${file.search.replace(`accessor=${accessorId}`, `accessor=${accessorId + 1}`)}`;
    assert.equal((await server.request('GET', forged)).status, 404, 'the accessor id is signed');
  });

  test('private access taken away, or the profile made private, counts from the next request', async () => {
    const viewer = await createOwner(server);
    const accessorId = await share(server, owner, viewer, { privateAccess: true });
    assert.equal((await server.request('GET', `/app/profiles/${hidden.id}/`, { token: viewer.token })).status, 200);
    await db(server).updateTable('accessors').set({ has_private_profile_access: 0 }).where('id', '=', accessorId).execute();
    assert.equal((await server.request('GET', `/app/profiles/${hidden.id}/`, { token: viewer.token })).status, 404);

    const profile = await createProfile(server, owner, { name: 'Soon private' });
    assert.equal((await server.request('GET', `/app/profiles/${profile.id}/`, { token: viewer.token })).status, 200);
    const made = await server.request('PATCH', `/app/profiles/${profile.id}/`, { token: owner.token, body: { is_private: true } });
    assert.equal(made.status, 200);
    assert.equal(made.body.is_private, true);
    assert.equal((await server.request('GET', `/app/profiles/${profile.id}/`, { token: viewer.token })).status, 404);
  });
});
