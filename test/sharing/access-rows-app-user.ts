// The access table's rows under the app user itself (docs/app-data.md, docs/sharing.md): the app user, its
// profiles list, emergency items and contacts, the gallery, and the signed file URLs.
import assert from 'node:assert/strict';
import { png, uploadForm } from '../media/media-fixtures.ts';
import {
  assertCreated,
  assertFileFor,
  assertGone,
  ids,
  ownerCreates,
  ownerOnly,
  privacyChange,
  reads,
  writes,
  type Answer,
  type Cell,
  type Expectations,
  type Row,
  type World,
} from './access-cells.ts';
import { localPath, makeTree, RIGHTS, shareTree, uploadPicture, type AcceptedRole, type Callers } from './sharing-fixtures.ts';
import { createOwner } from '../app-data/fixtures.ts';

const sharedRole = (role: string): role is AcceptedRole => role in RIGHTS;

/** The profiles a caller sees: the private one only with private access. */
function visibleProfiles(cell: Cell): number[] {
  const { tree } = cell.world;
  return cell.role === 'readerNoPrivate' ? [tree.public.profile] : [tree.public.profile, tree.private.profile];
}

function appUserRows(): Row[] {
  const everyAccount = (outcome: 200 | 400): Expectations => ({
    owner: outcome,
    writer: outcome,
    reader: outcome,
    readerNoPrivate: outcome,
    pending: outcome,
    revoked: outcome,
    stranger: outcome,
    anonymous: 401,
  });
  const path = '/app/users/{id}/';
  return [
    {
      method: 'GET',
      path: '/app/users/',
      expect: everyAccount(200),
      prepare: async () => ({
        path: '/app/users/',
        check: (answer, cell) => {
          const own = cell.world.callers[cell.role as keyof Callers].appUserId;
          const shared = sharedRole(cell.role) ? [cell.owner.appUserId] : [];
          assert.deepEqual(ids(answer.body), [own, ...shared], `${cell.label}: their own app user, then the shared one`);
          assert.equal(answer.body[0].is_owned_by_current_user, true, `${cell.label}: their own`);
          if (sharedRole(cell.role)) {
            assert.equal(answer.body[1].is_owned_by_current_user, false, `${cell.label}: shared with them`);
            assert.deepEqual(
              answer.body[1].permissions,
              { read: true, write: RIGHTS[cell.role].canWrite },
              `${cell.label}: their permissions`,
            );
          }
        },
      }),
    },
    {
      method: 'POST',
      path: '/app/users/ (the caller already has one)',
      expect: everyAccount(400),
      prepare: async () => ({ path: '/app/users/', body: { name: 'Second' } }),
    },
    {
      method: 'GET',
      path,
      expect: reads(),
      prepare: async (w) => ({
        path: `/app/users/${w.tree.owner.appUserId}/`,
        check: (answer, cell) => {
          assert.equal(answer.body.id, cell.owner.appUserId, `${cell.label}: the app user's id`);
          assert.equal(answer.body.is_owned_by_current_user, cell.role === 'owner', `${cell.label}: is_owned_by_current_user`);
          assert.deepEqual(ids(answer.body.profiles), visibleProfiles(cell), `${cell.label}: the profiles the caller may see`);
        },
      }),
    },
    {
      method: 'PATCH',
      path,
      expect: ownerOnly(200),
      prepare: async (w) => ({
        path: `/app/users/${w.tree.owner.appUserId}/`,
        body: { quote: 'Patched' },
        witness: `/app/users/${w.tree.owner.appUserId}/`,
        check: (answer, cell) => assert.equal(answer.body.quote, 'Patched', `${cell.label}: the quote`),
      }),
    },
    {
      method: 'PUT',
      path,
      expect: ownerOnly(200),
      prepare: async (w) => ({
        path: `/app/users/${w.tree.owner.appUserId}/`,
        body: { name: 'Olive', quote: 'Put' },
        witness: `/app/users/${w.tree.owner.appUserId}/`,
        check: (answer, cell) => assert.equal(answer.body.quote, 'Put', `${cell.label}: the quote`),
      }),
    },
    {
      method: 'DELETE',
      path: `${path} (a fresh owner's tree, shared alike)`,
      expect: ownerOnly(204),
      prepare: async (w) => {
        const owner = await createOwner(w.server, { firstName: 'Otto' });
        const tree = await makeTree(w.server, owner);
        const shares = await shareTree(w.server, tree, w.callers);
        const appUser = `/app/users/${owner.appUserId}/`;
        return {
          path: appUser,
          owner,
          witness: appUser,
          check: async (answer, cell) => {
            await assertGone(appUser)(answer, cell);
            const file = await w.server.request('GET', localPath(shares.handedUrls.owner!));
            assert.equal(file.status, 404, `${cell.label}: the picture's URL is dead`);
            const seen = await w.server.request('GET', `/app/profiles/${tree.public.profile}/`, { token: w.callers.writer.token });
            assert.equal(seen.status, 404, `${cell.label}: the writer no longer finds the profile`);
          },
        };
      },
    },
  ];
}

