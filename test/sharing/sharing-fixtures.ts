// An owner's tree of personal data and the people around it (docs/sharing.md), for the access
// suites: accessors are written as rows, as an accepted invitation leaves them (the invitation
// flow has tests of its own). A pending invitee has a row addressed to their verified address
// and no account bound to it; a revoked accessor had a row, used it, and it was deleted.
import assert from 'node:assert/strict';
import { create, createOwner, type Owner } from '../app-data/fixtures.ts';
import { PUBLIC_URL, type TestServer } from '../helpers/server.ts';
import { png, upload } from '../media/media-fixtures.ts';

export const ROLES = ['owner', 'writer', 'reader', 'readerNoPrivate', 'pending', 'revoked', 'stranger', 'anonymous'] as const;
export type Role = (typeof ROLES)[number];

/** The accepted accessors and what each may do. */
export const RIGHTS = {
  writer: { canWrite: true, privateAccess: true },
  reader: { canWrite: false, privateAccess: true },
  readerNoPrivate: { canWrite: false, privateAccess: false },
} as const;
export type AcceptedRole = keyof typeof RIGHTS;

/** Everyone but the anonymous caller: an account with its own app user each. */
export type Callers = Record<Exclude<Role, 'anonymous'>, Owner>;

export async function createCallers(server: TestServer): Promise<Callers> {
  return {
    owner: await createOwner(server, { firstName: 'Olive' }),
    writer: await createOwner(server, { firstName: 'Wren' }),
    reader: await createOwner(server, { firstName: 'Reed' }),
    readerNoPrivate: await createOwner(server, { firstName: 'Rory' }),
    pending: await createOwner(server, { firstName: 'Penny' }),
    revoked: await createOwner(server, { firstName: 'Rex' }),
    stranger: await createOwner(server, { firstName: 'Sid' }),
  };
}

/** One profile's objects. */
export interface Branch {
  profile: number;
  topic: number;
  listItem: number;
  entries: number[];
  imageItem: number;
  /** The uploaded picture the image item shows. */
  media: number;
}

export interface Tree {
  owner: Owner;
  public: Branch;
  private: Branch;
  emergencyItem: number;
  emergencyContact: number;
}

export type Where = 'public' | 'private';

async function makeBranch(server: TestServer, owner: Owner, where: Where): Promise<Branch> {
  const name = where === 'private' ? 'Hidden' : 'Open';
  const profile = await create(server, owner.token, `/app/users/${owner.appUserId}/profiles/`, {
    name,
    is_default: where === 'public',
    is_private: where === 'private',
  });
  const topic = await create(server, owner.token, `/app/profiles/${profile.id}/topics/`, { name: `${name} topic`, topic_type: 3 });
  const listItem = await create(server, owner.token, `/app/topics/${topic.id}/items/`, {
    name: 'Shopping',
    list_content: { entries: [{ text: 'bread' }, { text: 'milk' }] },
  });
  const media = await uploadPicture(server, owner, `${name} photo`);
  const imageItem = await create(server, owner.token, `/app/topics/${topic.id}/items/`, {
    name: 'Picture',
    image_content: { description: 'A picture', media_resource: media },
  });
  return {
    profile: profile.id,
    topic: topic.id,
    listItem: listItem.id,
    entries: listItem.list_content.entries.map((entry: { id: number }) => entry.id),
    imageItem: imageItem.id,
    media,
  };
}

/** Uploads a real PNG to the owner's gallery; its id. */
export async function uploadPicture(server: TestServer, owner: Owner, name = 'Photo'): Promise<number> {
  const uploaded = await upload(server, owner.token, owner.appUserId, { name, file: png(), filename: 'photo.png', type: 'image/png' });
  assert.equal(uploaded.status, 201, uploaded.text);
  return uploaded.body.id;
}

/**
 * The owner's tree: a public profile (the default) and a private one, each with a topic, a list
 * item with two entries and an image item showing an uploaded picture; an emergency item
 * showing the public picture, and an emergency contact.
 */
