// The access table's rows inside a profile (docs/app-data.md, docs/sharing.md): the profile detail, its topics,
// items and list entries, once for the public profile and once for the private one.
import assert from 'node:assert/strict';
import {
  assertCreated,
  assertFileFor,
  assertGone,
  ids,
  ownerCreates,
  privacyChange,
  reads,
  writes,
  type Answer,
  type Cell,
  type Row,
  type World,
} from './access-cells.ts';
import type { Branch, Where } from './sharing-fixtures.ts';

const imageOf = (items: any[]) => items.find((item) => item.image_content !== null);

function profileRows(where: Where): Row[] {
  const branch = (w: World): Branch => w.tree[where];
  const path = `/app/profiles/{${where} profile}/`;
  const isPrivate = where === 'private';
  const fresh = async (w: World) =>
    (await ownerCreates(w, `/app/users/${w.tree.owner.appUserId}/profiles/`, { name: 'Fresh', is_private: isPrivate })).id;
  const changed = (id: number, name: string, privacy: boolean) => (answer: Answer, cell: Cell) => {
    assert.equal(answer.body.id, id, `${cell.label}: the profile's id`);
    assert.equal(answer.body.name, name, `${cell.label}: the name`);
    assert.equal(answer.body.is_private, privacy, `${cell.label}: is_private`);
    assert.ok(Array.isArray(answer.body.topics), `${cell.label}: the detail's topics`);
  };
  return [
    {
      method: 'GET',
      path,
      expect: reads(where),
      prepare: async (w) => ({
        path: `/app/profiles/${branch(w).profile}/`,
        check: (answer, cell) => {
          assert.equal(answer.body.id, branch(w).profile, `${cell.label}: the profile's id`);
          assert.equal(answer.body.is_private, isPrivate, `${cell.label}: is_private`);
          assert.deepEqual(ids(answer.body.topics), [branch(w).topic], `${cell.label}: its topics`);
          assert.deepEqual(ids(answer.body.topics[0].items), [branch(w).listItem, branch(w).imageItem], `${cell.label}: its items`);
          assertFileFor(cell, imageOf(answer.body.topics[0].items).image_content.media_resource.file);
        },
      }),
    },
    {
      method: 'PATCH',
      path: `${path} {name}`,
      expect: writes(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return {
          path: `/app/profiles/${id}/`,
          body: { name: 'Renamed' },
          witness: `/app/profiles/${id}/`,
          check: changed(id, 'Renamed', isPrivate),
        };
      },
    },
    {
      method: 'PATCH',
      path: `${path} {is_private: ${!isPrivate}}`,
      expect: privacyChange(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return {
          path: `/app/profiles/${id}/`,
          body: { is_private: !isPrivate },
          witness: `/app/profiles/${id}/`,
          check: changed(id, 'Fresh', !isPrivate),
        };
      },
    },
    {
      method: 'PATCH',
      path: `${path} {is_private: ${isPrivate}, name} (is_private unchanged)`,
      expect: writes(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return {
          path: `/app/profiles/${id}/`,
          body: { is_private: isPrivate, name: 'Same privacy' },
          witness: `/app/profiles/${id}/`,
          check: changed(id, 'Same privacy', isPrivate),
        };
      },
    },
    {
      method: 'PUT',
      path: `${path} {name} (is_private left out: kept)`,
      expect: writes(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return {
          path: `/app/profiles/${id}/`,
          body: { name: 'Replaced' },
          witness: `/app/profiles/${id}/`,
          check: changed(id, 'Replaced', isPrivate),
        };
      },
    },
    {
      method: 'DELETE',
      path,
      expect: writes(204, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return { path: `/app/profiles/${id}/`, witness: `/app/profiles/${id}/`, check: assertGone(`/app/profiles/${id}/`) };
      },
    },
  ];
}

