// A profile's detail assembled from its topics' kept renderings (src/app-data/views/profile-rendering.ts)
// is byte for byte the detail an instance without a rendering cache reads from the database:
// after every kind of write (every resource under a profile, media renames and deletions, a
// profile made private, a share narrowed or revoked), for the owner and for accessors with and
// without private access, and over random sequences of writes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { deleteAccessor, insertAccessor, setRights } from '../sharing/sharing-fixtures.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic, insertMedia, pathOf, type Owner } from './fixtures.ts';

describe('a profile read after a write, assembled from kept topic renderings', () => {
  let cached: TestServer;
  /** The same database, no rendering cache: every read is loaded whole. */
  let plain: TestServer;
  let owner: Owner;
  let reader: Owner;
  let readerNoPrivate: Owner;
  let readerId: number;
  let readerNoPrivateId: number;
  let open: any;
  let hidden: any;
  const topics: any[] = [];
  let listItem: any;
  let imageItem: any;
  let media: number[];

  before(async () => {
    cached = await startTestServer();
    plain = await startTestServer({ DATABASE_URL: cached.server.ctx.config.databaseUrl, RENDER_CACHE_BYTES: '0' });
    // One expiry step for the signed URLs of both.
    plain.clock.advance(cached.clock.now() - plain.clock.now());
    owner = await createOwner(cached, { firstName: 'Olive' });
    reader = await createOwner(cached, { firstName: 'Reed' });
    readerNoPrivate = await createOwner(cached, { firstName: 'Rory' });
    open = await createProfile(cached, owner, { name: 'Open' });
    hidden = await createProfile(cached, owner, { name: 'Hidden', is_private: true });
    for (const name of ['One', 'Two', 'Three']) topics.push(await createTopic(cached, owner, open.id, { name }));
    topics.push(await createTopic(cached, owner, hidden.id, { name: 'Secret' }));
    media = [await insertMedia(cached, owner, 'a.png'), await insertMedia(cached, owner, 'b.png')];
    listItem = await createListItem(cached, owner, topics[0].id, ['bread', 'milk']);
    imageItem = await createImageItem(cached, owner, topics[1].id, { image_resource: media[0], media_resource: media[1] });
    await createListItem(cached, owner, topics[2].id, ['x']);
    await createImageItem(cached, owner, topics[3].id, { image_resource: media[1] });
    readerId = await insertAccessor(cached, owner, reader.email, reader.id, { privateAccess: true });
    readerNoPrivateId = await insertAccessor(cached, owner, readerNoPrivate.email, readerNoPrivate.id, { privateAccess: false });
  });
  after(async () => {
    await plain?.close();
    await cached?.close();
  });

  /** Every caller's read of both profiles, twice (the assembled miss, then the hit), equals the uncached read. */
  async function agree(label: string): Promise<void> {
    for (const [who, token] of [
      ['owner', owner.token],
      ['reader', reader.token],
      ['reader without private access', readerNoPrivate.token],
    ] as const) {
      for (const profile of [open, hidden]) {
        const path = `/app/profiles/${profile.id}/`;
        const expected = await plain.request('GET', path, { token });
        for (const read of ['first', 'second']) {
          const got = await cached.request('GET', path, { token });
          assert.equal(got.status, expected.status, `${label}: ${who}'s ${read} read of ${profile.name}`);
          assert.equal(got.text, expected.text, `${label}: ${who}'s ${read} read of ${profile.name}`);
        }
      }
    }
  }

  async function write(method: string, path: string, body?: unknown): Promise<any> {
    const response = await cached.request(method, path, { token: owner.token, body });
    assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
    return response.body;
  }

  test('after each kind of write, for the owner and for accessors', async () => {
    await agree('warm');
    const entry = await write('POST', `/app/items/${listItem.id}/list-entries/`, { text: 'eggs' });
    await agree('a list entry created');
    await write('PATCH', pathOf(entry.url), { text: 'free-range eggs' });
    await agree('a list entry changed');
    await write('PUT', pathOf(entry.url), { text: 'six eggs' });
    await agree('a list entry replaced');
    await write('DELETE', pathOf(entry.url));
    await agree('a list entry deleted');
    await write('PATCH', pathOf(listItem.url), { list_content: { entries: [{ text: 'rye' }, { text: 'oats' }] } });
    await agree("an item's list replaced");
    await write('PATCH', pathOf(listItem.url), { name: 'Groceries' });
    await agree('an item renamed');
    await write('PUT', pathOf(imageItem.url), { name: 'Photo', image_content: { description: 'Seaside', image_resource: media[1] } });
    await agree("an item's image content replaced");
    await write('PATCH', pathOf(imageItem.url), { image_content: { media_resource: media[0] } });
    await agree("an item's media changed");
    const added = await createListItem(cached, owner, topics[2].id, ['new']);
    await agree('a list item created');
    const picture = await createImageItem(cached, owner, topics[0].id, { media_resource: media[0] });
    await agree('an image item created');
    await write('PATCH', `/app/media-resources/${media[0]}/`, { name: 'renamed.png' });
    await agree('a media resource renamed');
    await write('DELETE', `/app/media-resources/${media[0]}/`);
    await agree('a media resource deleted');
    await write('DELETE', pathOf(added.url));
    await write('DELETE', pathOf(picture.url));
    await agree('items deleted');
    await write('PATCH', pathOf(topics[1].url), { name: 'Renamed', topic_type: 4 });
    await agree('a topic renamed');
    const fresh = await createTopic(cached, owner, open.id, { name: 'Fresh' });
    await agree('a topic created');
    await createListItem(cached, owner, fresh.id, ['first']);
    await agree('an item in a new topic');
    await write('DELETE', pathOf(fresh.url));
    await agree('a topic deleted');
    await write('PATCH', pathOf(open.url), { name: 'Renamed profile', is_default: true });
    await agree('a profile renamed');
    await write('PATCH', pathOf(open.url), { is_private: true });
    await agree('a profile made private');
    await write('PATCH', pathOf(open.url), { is_private: false });
    await agree('a profile made public again');
    await setRights(cached, readerId, { canWrite: false, privateAccess: false });
    await agree('a share narrowed (private access taken)');
    await setRights(cached, readerId, { canWrite: false, privateAccess: true });
    await agree('a share widened again');
    await deleteAccessor(cached, readerNoPrivateId);
    await agree('a share revoked');
  });

  test('an accessor writing: the owner and the other accessor read what it wrote', async () => {
    const writer = await createOwner(cached, { firstName: 'Wren' });
    await insertAccessor(cached, owner, writer.email, writer.id, { canWrite: true, privateAccess: true });
    await agree('before');
    const response = await cached.request('POST', `/app/items/${listItem.id}/list-entries/`, {
      token: writer.token,
      body: { text: 'by wren' },
    });
    assert.equal(response.status, 201, response.text);
    await agree('an accessor created an entry');
    const writerRead = await cached.request('GET', `/app/profiles/${open.id}/`, { token: writer.token });
    const writerPlain = await plain.request('GET', `/app/profiles/${open.id}/`, { token: writer.token });
    assert.equal(writerRead.text, writerPlain.text);
    // Its media URLs are signed for its own access, not the owner's or the reader's.
    const files = (text: string) => [...text.matchAll(/"file":"([^"]+)"/g)].map((m) => m[1]);
    const ownerRead = await cached.request('GET', `/app/profiles/${open.id}/`, { token: owner.token });
    for (const file of files(writerRead.text)) assert.ok(!files(ownerRead.text).includes(file), 'URLs signed per accessor');
  });

  // A changed topic is assembled from its items' kept renderings: the item that changed is
  // rendered again, the others are taken as they were (migration 0043's stamps).
  test('items of one topic changed in turn: each read equals the uncached read', async () => {
    const first = await createListItem(cached, owner, topics[2].id, ['first one', 'first two']);
    const second = await createListItem(cached, owner, topics[2].id, ['second one']);
    const third = await createImageItem(cached, owner, topics[2].id, { image_resource: media[1] });
    await agree('three items in one topic');
    const [entry] = first.list_content.entries;
    await write('PATCH', pathOf(entry.url), { text: 'first, changed' });
    await agree("the first item's entry changed");
    await write('PATCH', pathOf(second.list_content.entries[0].url), { text: 'second, changed' });
    await agree("the second item's entry changed");
    await write('PATCH', pathOf(entry.url), { text: 'first, changed again' });
    await agree("the first item's entry changed again");
    await write('PATCH', pathOf(third.url), { image_content: { description: 'Third, described' } });
    await agree("the third item's description changed");
    await write('POST', `/app/items/${second.id}/list-entries/`, { text: 'second two' });
    await agree('an entry added to the second item');
    await write('PATCH', pathOf(first.url), { name: 'First, renamed' });
    await agree('the first item renamed');
    await write('DELETE', pathOf(second.url));
    await agree('the second item deleted');
  });

  // On PostgreSQL, creates sent in one turn are one call of create_list_items, which stamps their
  // topics itself (migration 0039): two into one topic, one into another.
  test('list item creates that arrive together: each topic re-rendered', async () => {
    await agree('before');
    const creates = [topics[0], topics[0], topics[2]].map((topic, i) =>
      cached.request('POST', `/app/topics/${topic.id}/items/`, {
        token: owner.token,
        body: { name: `Together ${i}`, list_content: { entries: [{ text: 'a' }, { text: 'b' }] } },
      }),
    );
    for (const response of await Promise.all(creates)) assert.equal(response.status, 201, response.text);
    await agree('three list items created together');
  });

  test('random sequences of writes: every read equals the uncached read', async () => {
    const step = fc.record({
      kind: fc.integer({ min: 0, max: 9 }),
      pick: fc.nat(),
      text: fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim() !== ''),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        run++;
        const profile = await createProfile(cached, owner, { name: `Run ${run}` });
        const ts = [
          await createTopic(cached, owner, profile.id, { name: 'A' }),
          await createTopic(cached, owner, profile.id, { name: 'B' }),
        ];
        const picture = await insertMedia(cached, owner, `p${run}.png`);
        await createListItem(cached, owner, ts[0].id, ['one']);
        await createImageItem(cached, owner, ts[1].id, { image_resource: picture });
        const read = async (server: TestServer, token: string) =>
          (await server.request('GET', `/app/profiles/${profile.id}/`, { token })).text;
        const check = async (label: string) => {
          for (const token of [owner.token, reader.token]) {
            const expected = await read(plain, token);
            assert.equal(await read(cached, token), expected, label);
            assert.equal(await read(cached, token), expected, `${label} (again)`);
          }
        };
        await check('start');
        for (const [n, s] of steps.entries()) {
          const current = JSON.parse(await read(plain, owner.token));
          const allItems = current.topics.flatMap((t: any) => t.items);
          const lists = allItems.filter((i: any) => i.list_content);
          const entries = lists.flatMap((i: any) => i.list_content.entries);
          const pick = <T>(list: T[]): T | undefined => (list.length ? list[s.pick % list.length] : undefined);
          const topic = pick(current.topics) as any;
          switch (s.kind) {
            case 0: {
              const list = pick(lists) as any;
              if (list) await write('POST', `/app/items/${list.id}/list-entries/`, { text: s.text });
              break;
            }
            case 1: {
              const entry = pick(entries) as any;
              if (entry) await write('PATCH', pathOf(entry.url), { text: s.text });
              break;
            }
            case 2: {
              const entry = pick(entries) as any;
              if (entry) await write('DELETE', pathOf(entry.url));
              break;
            }
            case 3:
              if (topic) await createListItem(cached, owner, topic.id, [s.text]);
              break;
            case 4: {
              const item = pick(allItems) as any;
              if (item) await write('PATCH', pathOf(item.url), { name: s.text });
              break;
            }
            case 5: {
              const item = pick(allItems) as any;
              if (item) await write('DELETE', pathOf(item.url));
              break;
            }
            case 6:
              await write('PATCH', `/app/media-resources/${picture}/`, { name: `${s.text}.png` });
              break;
            case 7:
              if (topic) await write('PATCH', pathOf(topic.url), { name: s.text });
              break;
            case 8:
              await createTopic(cached, owner, profile.id, { name: s.text });
              break;
            default:
              if (topic && current.topics.length > 1) await write('DELETE', pathOf(topic.url));
          }
          await check(`run ${run}, step ${n}: ${JSON.stringify(s)}`);
        }
      }),
      { numRuns: 12 },
    );
  });
});