export async function makeTree(server: TestServer, owner: Owner): Promise<Tree> {
  const open = await makeBranch(server, owner, 'public');
  const hidden = await makeBranch(server, owner, 'private');
  const emergencyItem = await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-items/`, {
    name: 'Allergies',
    description: 'Penicillin',
    media_resource: open.media,
  });
  const emergencyContact = await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-contacts/`, {
    name: 'Mary Somerville',
    relation: 'Friend',
    phone_number: '447700900123',
  });
  return { owner, public: open, private: hidden, emergencyItem: emergencyItem.id, emergencyContact: emergencyContact.id };
}

/** An accessor row of the owner's app user for `email`: accepted by `accountId`, or pending (null). */
export async function insertAccessor(
  server: TestServer,
  owner: Owner,
  email: string,
  accountId: number | null,
  rights: { canWrite?: boolean; privateAccess?: boolean } = {},
): Promise<number> {
  const now = server.clock.now();
  const row = await server.server.ctx.db.kysely
    .insertInto('accessors')
    .values({
      app_user_id: owner.appUserId,
      owner_account_id: owner.id,
      email,
      email_lower: email.toLowerCase(),
      user_with_access_id: accountId,
      can_write: rights.canWrite ? 1 : 0,
      has_private_profile_access: rights.privateAccess ? 1 : 0,
      created_at: now,
      accepted_at: accountId === null ? null : now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteAccessor(server: TestServer, accessorId: number): Promise<void> {
  await server.server.ctx.db.kysely.deleteFrom('accessors').where('id', '=', accessorId).execute();
}

export async function setRights(server: TestServer, accessorId: number, rights: { canWrite: boolean; privateAccess: boolean }) {
  await server.server.ctx.db.kysely
    .updateTable('accessors')
    .set({ can_write: rights.canWrite ? 1 : 0, has_private_profile_access: rights.privateAccess ? 1 : 0 })
    .where('id', '=', accessorId)
    .execute();
}

export interface Shares {
  /** The accessor rows of the accepted (and the revoked) callers. */
  accessorIds: Partial<Record<Role, number>>;
  /** The `file` URL of the public picture as each caller who saw it was handed it (the revoked one before revocation). */
  handedUrls: Partial<Record<Role, string>>;
}

async function fileUrlFor(server: TestServer, token: string, media: number): Promise<string> {
  const response = await server.request('GET', `/app/media-resources/${media}/`, { token });
  assert.equal(response.status, 200, response.text);
  return response.body.file;
}

/**
 * Shares the tree's app user with the callers: the writer, the reader and the reader without
 * private access accept theirs; the pending invitee's is addressed to their verified address
 * and never accepted; the revoked accessor (a writer with private access) reads the profiles
 * (their renderings are cached) and the picture, then the row is deleted.
 */
export async function shareTree(server: TestServer, tree: Tree, callers: Callers): Promise<Shares> {
  const { owner } = tree;
  const shares: Shares = { accessorIds: {}, handedUrls: {} };
  for (const role of Object.keys(RIGHTS) as AcceptedRole[]) {
    shares.accessorIds[role] = await insertAccessor(server, owner, callers[role].email, callers[role].id, RIGHTS[role]);
  }
  await insertAccessor(server, owner, callers.pending.email.toUpperCase(), null, { canWrite: true, privateAccess: true });
  const revoked = await insertAccessor(server, owner, callers.revoked.email, callers.revoked.id, { canWrite: true, privateAccess: true });
  shares.accessorIds.revoked = revoked;
  for (const where of ['public', 'private'] as const) {
    const seen = await server.request('GET', `/app/profiles/${tree[where].profile}/`, { token: callers.revoked.token });
    assert.equal(seen.status, 200, seen.text);
  }
  for (const role of ['owner', 'writer', 'reader', 'readerNoPrivate', 'revoked'] as const) {
    const token = role === 'owner' ? owner.token : callers[role].token;
    shares.handedUrls[role] = await fileUrlFor(server, token, tree.public.media);
  }
  await deleteAccessor(server, revoked);
  return shares;
}

/** The path and query of a URL the service wrote, to request it from the test server. */
export function localPath(url: string): string {
  assert.ok(url.startsWith(PUBLIC_URL), `not a service URL: ${url}`);
  return url.slice(PUBLIC_URL.length);
}