function topicRows(where: Where): Row[] {
  const branch = (w: World): Branch => w.tree[where];
  const collection = `/app/profiles/{${where} profile}/topics/`;
  const path = `/app/topics/{${where} topic}/`;
  const fresh = async (w: World) =>
    (await ownerCreates(w, `/app/profiles/${branch(w).profile}/topics/`, { name: 'Fresh', topic_type: 3 })).id;
  const changed = (id: number, name: string, type: number) => (answer: Answer, cell: Cell) => {
    assert.equal(answer.body.id, id, `${cell.label}: the topic's id`);
    assert.equal(answer.body.name, name, `${cell.label}: the name`);
    assert.equal(answer.body.topic_type, type, `${cell.label}: the type`);
  };
  return [
    {
      method: 'GET',
      path: collection,
      expect: reads(where),
      prepare: async (w) => ({
        path: `/app/profiles/${branch(w).profile}/topics/`,
        check: (answer, cell) => {
          assert.deepEqual(ids(answer.body), [branch(w).topic], `${cell.label}: the profile's topics`);
          assertFileFor(cell, imageOf(answer.body[0].items).image_content.media_resource.file);
        },
      }),
    },
    {
      method: 'POST',
      path: collection,
      expect: writes(201, where),
      prepare: async (w) => ({
        path: `/app/profiles/${branch(w).profile}/topics/`,
        body: { name: 'New topic', topic_type: 4 },
        witness: `/app/profiles/${branch(w).profile}/topics/`,
        check: assertCreated,
      }),
    },
    {
      method: 'GET',
      path,
      expect: reads(where),
      prepare: async (w) => ({
        path: `/app/topics/${branch(w).topic}/`,
        check: (answer, cell) => {
          assert.equal(answer.body.id, branch(w).topic, `${cell.label}: the topic's id`);
          assert.deepEqual(ids(answer.body.items), [branch(w).listItem, branch(w).imageItem], `${cell.label}: its items`);
        },
      }),
    },
    {
      method: 'PATCH',
      path,
      expect: writes(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return { path: `/app/topics/${id}/`, body: { name: 'Renamed' }, witness: `/app/topics/${id}/`, check: changed(id, 'Renamed', 3) };
      },
    },
    {
      method: 'PUT',
      path,
      expect: writes(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return {
          path: `/app/topics/${id}/`,
          body: { name: 'Replaced', topic_type: 4 },
          witness: `/app/topics/${id}/`,
          check: changed(id, 'Replaced', 4),
        };
      },
    },
    {
      method: 'DELETE',
      path,
      expect: writes(204, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return { path: `/app/topics/${id}/`, witness: `/app/topics/${id}/`, check: assertGone(`/app/topics/${id}/`) };
      },
    },
  ];
}

function itemRows(where: Where): Row[] {
  const branch = (w: World): Branch => w.tree[where];
  const collection = `/app/topics/{${where} topic}/items/`;
  const path = `/app/items/{${where} list item}/`;
  const list = (texts: string[]) => ({ entries: texts.map((text) => ({ text })) });
  const fresh = async (w: World) =>
    (await ownerCreates(w, `/app/topics/${branch(w).topic}/items/`, { name: 'Fresh', list_content: list(['eggs']) })).id;
  const changed = (id: number, name: string, texts: string[]) => (answer: Answer, cell: Cell) => {
    assert.equal(answer.body.id, id, `${cell.label}: the item's id`);
    assert.equal(answer.body.name, name, `${cell.label}: the name`);
    assert.deepEqual(
      answer.body.list_content.entries.map((entry: { text: string }) => entry.text),
      texts,
      `${cell.label}: the entries`,
    );
  };
  return [
    {
      method: 'GET',
      path: collection,
      expect: reads(where),
      prepare: async (w) => ({
        path: `/app/topics/${branch(w).topic}/items/`,
        check: (answer, cell) => {
          assert.deepEqual(ids(answer.body), [branch(w).listItem, branch(w).imageItem], `${cell.label}: the topic's items`);
          assertFileFor(cell, imageOf(answer.body).image_content.media_resource.file);
        },
      }),
    },
    {
      method: 'POST',
      path: `${collection} (list)`,
      expect: writes(201, where),
      prepare: async (w) => ({
        path: `/app/topics/${branch(w).topic}/items/`,
        body: { name: 'New list', list_content: list(['tea']) },
        witness: `/app/topics/${branch(w).topic}/items/`,
        check: assertCreated,
      }),
    },
    {
      method: 'POST',
      path: `${collection} (image showing the gallery's picture)`,
      expect: writes(201, where),
      prepare: async (w) => ({
        path: `/app/topics/${branch(w).topic}/items/`,
        body: { name: 'New picture', image_content: { description: 'Again', media_resource: branch(w).media } },
        witness: `/app/topics/${branch(w).topic}/items/`,
        check: async (answer, cell) => {
          assert.equal(answer.body.image_content.media_resource.id, branch(w).media, `${cell.label}: the picture`);
          assertFileFor(cell, answer.body.image_content.media_resource.file);
          await assertCreated(answer, cell);
        },
      }),
    },
    {
      method: 'GET',
      path,
      expect: reads(where),
      prepare: async (w) => ({
        path: `/app/items/${branch(w).listItem}/`,
        check: (answer, cell) => {
          assert.equal(answer.body.id, branch(w).listItem, `${cell.label}: the item's id`);
          assert.equal(answer.body.image_content, null, `${cell.label}: a list item`);
          assert.deepEqual(ids(answer.body.list_content.entries), branch(w).entries, `${cell.label}: its entries`);
        },
      }),
    },
    {
      method: 'GET',
      path: `/app/items/{${where} image item}/`,
      expect: reads(where),
      prepare: async (w) => ({
        path: `/app/items/${branch(w).imageItem}/`,
        check: (answer, cell) => {
          assert.equal(answer.body.id, branch(w).imageItem, `${cell.label}: the item's id`);
          assert.equal(answer.body.image_content.media_resource.id, branch(w).media, `${cell.label}: its picture`);
          assertFileFor(cell, answer.body.image_content.media_resource.file);
        },
      }),
    },
    {
      method: 'PATCH',
      path,
      expect: writes(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return {
          path: `/app/items/${id}/`,
          body: { name: 'Renamed' },
          witness: `/app/items/${id}/`,
          check: changed(id, 'Renamed', ['eggs']),
        };
      },
    },
    {
      method: 'PUT',
      path,
      expect: writes(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return {
          path: `/app/items/${id}/`,
          body: { name: 'Replaced', list_content: list(['flour', 'salt']) },
          witness: `/app/items/${id}/`,
          check: changed(id, 'Replaced', ['flour', 'salt']),
        };
      },
    },
    {
      method: 'DELETE',
      path,
      expect: writes(204, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return { path: `/app/items/${id}/`, witness: `/app/items/${id}/`, check: assertGone(`/app/items/${id}/`) };
      },
    },
  ];
}

