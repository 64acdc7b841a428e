import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';
import { createListItem, createOwner, createProfile, createTopic } from './fixtures.ts';

function assertQuotaRefusal(response: TestResponse, limit: number): void {
  assert.equal(response.status, 400, response.text);
  assert.deepEqual(Object.keys(response.body), ['non_field_errors']);
  assert.match(response.body.non_field_errors[0], new RegExp(`at most ${limit} `));
}

describe('per-parent quotas', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      QUOTA_PROFILES_PER_USER: '2',
      QUOTA_TOPICS_PER_PROFILE: '2',
      QUOTA_ITEMS_PER_TOPIC: '2',
      QUOTA_ENTRIES_PER_ITEM: '3',
      QUOTA_EMERGENCY_ITEMS_PER_USER: '2',
      QUOTA_EMERGENCY_CONTACTS_PER_USER: '2',
    });
  });
  after(() => server.close());

  test('each collection takes up to its quota, then answers 400 non_field_errors', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    await createListItem(server, owner, topic.id, []);
    const cases: Array<[string, object, number]> = [
      [`/app/users/${owner.appUserId}/profiles/`, { name: 'P' }, 2],
      [`/app/profiles/${profile.id}/topics/`, { name: 'T', topic_type: 3 }, 2],
      [`/app/topics/${topic.id}/items/`, { name: 'I', image_content: {} }, 2],
      [`/app/users/${owner.appUserId}/emergency-items/`, { name: 'E' }, 2],
      [`/app/users/${owner.appUserId}/emergency-contacts/`, { name: 'C', phone_number: '123456789' }, 2],
    ];
    for (const [path, body, limit] of cases) {
      for (;;) {
        const list = await server.request('GET', path, { token: owner.token });
        if (list.body.length >= limit) break;
        assert.equal((await server.request('POST', path, { token: owner.token, body })).status, 201, path);
      }
      assertQuotaRefusal(await server.request('POST', path, { token: owner.token, body }), limit);
      assert.equal((await server.request('GET', path, { token: owner.token })).body.length, limit, path);
    }
  });

  test('quotas are per parent: another profile has room of its own', async () => {
    const owner = await createOwner(server);
    const first = await createProfile(server, owner);
    const second = await createProfile(server, owner);
    await createTopic(server, owner, first.id);
    await createTopic(server, owner, first.id);
    assertQuotaRefusal(
      await server.request('POST', `/app/profiles/${first.id}/topics/`, { token: owner.token, body: { name: 'T', topic_type: 3 } }),
      2,
    );
    await createTopic(server, owner, second.id);
  });

  test('list entries: on create, POST and whole-list replacement; a refused replacement keeps the old list', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const tooMany = [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }];
    assertQuotaRefusal(
      await server.request('POST', `/app/topics/${topic.id}/items/`, {
        token: owner.token,
        body: { name: 'L', list_content: { entries: tooMany } },
      }),
      3,
    );

    const item = await createListItem(server, owner, topic.id, ['a', 'b']);
    const path = `/app/items/${item.id}/list-entries/`;
    assert.equal((await server.request('POST', path, { token: owner.token, body: { text: 'c' } })).status, 201);
    assertQuotaRefusal(await server.request('POST', path, { token: owner.token, body: { text: 'd' } }), 3);

    const before = await server.request('GET', `/app/items/${item.id}/`, { token: owner.token });
    assertQuotaRefusal(
      await server.request('PATCH', `/app/items/${item.id}/`, {
        token: owner.token,
        body: { name: 'Changed', list_content: { entries: tooMany } },
      }),
      3,
    );
    assert.deepEqual((await server.request('GET', `/app/items/${item.id}/`, { token: owner.token })).body, before.body);

    const replaced = await server.request('PATCH', `/app/items/${item.id}/`, {
      token: owner.token,
      body: { list_content: { entries: tooMany.slice(1) } },
    });
    assert.equal(replaced.status, 200, 'a full list may be replaced by another full list');
    assert.deepEqual(
      replaced.body.list_content.entries.map((e: { text: string }) => e.text),
      ['b', 'c', 'd'],
    );
  });

  test('concurrent creates never overshoot a quota and never fail with 500', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server.request('POST', `/app/profiles/${profile.id}/topics/`, {
          token: owner.token,
          body: { name: `T${i}`, topic_type: 3 },
        }),
      ),
    );
    assert.deepEqual(responses.map((r) => r.status).sort(), [201, 201, 400, 400, 400, 400], responses.map((r) => r.text).join('\n'));
    const topics = await server.request('GET', `/app/profiles/${profile.id}/topics/`, { token: owner.token });
    assert.equal(topics.body.length, 2);
  });

  test('the items quota reads a per-topic count that follows concurrent creates and deletes', async () => {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const db = server.server.ctx.db.kysely;
    const counted = async () =>
      (await db.selectFrom('topics').select('item_count').where('id', '=', topic.id).executeTakeFirstOrThrow()).item_count;
    const post = () =>
      server.request('POST', `/app/topics/${topic.id}/items/`, { token: owner.token, body: { name: 'I', list_content: { entries: [] } } });
    const created = await Promise.all(Array.from({ length: 4 }, post));
    assert.deepEqual(created.map((r) => r.status).sort(), [201, 201, 400, 400]);
    assert.equal(await counted(), 2);
    const first = created.find((r) => r.status === 201)!;
    assert.equal((await server.request('DELETE', new URL(first.body.url).pathname, { token: owner.token })).status, 204);
    assert.equal(await counted(), 1);
    assert.equal((await post()).status, 201);
    assertQuotaRefusal(await post(), 2);
  });

  test('the per-topic count equals the items stored, for every topic', async () => {
    const db = server.server.ctx.db.kysely;
    const rows = await db
      .selectFrom('topics')
      .select((eb) => [
        'topics.id',
        'topics.item_count',
        eb.selectFrom('items').select(eb.fn.countAll<number>().as('n')).whereRef('items.topic_id', '=', 'topics.id').as('stored'),
      ])
      .execute();
    assert.ok(rows.length > 0);
    for (const row of rows) assert.equal(row.item_count, Number(row.stored), `topic ${row.id}`);
  });
});