function profileListRows(): Row[] {
  const collection = '/app/users/{id}/profiles/';
  const profiles = (w: World) => `/app/users/${w.tree.owner.appUserId}/profiles/`;
  const made = (isPrivate: boolean) => async (answer: Answer, cell: Cell) => {
    assert.equal(answer.body.is_private, isPrivate, `${cell.label}: is_private`);
    await assertCreated(answer, cell);
  };
  return [
    {
      method: 'GET',
      path: collection,
      expect: reads(),
      prepare: async (w) => ({
        path: profiles(w),
        check: (answer, cell) =>
          assert.deepEqual(ids(answer.body), visibleProfiles(cell), `${cell.label}: the profiles the caller may see`),
      }),
    },
    {
      method: 'POST',
      path: `${collection} {name}`,
      expect: writes(201),
      prepare: async (w) => ({ path: profiles(w), body: { name: 'Made here' }, witness: profiles(w), check: made(false) }),
    },
    {
      method: 'POST',
      path: `${collection} {name, is_private: true}`,
      expect: privacyChange(201),
      prepare: async (w) => ({
        path: profiles(w),
        body: { name: 'Made private', is_private: true },
        witness: profiles(w),
        check: made(true),
      }),
    },
  ];
}

interface Emergency {
  kind: string;
  collection: string;
  detail: string;
  id: (w: World) => number;
  body: (w: World) => object;
  patch: object;
  put: object;
  check: (answer: Answer, cell: Cell) => void;
}

function emergencyRows(e: Emergency): Row[] {
  const collection = (w: World) => `/app/users/${w.tree.owner.appUserId}/${e.collection}/`;
  const fresh = async (w: World) => (await ownerCreates(w, collection(w), e.body(w))).id as number;
  const path = `/app/${e.detail}/{${e.kind}}/`;
  const changed = (id: number, values: object) => (answer: Answer, cell: Cell) => {
    assert.equal(answer.body.id, id, `${cell.label}: the ${e.kind}'s id`);
    for (const [key, value] of Object.entries(values)) assert.equal(answer.body[key], value, `${cell.label}: ${key}`);
  };
  return [
    {
      method: 'GET',
      path: `/app/users/{id}/${e.collection}/`,
      expect: reads(),
      prepare: async (w) => ({
        path: collection(w),
        check: (answer, cell) => {
          assert.deepEqual(ids(answer.body), [e.id(w)], `${cell.label}: the app user's ${e.kind}s`);
          e.check(answer.body[0], cell);
        },
      }),
    },
    {
      method: 'POST',
      path: `/app/users/{id}/${e.collection}/`,
      expect: writes(201),
      prepare: async (w) => ({ path: collection(w), body: e.body(w), witness: collection(w), check: assertCreated }),
    },
    {
      method: 'GET',
      path,
      expect: reads(),
      prepare: async (w) => ({
        path: `/app/${e.detail}/${e.id(w)}/`,
        check: (answer, cell) => {
          assert.equal(answer.body.id, e.id(w), `${cell.label}: the ${e.kind}'s id`);
          e.check(answer.body, cell);
        },
      }),
    },
    ...(['PATCH', 'PUT'] as const).map(
      (method): Row => ({
        method,
        path,
        expect: writes(200),
        prepare: async (w) => {
          const id = await fresh(w);
          const body = method === 'PATCH' ? e.patch : e.put;
          return { path: `/app/${e.detail}/${id}/`, body, witness: `/app/${e.detail}/${id}/`, check: changed(id, body) };
        },
      }),
    ),
    {
      method: 'DELETE',
      path,
      expect: writes(204),
      prepare: async (w) => {
        const id = await fresh(w);
        return { path: `/app/${e.detail}/${id}/`, witness: `/app/${e.detail}/${id}/`, check: assertGone(`/app/${e.detail}/${id}/`) };
      },
    },
  ];
}