function entryRows(where: Where): Row[] {
  const branch = (w: World): Branch => w.tree[where];
  const collection = `/app/items/{${where} list item}/list-entries/`;
  const path = `/app/list-entries/{${where} entry}/`;
  const fresh = async (w: World) => (await ownerCreates(w, `/app/items/${branch(w).listItem}/list-entries/`, { text: 'fresh' })).id;
  const changed = (id: number, text: string) => (answer: Answer, cell: Cell) => {
    assert.equal(answer.body.id, id, `${cell.label}: the entry's id`);
    assert.equal(answer.body.text, text, `${cell.label}: the text`);
  };
  return [
    {
      method: 'GET',
      path: collection,
      expect: reads(where),
      prepare: async (w) => ({
        path: `/app/items/${branch(w).listItem}/list-entries/`,
        check: (answer, cell) => assert.deepEqual(ids(answer.body), branch(w).entries, `${cell.label}: the item's entries`),
      }),
    },
    {
      method: 'POST',
      path: collection,
      expect: writes(201, where),
      prepare: async (w) => ({
        path: `/app/items/${branch(w).listItem}/list-entries/`,
        body: { text: 'butter' },
        witness: `/app/items/${branch(w).listItem}/list-entries/`,
        check: assertCreated,
      }),
    },
    {
      method: 'GET',
      path,
      expect: reads(where),
      prepare: async (w) => ({ path: `/app/list-entries/${branch(w).entries[0]}/`, check: changed(branch(w).entries[0]!, 'bread') }),
    },
    {
      method: 'PATCH',
      path,
      expect: writes(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return {
          path: `/app/list-entries/${id}/`,
          body: { text: 'rye bread' },
          witness: `/app/list-entries/${id}/`,
          check: changed(id, 'rye bread'),
        };
      },
    },
    {
      method: 'PUT',
      path,
      expect: writes(200, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return {
          path: `/app/list-entries/${id}/`,
          body: { text: 'oat milk' },
          witness: `/app/list-entries/${id}/`,
          check: changed(id, 'oat milk'),
        };
      },
    },
    {
      method: 'DELETE',
      path,
      expect: writes(204, where),
      prepare: async (w) => {
        const id = await fresh(w);
        return { path: `/app/list-entries/${id}/`, witness: `/app/list-entries/${id}/`, check: assertGone(`/app/list-entries/${id}/`) };
      },
    },
  ];
}

export function profileTreeRows(): Row[] {
  return (['public', 'private'] as const).flatMap((where) => [
    ...profileRows(where),
    ...topicRows(where),
    ...itemRows(where),
    ...entryRows(where),
  ]);
}
