import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic, insertMedia, type Owner } from './fixtures.ts';

describe('items', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function ownerWithTopic(): Promise<{ owner: Owner; topicId: number }> {
    const owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    return { owner, topicId: topic.id };
  }

  test('a list item: 201, Location, list_content with its entries in order, image_content null', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const response = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: owner.token,
      body: { name: 'Chores', list_content: { entries: [{ text: ' wash ' }, { text: 'dry' }, { text: 'wash' }] } },
    });
    assert.equal(response.status, 201, response.text);
    const { id, list_content: list } = response.body;
    assert.equal(response.headers.get('location'), `${PUBLIC_URL}/app/items/${id}/`);
    assert.deepEqual(Object.keys(response.body).sort(), ['id', 'image_content', 'list_content', 'name', 'url']);
    assert.equal(response.body.image_content, null);
    assert.deepEqual(
      list.entries.map((e: { text: string }) => e.text),
      ['wash', 'dry', 'wash'],
    );
    for (const entry of list.entries) assert.equal(entry.url, `${PUBLIC_URL}/app/list-entries/${entry.id}/`);
    assert.ok(list.entries[0].id < list.entries[1].id);

    const empty = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: owner.token,
      body: { name: 'Empty', list_content: {} },
    });
    assert.equal(empty.status, 201);
    assert.deepEqual(empty.body.list_content.entries, []);
  });

  test('lists of different lengths, one longer than an INSERT chunk (500 rows), keep their entries and order', async () => {
    const { owner, topicId } = await ownerWithTopic();
    for (const length of [1, 3, 2, 3, 1000]) {
      const texts = Array.from({ length }, (_, i) => `entry ${length}-${i}`);
      const response = await server.request('POST', `/app/topics/${topicId}/items/`, {
        token: owner.token,
        body: { name: `List of ${length}`, list_content: { entries: texts.map((text) => ({ text })) } },
      });
      assert.equal(response.status, 201, response.text);
      const entries: { id: number; text: string }[] = response.body.list_content.entries;
      assert.deepEqual(
        entries.map((e) => e.text),
        texts,
      );
      const read = await server.request('GET', `/app/items/${response.body.id}/`, { token: owner.token });
      assert.deepEqual(read.body.list_content.entries, entries);
    }
  });

  test('an image item: media of the same app user in full, or null', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const image = await insertMedia(server, owner, 'face.png');
    const media = await insertMedia(server, owner, 'voice.png');
    const item = await createImageItem(server, owner, topicId, { image_resource: image, media_resource: media });
    assert.equal(item.list_content, null);
    assert.equal(item.image_content.description, 'A picture');
    assert.equal(item.image_content.image_resource.id, image);
    assert.equal(item.image_content.image_resource.name, 'face.png');
    assert.equal(item.image_content.image_resource.url, `${PUBLIC_URL}/app/media-resources/${image}/`);
    assert.equal(item.image_content.image_resource.content_type, 'image/png');
    assert.equal(item.image_content.image_resource.size, 1234);
    assert.match(item.image_content.image_resource.file, /^http:\/\/api\.test\/.+signature=/);
    assert.equal(item.image_content.media_resource.id, media);

    const bare = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: owner.token,
      body: { name: 'Bare', image_content: {}, list_content: null },
    });
    assert.equal(bare.status, 201, bare.text);
    assert.deepEqual({ ...bare.body.image_content, id: 0 }, { id: 0, description: '', image_resource: null, media_resource: null });
  });

  test('create needs exactly one content', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const bodies = [
      { name: 'Neither' },
      { name: 'Both null', image_content: null, list_content: null },
      { name: 'Both', image_content: {}, list_content: { entries: [] } },
    ];
    for (const body of bodies) {
      const response = await server.request('POST', `/app/topics/${topicId}/items/`, { token: owner.token, body });
      assert.equal(response.status, 400, body.name);
      assert.deepEqual(Object.keys(response.body), ['non_field_errors']);
    }
    assert.deepEqual((await server.request('GET', `/app/topics/${topicId}/items/`, { token: owner.token })).body, []);
  });

  test('media of another app user, or no media at all, is refused under the nested field', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const stranger = await createOwner(server);
    const theirs = await insertMedia(server, stranger);
    const mine = await insertMedia(server, owner);
    const cases: Array<[object, object]> = [
      [{ media_resource: theirs }, { image_content: { media_resource: [`Invalid pk "${theirs}" - object does not exist.`] } }],
      [
        { image_resource: theirs, media_resource: mine },
        { image_content: { image_resource: [`Invalid pk "${theirs}" - object does not exist.`] } },
      ],
      [
        { image_resource: 987654, media_resource: -3 },
        {
          image_content: {
            image_resource: ['Invalid pk "987654" - object does not exist.'],
            media_resource: ['Invalid pk "-3" - object does not exist.'],
          },
        },
      ],
      [{ media_resource: 99_999_999_999 }, { image_content: { media_resource: ['Invalid pk "99999999999" - object does not exist.'] } }],
    ];
    for (const [image, expected] of cases) {
      const response = await server.request('POST', `/app/topics/${topicId}/items/`, {
        token: owner.token,
        body: { name: 'X', image_content: image },
      });
      assert.equal(response.status, 400, JSON.stringify(image));
      assert.deepEqual(response.body, expected);
    }
    const typed = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: owner.token,
      body: { name: 'X', image_content: { media_resource: '1' } },
    });
    assert.equal(typed.status, 400);
    assert.deepEqual(typed.body, { image_content: { media_resource: ['A valid integer is required.'] } });
    assert.deepEqual((await server.request('GET', `/app/topics/${topicId}/items/`, { token: owner.token })).body, []);

    const item = await createImageItem(server, owner, topicId, { media_resource: mine });
    const patch = await server.request('PATCH', `/app/items/${item.id}/`, {
      token: owner.token,
      body: { image_content: { image_resource: theirs } },
    });
    assert.equal(patch.status, 400);
    assert.deepEqual(patch.body, { image_content: { image_resource: [`Invalid pk "${theirs}" - object does not exist.`] } });
  });

  test('nested validation errors nest', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const response = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: owner.token,
      body: { name: 'X', image_content: { description: 'd'.repeat(10_001), image_resource: 'one' } },
    });
    assert.equal(response.status, 400);
    assert.deepEqual(Object.keys(response.body.image_content).sort(), ['description', 'image_resource']);

    const entries = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: owner.token,
      body: { name: 'X', list_content: { entries: [{ text: 'ok' }, { text: '' }, { text: 'x'.repeat(256) }, 'bare', {}] } },
    });
    assert.equal(entries.status, 400);
    const list = entries.body.list_content.entries;
    assert.deepEqual(list[0], {});
    assert.ok(list[1].text);
    assert.ok(list[2].text);
    assert.ok(list[3].non_field_errors);
    assert.deepEqual(list[4], { text: ['This field is required.'] });

    const shapes = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: owner.token,
      body: { name: 'X', list_content: { entries: 'a' }, image_content: 4 },
    });
    assert.equal(shapes.status, 400);
    assert.deepEqual(shapes.body, { list_content: { entries: ['Expected a list of items.'] }, image_content: ['Expected an object.'] });
  });

  test('PATCH changes the name and the image content fields; media can be detached', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const media = await insertMedia(server, owner);
    const item = await createImageItem(server, owner, topicId, { image_resource: media, media_resource: media });
    const path = `/app/items/${item.id}/`;
    const renamed = await server.request('PATCH', path, { token: owner.token, body: { name: 'Renamed' } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Renamed');
    assert.deepEqual(renamed.body.image_content, item.image_content);

    const changed = await server.request('PATCH', path, {
      token: owner.token,
      body: { image_content: { description: 'New', media_resource: null } },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.image_content.id, item.image_content.id);
    assert.equal(changed.body.image_content.description, 'New');
    assert.equal(changed.body.image_content.image_resource.id, media);
    assert.equal(changed.body.image_content.media_resource, null);
    assert.deepEqual((await server.request('GET', path, { token: owner.token })).body, changed.body);
  });

  test('PATCH list_content.entries replaces the whole list; without entries the list stays', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const item = await createListItem(server, owner, topicId, ['a', 'b', 'c']);
    const path = `/app/items/${item.id}/`;
    const replaced = await server.request('PATCH', path, {
      token: owner.token,
      body: { list_content: { entries: [{ text: 'x' }, { text: 'y' }] } },
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.body.list_content.id, item.list_content.id);
    assert.deepEqual(
      replaced.body.list_content.entries.map((e: { text: string }) => e.text),
      ['x', 'y'],
    );
    for (const old of item.list_content.entries) {
      assert.equal((await server.request('GET', `/app/list-entries/${old.id}/`, { token: owner.token })).status, 404);
    }
    const kept = await server.request('PATCH', path, { token: owner.token, body: { name: 'N', list_content: {} } });
    assert.deepEqual(kept.body.list_content, replaced.body.list_content);
    const emptied = await server.request('PATCH', path, { token: owner.token, body: { list_content: { entries: [] } } });
    assert.deepEqual(emptied.body.list_content.entries, []);

    const refused = await server.request('PATCH', path, {
      token: owner.token,
      body: { name: 'Changed', list_content: { entries: [{ text: 'ok' }, { text: '' }] } },
    });
    assert.equal(refused.status, 400);
    const after = await server.request('GET', path, { token: owner.token });
    assert.equal(after.body.name, 'N', 'a refused PATCH changes nothing');
  });

  test('switching the content type is refused; removing the content too', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const list = await createListItem(server, owner, topicId);
    const image = await createImageItem(server, owner, topicId);
    const cases: Array<[number, object, string]> = [
      [list.id, { image_content: {} }, 'non_field_errors'],
      [list.id, { image_content: { description: 'x' }, list_content: null }, 'non_field_errors'],
      [image.id, { list_content: { entries: [{ text: 'a' }] } }, 'non_field_errors'],
      [image.id, { image_content: null }, 'image_content'],
      [list.id, { list_content: null }, 'list_content'],
    ];
    for (const [id, body, field] of cases) {
      const response = await server.request('PATCH', `/app/items/${id}/`, { token: owner.token, body: { name: 'Switched', ...body } });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body), [field]);
    }
    assert.deepEqual((await server.request('GET', `/app/items/${list.id}/`, { token: owner.token })).body, list);
    assert.deepEqual((await server.request('GET', `/app/items/${image.id}/`, { token: owner.token })).body, image);

    const harmless = await server.request('PATCH', `/app/items/${image.id}/`, {
      token: owner.token,
      body: { list_content: null, name: 'Still image' },
    });
    assert.equal(harmless.status, 200, 'null for the content the item does not have is what it already is');
    assert.equal(harmless.body.name, 'Still image');
  });

  test('PUT needs the name; GET lists by id; DELETE removes the item and its entries', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const first = await createListItem(server, owner, topicId, ['a']);
    const second = await createImageItem(server, owner, topicId);
    const put = await server.request('PUT', `/app/items/${first.id}/`, { token: owner.token, body: { list_content: { entries: [] } } });
    assert.equal(put.status, 400);
    assert.deepEqual(put.body, { name: ['This field is required.'] });
    const putOk = await server.request('PUT', `/app/items/${first.id}/`, { token: owner.token, body: { name: 'Put' } });
    assert.equal(putOk.status, 200);
    assert.deepEqual(putOk.body.list_content, first.list_content);

    const list = await server.request('GET', `/app/topics/${topicId}/items/`, { token: owner.token });
    assert.deepEqual(
      list.body.map((i: { id: number }) => i.id),
      [first.id, second.id],
    );

    assert.equal((await server.request('DELETE', `/app/items/${first.id}/`, { token: owner.token })).status, 204);
    assert.equal((await server.request('GET', `/app/items/${first.id}/`, { token: owner.token })).status, 404);
    assert.equal(
      (await server.request('GET', `/app/list-entries/${first.list_content.entries[0].id}/`, { token: owner.token })).status,
      404,
    );
    assert.deepEqual(
      (await server.request('GET', `/app/topics/${topicId}/items/`, { token: owner.token })).body.map((i: { id: number }) => i.id),
      [second.id],
    );
  });

  test('a deleted media resource leaves a null reference behind', async () => {
    const { owner, topicId } = await ownerWithTopic();
    const media = await insertMedia(server, owner);
    const item = await createImageItem(server, owner, topicId, { media_resource: media });
    await server.server.ctx.db.kysely.deleteFrom('media_resources').where('id', '=', media).execute();
    const response = await server.request('GET', `/app/items/${item.id}/`, { token: owner.token });
    assert.equal(response.status, 200);
    assert.equal(response.body.image_content.media_resource, null);
  });

  test('lists and creates under a missing topic are 404', async () => {
    const owner = await createOwner(server);
    for (const method of ['GET', 'POST']) {
      const response = await server.request(method, '/app/topics/777777/items/', {
        token: owner.token,
        body: method === 'POST' ? { name: 'A', list_content: {} } : undefined,
      });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
  });
});