const emergencyItems: Emergency = {
  kind: 'emergency item',
  collection: 'emergency-items',
  detail: 'emergency-items',
  id: (w) => w.tree.emergencyItem,
  body: (w) => ({ name: 'Medication', description: 'Inhaler', media_resource: w.tree.public.media }),
  patch: { description: 'Two inhalers' },
  put: { name: 'Medicines', description: 'Inhaler and tablets' },
  check: (item: any, cell) => {
    assert.equal(item.media_resource.id, cell.world.tree.public.media, `${cell.label}: the emergency item's picture`);
    assertFileFor(cell, item.media_resource.file);
  },
};

const emergencyContacts: Emergency = {
  kind: 'emergency contact',
  collection: 'emergency-contacts',
  detail: 'emergency-contacts',
  id: (w) => w.tree.emergencyContact,
  body: () => ({ name: 'Caroline Herschel', relation: 'Neighbour', phone_number: '447700900456' }),
  patch: { relation: 'Aunt' },
  put: { name: 'Caroline', relation: 'Aunt', phone_number: '447700900789' },
  check: (contact: any, cell) => assert.equal(contact.phone_number, '447700900123', `${cell.label}: the contact's phone number`),
};

function galleryRows(): Row[] {
  const gallery = (w: World) => `/app/users/${w.tree.owner.appUserId}/gallery/`;
  const path = '/app/media-resources/{picture}/';
  const privatePath = '/app/media-resources/{picture shown only in the private profile}/';
  const fresh = (w: World) => uploadPicture(w.server, w.tree.owner, 'Fresh');
  const freshPrivate = async (w: World) => {
    const id = await fresh(w);
    await showInPrivateProfile(w, id);
    return id;
  };
  const renamed = (id: number, name: string) => (answer: Answer, cell: Cell) => {
    assert.equal(answer.body.id, id, `${cell.label}: the media resource's id`);
    assert.equal(answer.body.name, name, `${cell.label}: the name`);
    assertFileFor(cell, answer.body.file);
  };
  return [
    {
      method: 'GET',
      path: '/app/users/{id}/gallery/',
      expect: reads(),
      prepare: async (w) => ({
        path: gallery(w),
        check: (answer, cell) => {
          // A picture shown only in a private profile is private: absent without private access.
          const expected = cell.role === 'readerNoPrivate' ? [w.tree.public.media] : [w.tree.public.media, w.tree.private.media];
          assert.deepEqual(ids(answer.body), expected, `${cell.label}: the app user's media the caller may see`);
          for (const media of answer.body) assertFileFor(cell, media.file);
        },
      }),
    },
    {
      method: 'POST',
      path: '/app/users/{id}/gallery/ (upload of a PNG)',
      expect: writes(201),
      prepare: async (w) => ({
        path: gallery(w),
        form: uploadForm({ name: 'Uploaded here', file: png(), filename: 'here.png', type: 'image/png' }),
        witness: gallery(w),
        check: async (answer, cell) => {
          assert.equal(answer.body.content_type, 'image/png', `${cell.label}: the content type`);
          assert.equal(answer.body.size, png().length, `${cell.label}: the size`);
          assertFileFor(cell, answer.body.file);
          await assertCreated(answer, cell);
        },
      }),
    },
    {
      method: 'GET',
      path,
      expect: reads(),
      prepare: async (w) => ({ path: `/app/media-resources/${w.tree.public.media}/`, check: renamed(w.tree.public.media, 'Open photo') }),
    },
    {
      method: 'GET',
      path: privatePath,
      expect: reads('private'),
      prepare: async (w) => ({
        path: `/app/media-resources/${w.tree.private.media}/`,
        check: renamed(w.tree.private.media, 'Hidden photo'),
      }),
    },
    {
      method: 'PATCH',
      path,
      expect: writes(200),
      prepare: async (w) => {
        const id = await fresh(w);
        const detail = `/app/media-resources/${id}/`;
        return { path: detail, body: { name: 'Renamed' }, witness: detail, check: renamed(id, 'Renamed') };
      },
    },
    ...(['PATCH', 'PUT'] as const).map(
      (method): Row => ({
        method,
        path: privatePath,
        expect: writes(200, 'private'),
        prepare: async (w) => {
          const id = await freshPrivate(w);
          const detail = `/app/media-resources/${id}/`;
          return { path: detail, body: { name: 'Renamed' }, witness: detail, check: renamed(id, 'Renamed') };
        },
      }),
    ),
    {
      method: 'DELETE',
      path: privatePath,
      expect: writes(204, 'private'),
      prepare: async (w) => {
        const id = await freshPrivate(w);
        const detail = `/app/media-resources/${id}/`;
        return { path: detail, witness: detail, check: assertGone(detail) };
      },
    },
    {
      method: 'PUT',
      path,
      expect: writes(200),
      prepare: async (w) => {
        const id = await fresh(w);
        const detail = `/app/media-resources/${id}/`;
        return { path: detail, body: { name: 'Replaced' }, witness: detail, check: renamed(id, 'Replaced') };
      },
    },
    {
      method: 'DELETE',
      path,
      expect: writes(204),
      prepare: async (w) => {
        const id = await fresh(w);
        const detail = `/app/media-resources/${id}/`;
        return { path: detail, witness: detail, check: assertGone(detail) };
      },
    },
  ];
}

