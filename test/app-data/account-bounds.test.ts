// Account-wide bounds (docs/app-data.md): what one app user holds as a whole — items, list entries,
// bytes of media — whatever parents they are spread over, on every path that adds, and freed by
// every path that removes (cascades included, since triggers keep the counts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';
import { pngOfSize, upload } from '../media/media-fixtures.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic, type Owner } from './fixtures.ts';

function assertBoundRefusal(response: TestResponse, pattern: RegExp): void {
  assert.equal(response.status, 400, response.text);
  assert.deepEqual(Object.keys(response.body), ['non_field_errors']);
  assert.match(response.body.non_field_errors[0], pattern);
}

const ITEMS = /at most 4 items per app user/;
const ENTRIES = /at most 6 list entries per app user/;

async function usage(server: TestServer, owner: Owner) {
  return server.server.ctx.db.kysely
    .selectFrom('app_users')
    .select(['item_count', 'entry_count', 'media_bytes'])
    .where('id', '=', owner.appUserId)
    .executeTakeFirstOrThrow();
}

describe('account-wide bounds', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      QUOTA_ITEMS_PER_ACCOUNT: '4',
      QUOTA_ENTRIES_PER_ACCOUNT: '6',
      QUOTA_MEDIA_BYTES_PER_ACCOUNT: '3000',
    });
  });
  after(() => server.close());

  test('items: counted across topics and profiles, list and image alike; removals free room, cascades too', async () => {
    const owner = await createOwner(server);
    const first = await createTopic(server, owner, (await createProfile(server, owner)).id);
    const otherProfile = await createProfile(server, owner);
    const second = await createTopic(server, owner, otherProfile.id);
    await createListItem(server, owner, first.id, []);
    await createImageItem(server, owner, first.id);
    await createListItem(server, owner, second.id, []);
    const last = await createImageItem(server, owner, second.id);
    const listBody = { name: 'L', list_content: { entries: [] } };
    assertBoundRefusal(await server.request('POST', `/app/topics/${first.id}/items/`, { token: owner.token, body: listBody }), ITEMS);
    assertBoundRefusal(
      await server.request('POST', `/app/topics/${second.id}/items/`, { token: owner.token, body: { name: 'I', image_content: {} } }),
      ITEMS,
    );
    assert.equal((await usage(server, owner)).item_count, 4);

    assert.equal((await server.request('DELETE', `/app/items/${last.id}/`, { token: owner.token })).status, 204);
    await createListItem(server, owner, first.id, []);
    // A profile's deletion takes its topics' items with it, and gives their room back.
    assert.equal((await server.request('DELETE', `/app/profiles/${otherProfile.id}/`, { token: owner.token })).status, 204);
    assert.equal((await usage(server, owner)).item_count, 3);
    await createListItem(server, owner, first.id, []);
    assertBoundRefusal(await server.request('POST', `/app/topics/${first.id}/items/`, { token: owner.token, body: listBody }), ITEMS);
  });

  test('list entries: on create, POST and whole-list replacement; a refused write keeps what was there', async () => {
    const owner = await createOwner(server);
    const topic = await createTopic(server, owner, (await createProfile(server, owner)).id);
    const a = await createListItem(server, owner, topic.id, ['1', '2', '3']);
    const b = await createListItem(server, owner, topic.id, ['4', '5']);
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `e${i}` }));

    assertBoundRefusal(
      await server.request('POST', `/app/topics/${topic.id}/items/`, {
        token: owner.token,
        body: { name: 'L', list_content: { entries: entries(2) } },
      }),
      ENTRIES,
    );
    assert.equal(
      (await server.request('POST', `/app/items/${b.id}/list-entries/`, { token: owner.token, body: { text: '6' } })).status,
      201,
    );
    assertBoundRefusal(
      await server.request('POST', `/app/items/${b.id}/list-entries/`, { token: owner.token, body: { text: '7' } }),
      ENTRIES,
    );

    // Replacing a's 3 entries with 4 would make 7; with 3 it stays at 6.
    assertBoundRefusal(
      await server.request('PATCH', `/app/items/${a.id}/`, { token: owner.token, body: { list_content: { entries: entries(4) } } }),
      ENTRIES,
    );
    const kept = await server.request('GET', `/app/items/${a.id}/`, { token: owner.token });
    assert.deepEqual(
      kept.body.list_content.entries.map((e: { text: string }) => e.text),
      ['1', '2', '3'],
    );
    const replaced = await server.request('PATCH', `/app/items/${a.id}/`, {
      token: owner.token,
      body: { list_content: { entries: entries(3) } },
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal((await usage(server, owner)).entry_count, 6);

    // Deleting an item gives its entries' room back.
    assert.equal((await server.request('DELETE', `/app/items/${a.id}/`, { token: owner.token })).status, 204);
    assert.equal((await usage(server, owner)).entry_count, 3);
    await createListItem(server, owner, topic.id, ['x', 'y', 'z']);
  });

  test('media: the bytes of the gallery as a whole; a deletion frees them', async () => {
    const owner = await createOwner(server);
    const first = await upload(server, owner.token, owner.appUserId, { name: 'a', file: pngOfSize(1400) });
    assert.equal(first.status, 201, first.text);
    assert.equal((await upload(server, owner.token, owner.appUserId, { name: 'b', file: pngOfSize(1400) })).status, 201);
    assertBoundRefusal(await upload(server, owner.token, owner.appUserId, { name: 'c', file: pngOfSize(1400) }), /at most 3000 bytes/);
    assert.equal((await usage(server, owner)).media_bytes, 2800);
    assert.equal((await server.request('DELETE', `/app/media-resources/${first.body.id}/`, { token: owner.token })).status, 204);
    assert.equal((await upload(server, owner.token, owner.appUserId, { name: 'c', file: pngOfSize(1400) })).status, 201);
  });

  test('concurrent creates never pass the bound', async () => {
    const owner = await createOwner(server);
    const topics: Array<{ id: number }> = [];
    for (let i = 0; i < 3; i++) topics.push(await createTopic(server, owner, (await createProfile(server, owner)).id));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        server.request('POST', `/app/topics/${topics[i % 3]!.id}/items/`, {
          token: owner.token,
          body: i % 2 ? { name: `I${i}`, image_content: {} } : { name: `L${i}`, list_content: { entries: [{ text: 'e' }] } },
        }),
      ),
    );
    const created = answers.filter((a) => a.status === 201).length;
    assert.equal(created, 4, answers.map((a) => a.status).join());
    for (const answer of answers) if (answer.status !== 201) assertBoundRefusal(answer, ITEMS);
    assert.equal((await usage(server, owner)).item_count, 4);
  });

  test('each account has counts of its own', async () => {
    const owner = await createOwner(server);
    const other = await createOwner(server);
    const topic = await createTopic(server, owner, (await createProfile(server, owner)).id);
    await createListItem(server, owner, topic.id, ['a', 'b']);
    assert.deepEqual(await usage(server, owner), { item_count: 1, entry_count: 2, media_bytes: 0 });
    assert.deepEqual(await usage(server, other), { item_count: 0, entry_count: 0, media_bytes: 0 });
  });
});
