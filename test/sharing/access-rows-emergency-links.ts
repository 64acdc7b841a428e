// The access table's rows of emergency links (docs/sharing.md, docs/emergency-links.md): every route is the owner's
// only, so every accessor gets 403 "only the owner", whatever their rights, and anyone else
// 404 (401 without a token). Writes run on a fresh link per cell.
import assert from 'node:assert/strict';
import { assertCreated, assertGone, ids, ownerCreates, ownerOnly, type Row, type World } from './access-cells.ts';

const collection = (w: World) => `/app/users/${w.tree.owner.appUserId}/emergency-links/`;
const detail = (id: number) => `/app/emergency-links/${id}/`;
const fresh = async (w: World): Promise<number> => (await ownerCreates(w, collection(w), { label: 'Fresh', pin: '2468' })).id;

/** One link of the owner's, made on the first read that needs it, for the reads. */
const sharedLinks = new WeakMap<World, Promise<number>>();
function sharedLink(w: World): Promise<number> {
  let link = sharedLinks.get(w);
  if (!link) {
    link = fresh(w);
    sharedLinks.set(w, link);
  }
  return link;
}

export function emergencyLinkRows(): Row[] {
  return [
    {
      method: 'GET',
      path: '/app/users/{id}/emergency-links/',
      expect: ownerOnly(200),
      prepare: async (w) => {
        const link = await sharedLink(w);
        return {
          path: collection(w),
          check: (answer, cell) => assert.ok(ids(answer.body).includes(link), `${cell.label}: the owner's link is listed`),
        };
      },
    },
    {
      method: 'POST',
      path: '/app/users/{id}/emergency-links/',
      expect: ownerOnly(201),
      prepare: async (w) => ({ path: collection(w), body: { label: 'Made here' }, witness: collection(w), check: assertCreated }),
    },
    {
      method: 'GET',
      path: '/app/emergency-links/{id}/',
      expect: ownerOnly(200),
      prepare: async (w) => {
        const link = await sharedLink(w);
        return { path: detail(link), check: (answer, cell) => assert.equal(answer.body.id, link, `${cell.label}: the link`) };
      },
    },
    {
      method: 'PATCH',
      path: '/app/emergency-links/{id}/',
      expect: ownerOnly(200),
      prepare: async (w) => {
        const link = await fresh(w);
        return {
          path: detail(link),
          body: { label: 'Changed', pin: null },
          witness: detail(link),
          check: (answer, cell) => assert.deepEqual([answer.body.label, answer.body.has_pin], ['Changed', false], cell.label),
        };
      },
    },
    {
      method: 'DELETE',
      path: '/app/emergency-links/{id}/',
      expect: ownerOnly(204),
      prepare: async (w) => {
        const link = await fresh(w);
        return { path: detail(link), witness: detail(link), check: assertGone(detail(link)) };
      },
    },
    {
      method: 'GET',
      path: '/app/emergency-links/{id}/views/',
      expect: ownerOnly(200),
      prepare: async (w) => ({
        path: `${detail(await sharedLink(w))}views/`,
        check: (answer, cell) => assert.deepEqual(answer.body, [], `${cell.label}: no views yet`),
      }),
    },
  ];
}
