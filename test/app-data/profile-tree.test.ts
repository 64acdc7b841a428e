// The profile detail is one statement (src/app-data/views/profile-tree-query.ts): the same answer as
// the per-level reads of the same data, and on PostgreSQL a named statement the server plans
// once and then reuses (its speed on a cache miss depends on it: docs/decisions.md, the 10 % rule),
// which reads the profiles asked for together in one round trip, each only for its own account.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery } from 'kysely';
import { readProfileTree, TREE_COLUMNS, treeRow } from '../../src/app-data/views/profile-tree-query.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, stopBackgroundWork, type TestServer } from '../helpers/server.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic, insertMedia, type Owner } from './fixtures.ts';

test("each array's rows read every column from its place in the tuples", () => {
  for (const kind of Object.keys(TREE_COLUMNS) as (keyof typeof TREE_COLUMNS)[]) {
    const columns: readonly string[] = TREE_COLUMNS[kind];
    const row = treeRow(
      kind,
      columns.map((_, i) => i),
    ) as unknown as Record<string, unknown>;
    for (const [i, column] of columns.entries()) assert.equal(row[column], i, `${kind}.${column}`);
    const extra = Object.keys(row).filter((key) => !columns.includes(key) && !(kind === 'items' && key === 'entries'));
    assert.deepEqual(extra, [], kind);
  }
});

describe('the profile detail in one statement', () => {
  let server: TestServer;
  let owner: Owner;
  let profileId: number;

  before(async () => {
    // One pooled connection, so that every read runs on the connection the test inspects; no
    // rendering cache, so that every read is a miss.
    server = await startTestServer({ DATABASE_POOL_SIZE: '1', RENDER_CACHE_BYTES: '1' });
    await stopBackgroundWork(server);
    owner = await createOwner(server);
    profileId = (await createProfile(server, owner)).id;
    await createTopic(server, owner, profileId, { name: 'Empty', topic_type: 3 });
    for (let t = 0; t < 2; t++) {
      const topic = await createTopic(server, owner, profileId, { name: `Topic ${t}`, topic_type: 4 });
      await createListItem(server, owner, topic.id, ['b "quoted"', 'a\ttab', 'ünïcode ✓']);
      await createImageItem(server, owner, topic.id, {
        image_resource: await insertMedia(server, owner),
        media_resource: await insertMedia(server, owner),
      });
      await createListItem(server, owner, topic.id, []);
    }
  });
  after(() => server.close());

  test('answers what the topic reads answer, item by item, in id order', async () => {
    const detail = await server.request('GET', `/app/profiles/${profileId}/`, { token: owner.token });
    assert.equal(detail.status, 200, detail.text);
    const topics = await server.request('GET', `/app/profiles/${profileId}/topics/`, { token: owner.token });
    assert.equal(topics.status, 200, topics.text);
    assert.deepEqual(detail.body.topics, topics.body);
    const ids = detail.body.topics.flatMap((topic: { items: { id: number }[] }) => topic.items.map((item) => item.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
    assert.equal(detail.body.topics[0].items.length, 0);
    assert.deepEqual(
      detail.body.topics[1].items[0].list_content.entries.map((entry: { text: string }) => entry.text),
      ['b "quoted"', 'a\ttab', 'ünïcode ✓'],
    );
  });

  test('profiles read at once: each for its own account, a profile of another account not at all', async () => {
    const other = await createOwner(server);
    const otherProfile = (await createProfile(server, other)).id;
    const otherTopic = await createTopic(server, other, otherProfile, { name: 'Theirs', topic_type: 4 });
    await createListItem(server, other, otherTopic.id, ['only theirs']);
    const db = server.server.ctx.db;
    // Asked in one turn of the event loop: on PostgreSQL one statement reads them all.
    const [mine, theirs, mineByThem, theirsByMe, missing] = await Promise.all([
      readProfileTree(db, owner.id, profileId),
      readProfileTree(db, other.id, otherProfile),
      readProfileTree(db, other.id, profileId),
      readProfileTree(db, owner.id, otherProfile),
      readProfileTree(db, owner.id, 2_000_000_000),
    ]);
    assert.equal(mine?.id, profileId);
    assert.equal(theirs?.id, otherProfile);
    assert.equal(mineByThem, undefined);
    assert.equal(theirsByMe, undefined);
    assert.equal(missing, undefined);
    const detail = await server.request('GET', `/app/profiles/${otherProfile}/`, { token: other.token });
    assert.equal(detail.status, 200, detail.text);
    assert.deepEqual(
      detail.body.topics.map((topic: { name: string; items: { list_content: { entries: { text: string }[] } }[] }) => [
        topic.name,
        topic.items.map((item) => item.list_content.entries.map((entry) => entry.text)),
      ]),
      [['Theirs', [['only theirs']]]],
    );
  });

  test('PostgreSQL: the read and its token check planned once, then the plan is reused', {
    skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)',
  }, async () => {
    for (let i = 0; i < 10; i++) {
      assert.equal((await server.request('GET', `/app/profiles/${profileId}/`, { token: owner.token })).status, 200);
    }
    // On the connection the named statements run on (one, as the pool's size is 1).
    const rows = await server.server.ctx.db.executePrepared<{ name: string; generic_plans: number; custom_plans: number }>(
      'prepared_statements',
      CompiledQuery.raw(
        `select name, generic_plans, custom_plans from pg_prepared_statements where name in ('profile_trees', 'find_tokens') order by name`,
        [],
      ),
    );
    assert.deepEqual(
      rows.map((row) => row.name),
      ['find_tokens', 'profile_trees'],
      'the read and the token check are named statements of the connection',
    );
    for (const row of rows) {
      assert.ok(row.generic_plans >= 10 && row.custom_plans === 0, `${row.name} was planned again: ${JSON.stringify(row)}`);
    }
  });
});