function assertPicture(answer: Answer, cell: Cell): void {
  assert.equal(answer.headers.get('content-type'), 'image/png', `${cell.label}: the stored content type`);
  assert.deepEqual(answer.bytes, png(), `${cell.label}: the picture's bytes`);
}

/** An image item in the private profile showing the picture `media`. */
async function showInPrivateProfile(w: World, media: number): Promise<void> {
  await ownerCreates(w, `/app/topics/${w.tree.private.topic}/items/`, { name: 'Hidden picture', image_content: { media_resource: media } });
}

function fileRows(): Row[] {
  return [
    {
      method: 'GET',
      path: '/media/files/{picture} (the file URL the caller was handed, no token)',
      // Only those who could see the picture were handed a URL; the revoked accessor's was handed before the revocation.
      expect: { ...reads(), pending: null, stranger: null, anonymous: null },
      prepare: async (w, role) => ({
        path: localPath(w.shares.handedUrls[role]!),
        withoutToken: true,
        check: assertPicture,
      }),
    },
    {
      method: 'GET',
      path: "/media/files/{picture} (the owner's file URL: the URL is the credential)",
      expect: { ...reads(), pending: 200, revoked: 200, stranger: 200, anonymous: 200 },
      prepare: async (w) => ({ path: localPath(w.shares.handedUrls.owner!), check: assertPicture }),
    },
  ];
}

/**
 * Rows that add to the private profile and the gallery while the reads run: the table runs them
 * after every other read (the other reads check exactly what those hold).
 */
export function lastReadRows(): Row[] {
  return [
    {
      method: 'GET',
      path: '/media/files/{picture} (the URL the caller was handed, then the picture shown only in the private profile)',
      expect: { ...reads('private'), pending: null, revoked: null, stranger: null, anonymous: null },
      prepare: async (w, role) => {
        const media = await uploadPicture(w.server, w.tree.owner, 'Soon hidden');
        const token = role === 'owner' ? w.tree.owner.token : w.callers[role as keyof Callers].token;
        const handed = await w.server.request('GET', `/app/media-resources/${media}/`, { token });
        assert.equal(handed.status, 200, `an unused picture is seen by every accessor: ${handed.text}`);
        await showInPrivateProfile(w, media);
        return { path: localPath(handed.body.file), withoutToken: true, check: assertPicture };
      },
    },
  ];
}

export function appUserLevelRows(): Row[] {
  return [
    ...appUserRows(),
    ...profileListRows(),
    ...emergencyRows(emergencyItems),
    ...emergencyRows(emergencyContacts),
    ...galleryRows(),
    ...fileRows(),
  ];
}
