// The client side of docs/offline-and-live.md, as a careful client would write it: a full read of an app
// user as a flat set of objects (each as a changes upsert would carry it), the changes since a
// cursor page by page, and applying them (a delete removes what the object holds with it).
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.ts';

export interface Flat {
  [key: string]: Record<string, any>;
}

const key = (type: string, id: number) => `${type}:${id}`;

async function get(server: TestServer, token: string, path: string): Promise<any> {
  const response = await server.request('GET', path, { token });
  assert.equal(response.status, 200, `GET ${path}: ${response.status} ${response.text}`);
  return response.body;
}

/** Everything the caller sees of the app user, through the ordinary GETs. */
export async function fullRead(server: TestServer, token: string, appUserId: number): Promise<Flat> {
  const flat: Flat = {};
  const holder = { type: 'app_user', id: appUserId };
  const user = await get(server, token, `/app/users/${appUserId}/`);
  const { profiles, emergency_items_url: _a, emergency_contacts_url: _b, gallery_url: _c, profiles_url: _d, ...plainUser } = user;
  flat[key('app_user', appUserId)] = plainUser;
  for (const profile of profiles) {
    flat[key('profile', profile.id)] = { ...profile, parent: holder };
    const detail = await get(server, token, `/app/profiles/${profile.id}/`);
    for (const topic of detail.topics) {
      const { items, ...plainTopic } = topic;
      flat[key('topic', topic.id)] = { ...plainTopic, parent: { type: 'profile', id: profile.id } };
      for (const item of items) {
        const entries = item.list_content?.entries ?? [];
        flat[key('item', item.id)] = {
          ...item,
          list_content: item.list_content && { id: item.list_content.id },
          parent: { type: 'topic', id: topic.id },
        };
        for (const entry of entries) flat[key('list_entry', entry.id)] = { ...entry, parent: { type: 'item', id: item.id } };
      }
    }
  }
  for (const item of await get(server, token, `/app/users/${appUserId}/emergency-items/`))
    flat[key('emergency_item', item.id)] = { ...item, parent: holder };
  for (const contact of await get(server, token, `/app/users/${appUserId}/emergency-contacts/`))
    flat[key('emergency_contact', contact.id)] = { ...contact, parent: holder };
  for (const media of await get(server, token, `/app/users/${appUserId}/gallery/`))
    flat[key('media_resource', media.id)] = { ...media, parent: holder };
  return flat;
}

export interface Change {
  type: string;
  id: number;
  op: 'upsert' | 'delete';
  data?: Record<string, any>;
}

export async function currentCursor(server: TestServer, token: string, appUserId: number): Promise<string> {
  const page = await get(server, token, `/app/users/${appUserId}/changes/`);
  assert.deepEqual(page.changes, []);
  assert.equal(page.has_more, false);
  return page.cursor;
}

/** Every change since `cursor`, following `has_more`; and the cursor to start from next. */
export async function changesSince(
  server: TestServer,
  token: string,
  appUserId: number,
  cursor: string,
): Promise<{ changes: Change[]; cursor: string; pages: number }> {
  const changes: Change[] = [];
  let pages = 0;
  for (;;) {
    const page = await get(server, token, `/app/users/${appUserId}/changes/?since=${encodeURIComponent(cursor)}`);
    pages += 1;
    changes.push(...page.changes);
    cursor = page.cursor;
    if (!page.has_more) return { changes, cursor, pages };
  }
}

/** The full read `flat` with `changes` applied: a delete takes what the object holds with it. */
export function applyChanges(flat: Flat, changes: readonly Change[]): Flat {
  const next: Flat = { ...flat };
  for (const change of changes) {
    if (change.op === 'upsert') {
      assert.ok(change.data, `an upsert carries data: ${JSON.stringify(change)}`);
      next[key(change.type, change.id)] = change.data;
      continue;
    }
    removeWithHeld(next, change.type, change.id);
  }
  return next;
}

function removeWithHeld(flat: Flat, type: string, id: number): void {
  delete flat[key(type, id)];
  for (const [childKey, child] of Object.entries(flat)) {
    if (child.parent?.type === type && child.parent.id === id) {
      const [childType, childId] = childKey.split(':') as [string, string];
      removeWithHeld(flat, childType, Number(childId));
    }
  }
}
