// Sharing across instances (docs/production.md, docs/sharing.md): a revocation, a permission change and a profile
// made private, made through one instance, count from the accessor's next request on another,
// whose rendering cache already holds what the accessor read there; and a file URL handed to
// the accessor stops working on every instance when their access ends. Two instances on one
// PostgreSQL database and one media store. Accessor rows are written through instance A's
// database connection, as the owner's revocation or permission change leaves them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { onPostgres } from '../helpers/database.ts';
import { testMediaStorageEnv } from '../helpers/media-storage.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { download } from '../media/media-fixtures.ts';
import { deleteAccessor, insertAccessor, makeTree, setRights, type Tree } from '../sharing/sharing-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('sharing on two instances', { skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)' }, () => {
  let a: TestServer;
  let b: TestServer;
  let owner: Owner;
  let tree: Tree;
  before(async () => {
    const storage = await testMediaStorageEnv(tempDir('multi-instance-sharing-'));
    a = await startTestServer(storage);
    b = await startTestServer({ ...storage, DATABASE_URL: a.server.ctx.config.databaseUrl });
    owner = await createOwner(a, { firstName: 'Olive' });
    tree = await makeTree(a, owner);
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  /** An account the owner shares with, through A's database. */
  async function accessor(rights: { canWrite?: boolean; privateAccess?: boolean }): Promise<{ person: Owner; accessorId: number }> {
    const person = await createOwner(a);
    return { person, accessorId: await insertAccessor(a, owner, person.email, person.id, rights) };
  }

  /** Reads `path` on B twice as `token`: 200 both times, the second from B's rendering cache. */
  async function warm(path: string, token: string) {
    const counts = b.server.ctx.cacheCounts.get('rendering')!;
    const first = await b.request('GET', path, { token });
    assert.equal(first.status, 200, `GET ${path} on B: ${first.text}`);
    const hits = counts.hits;
    const second = await b.request('GET', path, { token });
    assert.equal(second.status, 200, second.text);
    assert.equal(counts.hits, hits + 1, `GET ${path} on B: the second read is served from B's rendering cache`);
    assert.equal(second.text, first.text);
    return second.body;
  }

  /** The status of a signed file URL fetched from `server` (its body read, so no connection is left open). */
  async function fileStatus(server: TestServer, url: string): Promise<number> {
    const response = await download(server, url);
    await response.arrayBuffer();
    return response.status;
  }

  const profilePath = (profile: number) => `/app/profiles/${profile}/`;
  const itemsPath = () => `/app/topics/${tree.public.topic}/items/`;

  test('revoked through A: the accessor’s next request on B is 404, though B has their renderings cached', async () => {
    const { person, accessorId } = await accessor({ privateAccess: true });
    await warm(profilePath(tree.public.profile), person.token);
    await warm(itemsPath(), person.token);
    await warm(profilePath(tree.private.profile), person.token);

    await deleteAccessor(a, accessorId);
    for (const path of [
      profilePath(tree.public.profile),
      itemsPath(),
      profilePath(tree.private.profile),
      `/app/users/${owner.appUserId}/`,
    ]) {
      const response = await b.request('GET', path, { token: person.token });
      assert.equal(response.status, 404, `GET ${path} on B after the revocation: ${response.text}`);
    }
    const list = await b.request('GET', '/app/users/', { token: person.token });
    assert.deepEqual(
      list.body.map((user: { id: number }) => user.id),
      [person.appUserId],
      'B lists only their own app user',
    );
    assert.equal(
      (await b.request('GET', profilePath(tree.public.profile), { token: owner.token })).status,
      200,
      'the owner still reads it on B',
    );
  });

  test('write access taken away through A: the next write on B is 403, reads go on', async () => {
    const { person, accessorId } = await accessor({ canWrite: true, privateAccess: true });
    await warm(profilePath(tree.public.profile), person.token);
    const renamed = await b.request('PATCH', `/app/topics/${tree.public.topic}/`, { token: person.token, body: { name: 'Renamed on B' } });
    assert.equal(renamed.status, 200, renamed.text);
    await warm(profilePath(tree.public.profile), person.token);

    await setRights(a, accessorId, { canWrite: false, privateAccess: true });
    const refused = await b.request('PATCH', `/app/topics/${tree.public.topic}/`, { token: person.token, body: { name: 'Again on B' } });
    assert.equal(refused.status, 403, `PATCH on B after the change: ${refused.text}`);
    assert.match(refused.body.detail, /read-only/);
    const created = await b.request('POST', `/app/profiles/${tree.public.profile}/topics/`, {
      token: person.token,
      body: { name: 'New', topic_type: 3 },
    });
    assert.equal(created.status, 403, `POST on B after the change: ${created.text}`);
    const read = await b.request('GET', profilePath(tree.public.profile), { token: person.token });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.topics[0].name, 'Renamed on B', 'the refused write changed nothing');
    const list = await b.request('GET', '/app/users/', { token: person.token });
    assert.deepEqual(list.body[1].permissions, { read: true, write: false }, 'B shows the new permissions');
  });

  test('a profile made private on A is 404 on B for a reader without private access, and gone from their lists', async () => {
    const { person } = await accessor({});
    const { person: trusted } = await accessor({ privateAccess: true });
    const profile = (
      await a.request('POST', `/app/users/${owner.appUserId}/profiles/`, { token: owner.token, body: { name: 'Soon private' } })
    ).body;
    const topic = (
      await a.request('POST', `/app/profiles/${profile.id}/topics/`, { token: owner.token, body: { name: 'T', topic_type: 3 } })
    ).body;
    await warm(profilePath(profile.id), person.token);
    await warm(`/app/topics/${topic.id}/items/`, person.token);
    await warm(profilePath(profile.id), trusted.token);

    const made = await a.request('PATCH', profilePath(profile.id), { token: owner.token, body: { is_private: true } });
    assert.equal(made.status, 200, made.text);
    for (const path of [profilePath(profile.id), `/app/topics/${topic.id}/items/`, `/app/topics/${topic.id}/`]) {
      const response = await b.request('GET', path, { token: person.token });
      assert.equal(response.status, 404, `GET ${path} on B after the profile was made private: ${response.text}`);
    }
    const profiles = await b.request('GET', `/app/users/${owner.appUserId}/profiles/`, { token: person.token });
    assert.ok(!profiles.body.some((p: { id: number }) => p.id === profile.id), 'absent from the profiles list on B');
    const detail = await b.request('GET', `/app/users/${owner.appUserId}/`, { token: person.token });
    assert.ok(!detail.body.profiles.some((p: { id: number }) => p.id === profile.id), "absent from the app user's profiles on B");
    const seen = await b.request('GET', profilePath(profile.id), { token: trusted.token });
    assert.equal(seen.status, 200, 'a reader with private access still reads it on B');
    assert.equal(seen.body.is_private, true);
  });

  test('private access taken away through A: the private profile is 404 on B', async () => {
    const { person, accessorId } = await accessor({ privateAccess: true });
    await warm(profilePath(tree.private.profile), person.token);
    await setRights(a, accessorId, { canWrite: false, privateAccess: false });
    const response = await b.request('GET', profilePath(tree.private.profile), { token: person.token });
    assert.equal(response.status, 404, response.text);
    assert.equal((await b.request('GET', profilePath(tree.public.profile), { token: person.token })).status, 200);
  });

  test('a file URL handed to the accessor before the revocation is 404 on B afterwards; the owner’s still works', async () => {
    const { person, accessorId } = await accessor({});
    const handed = await a.request('GET', `/app/media-resources/${tree.public.media}/`, { token: person.token });
    assert.equal(handed.status, 200, handed.text);
    const url: string = handed.body.file;
    assert.match(url, new RegExp(`[?&]accessor=${accessorId}&`));
    const viaB = (await warm(itemsPath(), person.token)).find((item: any) => item.image_content).image_content.media_resource.file;
    assert.equal(await fileStatus(b, url), 200, 'the URL handed by A works on B');
    assert.equal(await fileStatus(b, viaB), 200, 'the URL B rendered works on B');
    const ownerUrl = (await a.request('GET', `/app/media-resources/${tree.public.media}/`, { token: owner.token })).body.file;

    await deleteAccessor(a, accessorId);
    for (const [server, name] of [
      [b, 'B'],
      [a, 'A'],
    ] as const) {
      assert.equal(await fileStatus(server, url), 404, `the URL handed by A, on ${name}`);
      assert.equal(await fileStatus(server, viaB), 404, `the URL rendered by B, on ${name}`);
    }
    assert.equal(await fileStatus(b, ownerUrl), 200, "the owner's URL still works on B");
  });
});
