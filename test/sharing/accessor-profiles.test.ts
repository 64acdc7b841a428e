// docs/sharing.md, "Shares that show less": an accessor limited to some profiles. The others do
// not exist for it — 404 on every route, absent from lists, from the changes feed and from live
// streams — while the app user's emergency data and gallery stay shared (but a picture only
// the other private profiles show: private-media.test.ts). Narrowing a share takes
// effect from the next request, through the rendering cache; the changes since an older cursor
// begin with the deletion of each profile lost, a live stream ends and resumes with them, and a
// share that grew refuses the older cursor (410).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { nextEvents, openStream } from '../sync/event-reader.ts';
import { insertAccessor, makeTree, type Tree } from './sharing-fixtures.ts';

async function call(server: TestServer, method: string, path: string, token: string, body?: unknown) {
  return server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
}

async function created(server: TestServer, token: string, path: string, body: unknown): Promise<any> {
  const response = await call(server, 'POST', path, token, body);
  assert.equal(response.status, 201, response.text);
  return response.body;
}

async function setProfiles(server: TestServer, owner: Owner, accessorId: number, profiles: number[] | null): Promise<any> {
  const response = await call(server, 'PATCH', `/app/accessors/${accessorId}/`, owner.token, { profiles });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

describe('accessors limited to some profiles', () => {
  let server: TestServer;
  let owner: Owner;
  let tree: Tree;
  /** A second public profile, with a topic holding one item. */
  let second: { profile: number; topic: number; item: number };
  before(async () => {
    server = await startTestServer({ EVENT_HEARTBEAT: '200ms' });
    owner = await createOwner(server, { firstName: 'Olive' });
    tree = await makeTree(server, owner);
    const profile = await created(server, owner.token, `/app/users/${owner.appUserId}/profiles/`, { name: 'School' });
    const topic = await created(server, owner.token, `/app/profiles/${profile.id}/topics/`, { name: 'Teachers', topic_type: 3 });
    const item = await created(server, owner.token, `/app/topics/${topic.id}/items/`, {
      name: 'Ms Lovelace',
      list_content: { entries: [] },
    });
    second = { profile: profile.id, topic: topic.id, item: item.id };
  });
  after(() => server.close());

  test('only profiles of the app user: any other id is 400 under profiles, named; repeats collapse; the list reads back ascending', async () => {
    const other = await createOwner(server);
    const foreign = await created(server, other.token, `/app/users/${other.appUserId}/profiles/`, { name: 'Theirs' });
    const refused = await call(server, 'POST', `/app/users/${owner.appUserId}/accessors/`, owner.token, {
      email: 'limited-invite@example.com',
      profiles: [tree.public.profile, foreign.id, 9_999_999_999_999],
    });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body, { profiles: [`Not profiles of this app user: ${foreign.id}, 9999999999999.`] });
    for (const profiles of ['all', [1.5], [true], 7]) {
      const wrong = await call(server, 'POST', `/app/users/${owner.appUserId}/accessors/`, owner.token, {
        email: 'typed@example.com',
        profiles,
      });
      assert.equal(wrong.status, 400, `${JSON.stringify(profiles)}: ${wrong.text}`);
      assert.ok(wrong.body.profiles, wrong.text);
    }
    const invited = await created(server, owner.token, `/app/users/${owner.appUserId}/accessors/`, {
      email: 'limited-invite@example.com',
      profiles: [second.profile, tree.public.profile, second.profile],
    });
    assert.deepEqual(
      invited.profiles,
      [tree.public.profile, second.profile].sort((a, b) => a - b),
    );
    const everything = await created(server, owner.token, `/app/users/${owner.appUserId}/accessors/`, { email: 'all-of-it@example.com' });
    assert.equal(everything.profiles, null, 'null: every profile');
    const patched = await call(server, 'PATCH', `/app/accessors/${invited.id}/`, owner.token, { profiles: [foreign.id] });
    assert.equal(patched.status, 400, patched.text);
    assert.deepEqual(
      (await call(server, 'GET', `/app/accessors/${invited.id}/`, owner.token)).body.profiles,
      invited.profiles,
      'unchanged',
    );
  });

  test('a limited writer sees and changes its profiles only; the others are 404 everywhere; emergency data and gallery stay', async () => {
    const carer = await createOwner(server, { firstName: 'Carer' });
    const accessorId = await insertAccessor(server, owner, carer.email, carer.id, { canWrite: true, privateAccess: true });
    await setProfiles(server, owner, accessorId, [second.profile]);
    const appUser = await call(server, 'GET', `/app/users/${owner.appUserId}/`, carer.token);
    assert.equal(appUser.status, 200, appUser.text);
    assert.deepEqual(
      appUser.body.profiles.map((p: { id: number }) => p.id),
      [second.profile],
      'the app user shows the listed profile only',
    );
    const listed = await call(server, 'GET', `/app/users/${owner.appUserId}/profiles/`, carer.token);
    assert.deepEqual(
      listed.body.map((p: { id: number }) => p.id),
      [second.profile],
    );
    for (const path of [
      `/app/profiles/${second.profile}/`,
      `/app/profiles/${second.profile}/topics/`,
      `/app/topics/${second.topic}/items/`,
      `/app/items/${second.item}/`,
      `/app/users/${owner.appUserId}/emergency-items/`,
      `/app/users/${owner.appUserId}/emergency-contacts/`,
      `/app/media-resources/${tree.public.media}/`,
    ]) {
      assert.equal((await call(server, 'GET', path, carer.token)).status, 200, path);
    }
    const gallery = await call(server, 'GET', `/app/users/${owner.appUserId}/gallery/`, carer.token);
    assert.deepEqual(
      gallery.body.map((m: { id: number }) => m.id),
      [tree.public.media],
      'the gallery, but the picture only a private profile it is not limited to shows',
    );
    assert.equal((await call(server, 'GET', `/app/media-resources/${tree.private.media}/`, carer.token)).status, 404);
    for (const branch of [tree.public, tree.private]) {
      for (const path of [
        `/app/profiles/${branch.profile}/`,
        `/app/profiles/${branch.profile}/topics/`,
        `/app/topics/${branch.topic}/`,
        `/app/topics/${branch.topic}/items/`,
        `/app/items/${branch.listItem}/`,
        `/app/items/${branch.listItem}/list-entries/`,
        `/app/list-entries/${branch.entries[0]}/`,
      ]) {
        const response = await call(server, 'GET', path, carer.token);
        assert.equal(response.status, 404, `GET ${path}: ${response.text}`);
      }
      assert.equal((await call(server, 'PATCH', `/app/profiles/${branch.profile}/`, carer.token, { name: 'x' })).status, 404);
      assert.equal(
        (await call(server, 'POST', `/app/profiles/${branch.profile}/topics/`, carer.token, { name: 'x', topic_type: 3 })).status,
        404,
      );
      assert.equal(
        (await call(server, 'POST', `/app/topics/${branch.topic}/items/`, carer.token, { name: 'x', list_content: { entries: [] } }))
          .status,
        404,
      );
      assert.equal((await call(server, 'DELETE', `/app/items/${branch.imageItem}/`, carer.token)).status, 404);
    }
    const added = await call(server, 'POST', `/app/topics/${second.topic}/items/`, carer.token, {
      name: 'Mr Babbage',
      list_content: { entries: [] },
    });
    assert.equal(added.status, 201, added.text);
    assert.equal((await call(server, 'DELETE', `/app/items/${added.body.id}/`, carer.token)).status, 204);
    // The owner sees everything, as before.
    assert.equal((await call(server, 'GET', `/app/users/${owner.appUserId}/profiles/`, owner.token)).body.length, 3);
  });

  test('narrowed: the next read is 404 through the cache, the changes begin with the profiles lost, a stream ends and resumes with them', async () => {
    const reader = await createOwner(server, { firstName: 'Reader' });
    const accessorId = await insertAccessor(server, owner, reader.email, reader.id);
    const changes = `/app/users/${owner.appUserId}/changes/`;
    const cursor = (await call(server, 'GET', changes, reader.token)).body.cursor as string;
    for (let i = 0; i < 2; i++)
      assert.equal((await call(server, 'GET', `/app/profiles/${tree.public.profile}/`, reader.token)).status, 200);
    const stream = await openStream(server, `/app/users/${owner.appUserId}/events/`, reader.token);
    assert.equal(stream.status, 200);
    // Something to see before the narrowing, so the stream has an event to resume after.
    assert.equal((await call(server, 'PATCH', `/app/topics/${second.topic}/`, owner.token, { name: 'Teachers 2' })).status, 200);
    const [seen] = await nextEvents(stream, 1);
    assert.deepEqual(seen!.data, { type: 'topic', id: second.topic, op: 'upsert' });

    await setProfiles(server, owner, accessorId, [second.profile]);
    await stream.ended;
    assert.equal((await call(server, 'GET', `/app/profiles/${tree.public.profile}/`, reader.token)).status, 404, 'not from the cache');
    assert.equal((await call(server, 'GET', `/app/profiles/${second.profile}/`, reader.token)).status, 200);

    // The owner writes under both profiles after the narrowing.
    assert.equal((await call(server, 'PATCH', `/app/topics/${tree.public.topic}/`, owner.token, { name: 'Open 2' })).status, 200);
    assert.equal((await call(server, 'PATCH', `/app/items/${second.item}/`, owner.token, { name: 'Ms Lovelace 2' })).status, 200);

    const page = await call(server, 'GET', `${changes}?since=${encodeURIComponent(cursor)}`, reader.token);
    assert.equal(page.status, 200, page.text);
    const shown = page.body.changes.map((c: { type: string; id: number; op: string }) => `${c.op} ${c.type} ${c.id}`);
    assert.deepEqual(
      shown,
      [`delete profile ${tree.public.profile}`, `upsert topic ${second.topic}`, `upsert item ${second.item}`],
      'the lost profile first (not the private one it never saw), then only what lies under the listed one',
    );

    const resumed = await openStream(server, `/app/users/${owner.appUserId}/events/`, reader.token, seen!.id);
    assert.equal(resumed.status, 200);
    const events = await nextEvents(resumed, 2);
    assert.deepEqual(
      events.map((e) => e.data),
      [
        { type: 'profile', id: tree.public.profile, op: 'delete' },
        { type: 'item', id: second.item, op: 'upsert' },
      ],
    );
    resumed.close();

    // Its cursor now carries the narrower list: taken again, nothing is lost twice.
    const again = await call(server, 'GET', `${changes}?since=${encodeURIComponent(page.body.cursor)}`, reader.token);
    assert.deepEqual(again.body.changes, []);

    // Widened: a cursor of the narrower share no longer fits what the client holds.
    await setProfiles(server, owner, accessorId, null);
    const stale = await call(server, 'GET', `${changes}?since=${encodeURIComponent(page.body.cursor)}`, reader.token);
    assert.equal(stale.status, 410, stale.text);
    assert.equal((await call(server, 'GET', `/app/profiles/${tree.public.profile}/`, reader.token)).status, 200);
  });

  test('to the person invited without private access, the list names only the profiles they can see', async () => {
    const carer = await createOwner(server, { firstName: 'Carer' });
    const accessorId = await insertAccessor(server, owner, carer.email, carer.id);
    const chosen = [tree.public.profile, tree.private.profile, second.profile].sort((a, b) => a - b);
    await setProfiles(server, owner, accessorId, chosen);
    const path = `/app/accessors/${accessorId}/`;
    const seen = [tree.public.profile, second.profile].sort((a, b) => a - b);
    const mine = await call(server, 'GET', path, carer.token);
    assert.deepEqual(mine.body.profiles, seen, 'not the private one');
    const listed = await call(server, 'GET', '/app/accessors/', carer.token);
    assert.deepEqual(listed.body.find((a: { id: number }) => a.id === accessorId).profiles, seen);
    assert.deepEqual((await call(server, 'GET', path, owner.token)).body.profiles, chosen, 'the owner sees the list as it is');
    // With private access the private one is theirs to see.
    assert.equal((await call(server, 'PATCH', path, owner.token, { has_private_profile_access: true })).status, 200);
    assert.deepEqual((await call(server, 'GET', path, carer.token)).body.profiles, chosen);
    // Their view's tag is the one a leave is held to.
    assert.equal((await call(server, 'PATCH', path, owner.token, { has_private_profile_access: false })).status, 200);
    const tag = String((await call(server, 'GET', path, carer.token)).headers.get('etag'));
    const left = await server.request('DELETE', path, { token: carer.token, headers: { 'if-match': tag } });
    assert.equal(left.status, 204, left.text);
  });

  test('a deleted profile leaves every list; an empty list shows no profile', async () => {
    const reader = await createOwner(server);
    const accessorId = await insertAccessor(server, owner, reader.email, reader.id);
    const doomed = await created(server, owner.token, `/app/users/${owner.appUserId}/profiles/`, { name: 'Doomed' });
    assert.deepEqual((await setProfiles(server, owner, accessorId, [doomed.id, second.profile])).profiles, [second.profile, doomed.id]);
    assert.equal((await call(server, 'DELETE', `/app/profiles/${doomed.id}/`, owner.token)).status, 204);
    assert.deepEqual((await call(server, 'GET', `/app/accessors/${accessorId}/`, owner.token)).body.profiles, [second.profile]);
    await setProfiles(server, owner, accessorId, []);
    assert.deepEqual((await call(server, 'GET', `/app/users/${owner.appUserId}/profiles/`, reader.token)).body, []);
    assert.equal((await call(server, 'GET', `/app/users/${owner.appUserId}/emergency-items/`, reader.token)).status, 200);
    const log = await call(server, 'GET', `/app/users/${owner.appUserId}/activity/`, owner.token);
    assert.ok(
      log.body.events.some((e: { action: string; object: { id: number } | null }) => e.action === 'changed' && e.object?.id === accessorId),
      'a change of the list is in the owner’s activity log',
    );
  });
});
