// PostgreSQL: list item creates that arrive together go to the database as one call
// (src/app-data/list-item-creates.ts, migration 0012). Each still gets its own answer: a
// foreign topic is 404 and a full topic 400 for that create alone, the quota is exact within
// one call, and entries keep their order. The creates are handed to the module in one turn
// here, so that they share a call for certain (over HTTP that depends on arrival).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createListItemTogether, type ListItemCreate } from '../../src/app-data/list-item-creates.ts';
import { DomainError } from '../../src/errors.ts';
import { writeErrorBody } from '../../src/http/error-language.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, stopBackgroundWork, type TestServer } from '../helpers/server.ts';
import { createListItem, createOwner, createProfile, createTopic, type Owner } from './fixtures.ts';

describe('list item creates that arrive together (PostgreSQL)', { skip: !onPostgres && 'PostgreSQL only' }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ QUOTA_ITEMS_PER_TOPIC: '2' });
    // No background queries (the outbox worker polls every 100 ms in tests): the count below is the call's own.
    await stopBackgroundWork(server);
  });
  after(() => server.close());

  async function topicOf(owner: Owner): Promise<number> {
    const profile = await createProfile(server, owner);
    return (await createTopic(server, owner, profile.id)).id;
  }

  /** What each create came to: created, or the kind of error the service answers with. */
  const outcomeOf = (settled: PromiseSettledResult<unknown>) =>
    settled.status === 'fulfilled' ? 'created' : settled.reason instanceof DomainError ? settled.reason.kind : String(settled.reason);

  test('one call; each create answered on its own; entries in order', async () => {
    const [ada, bob, cy] = [await createOwner(server), await createOwner(server), await createOwner(server)];
    const [adaTopic, bobTopic, cyTopic] = [await topicOf(ada), await topicOf(bob), await topicOf(cy)];
    await createListItem(server, cy, cyTopic, []);
    await createListItem(server, cy, cyTopic, []);
    const creates: ListItemCreate[] = [
      // Accounts out of order: the module sorts them for the database and answers each in place.
      { accountId: cy.id, topicId: cyTopic, name: 'over the quota', texts: ['x'] },
      { accountId: bob.id, topicId: bobTopic, name: 'three', texts: ['c', 'a', 'b'] },
      { accountId: ada.id, topicId: bobTopic, name: "someone else's topic", texts: [] },
      { accountId: ada.id, topicId: adaTopic, name: 'none', texts: [] },
      { accountId: bob.id, topicId: 2_147_483_647, name: 'no such topic', texts: ['y'] },
    ];
    const stats = server.server.ctx.db.stats;
    const before = stats.queries;
    const settled = await Promise.allSettled(creates.map((c) => createListItemTogether(server.server.ctx, c)));
    assert.equal(stats.queries - before, 1, 'one database call for the five');
    assert.deepEqual(settled.map(outcomeOf), ['invalid', 'created', 'not-found', 'created', 'not-found']);

    const three = (settled[1] as PromiseFulfilledResult<Awaited<ReturnType<typeof createListItemTogether>>>).value;
    assert.deepEqual(
      three.entries.map((e) => e.text),
      ['c', 'a', 'b'],
    );
    const read = await server.request('GET', `/app/items/${three.itemId}/`, { token: bob.token });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(
      read.body.list_content.entries.map((e: { id: number; text: string }) => [e.id, e.text]),
      three.entries.map((e) => [e.id, e.text]),
    );
    // The refused creates wrote nothing.
    const listed = async (owner: Owner, topic: number) =>
      (await server.request('GET', `/app/topics/${topic}/items/`, { token: owner.token })).body.map((i: { name: string }) => i.name);
    assert.equal((await listed(cy, cyTopic)).length, 2);
    assert.deepEqual(await listed(bob, bobTopic), ['three']);
    assert.deepEqual(await listed(ada, adaTopic), ['none']);
  });

  test('the quota is exact within one call: of two creates into a topic with room for one, the second is refused', async () => {
    const owner = await createOwner(server);
    const topic = await topicOf(owner);
    await createListItem(server, owner, topic, []);
    const both = [1, 2].map((n) =>
      createListItemTogether(server.server.ctx, { accountId: owner.id, topicId: topic, name: `#${n}`, texts: [] }),
    );
    const settled = await Promise.allSettled(both);
    assert.deepEqual(settled.map(outcomeOf), ['created', 'invalid']);
    const refusal = (settled[1] as PromiseRejectedResult).reason as DomainError;
    assert.match(JSON.stringify(writeErrorBody(refusal.body, 'en')), /at most 2 items in a topic/);
  });
});
