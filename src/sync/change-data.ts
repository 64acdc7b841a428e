// What an upsert carries (docs/offline-and-live.md): the object's read shape, through the same mapper its
// GET uses, without the resources it embeds (those come as changes of their own), plus
// `parent`, what holds it. Read when the changes are, a query per type present in the page.
import type { Kysely } from 'kysely';
import type { Access } from '../app-data/access.ts';
import type { AppContext } from '../context.ts';
import { findAppUser } from '../app-data/app-user-queries.ts';
import { toAppUser } from '../app-data/app-user-schemas.ts';
import { listEmergencyContactsByIds } from '../app-data/emergency-contact-queries.ts';
import { toEmergencyContact } from '../app-data/emergency-contact-schemas.ts';
import { listEmergencyItemsByIds } from '../app-data/emergency-item-queries.ts';
import { toEmergencyItem } from '../app-data/emergency-item-schemas.ts';
import { listMediaByIds } from '../app-data/gallery-queries.ts';
import { toItem } from '../app-data/item-schemas.ts';
import { toListEntry } from '../app-data/list-entry-schemas.ts';
import { listProfiles } from '../app-data/profile-queries.ts';
import { toProfile } from '../app-data/profile-schemas.ts';
import { toTopic } from '../app-data/topic-schemas.ts';
import type { ChangeType, Database } from '../db/schema.ts';
import { toMediaResource } from '../media/media-view.ts';
import { entriesByIds, itemsByIds, topicsByIds } from './change-queries.ts';

export interface Parent {
  type: ChangeType;
  id: number;
}

/** An object as an upsert sends it, the profile it is under (null: none), and whether it is private by itself. */
export interface Current {
  data: Record<string, unknown>;
  profileId: number | null;
  /** A media resource used only in private profiles. */
  inPrivate: boolean;
}

type Loaded = Map<string, Current>;

export const keyOf = (type: ChangeType, id: number): string => `${type}:${id}`;

const withParent = (data: object, parent: Parent | null): Record<string, unknown> => (parent ? { ...data, parent } : { ...data });

/** The current state of the objects `ids` names, by type; an object gone is absent. */
export async function loadCurrent(
  ctx: AppContext,
  access: Access,
  db: Kysely<Database>,
  appUserId: number,
  ids: ReadonlyMap<ChangeType, number[]>,
): Promise<Loaded> {
  const { accountId } = access;
  const loaded: Loaded = new Map();
  const put = (type: ChangeType, id: number, data: object, parent: Parent | null, profileId: number | null = null, inPrivate = false) =>
    loaded.set(keyOf(type, id), { data: withParent(data, parent), profileId, inPrivate });
  const holder: Parent = { type: 'app_user', id: appUserId };
  const loads: Promise<void>[] = [];
  const of = (type: ChangeType) => ids.get(type) ?? [];

  if (of('app_user').length > 0) {
    loads.push(
      findAppUser(db, accountId, appUserId).then((row) => {
        if (row) put('app_user', row.id, toAppUser(ctx, row, { grant: access.grant }), null);
      }),
    );
  }
  if (of('profile').length > 0) {
    const wanted = new Set(of('profile'));
    loads.push(
      listProfiles(db, accountId, appUserId).then((rows) => {
        for (const row of rows) if (wanted.has(row.id)) put('profile', row.id, toProfile(ctx, row), holder, row.id);
      }),
    );
  }
  if (of('topic').length > 0) {
    loads.push(
      topicsByIds(db, accountId, of('topic')).then((rows) => {
        for (const row of rows) {
          const { items: _embedded, ...topic } = toTopic(ctx, row, []);
          put('topic', row.id, topic, { type: 'profile', id: row.profile_id }, row.profile_id);
        }
      }),
    );
  }
  if (of('item').length > 0) {
    loads.push(
      itemsByIds(db, accountId, of('item')).then((rows) => {
        for (const row of rows) {
          const item = toItem(ctx, access, row, []);
          const listContent = item.list_content && { id: item.list_content.id };
          put('item', row.id, { ...item, list_content: listContent }, { type: 'topic', id: row.topic_id }, row.profile_id);
        }
      }),
    );
  }
  if (of('list_entry').length > 0) {
    loads.push(
      entriesByIds(db, accountId, of('list_entry')).then((rows) => {
        for (const row of rows) put('list_entry', row.id, toListEntry(ctx, row), { type: 'item', id: row.item_id }, row.profile_id);
      }),
    );
  }
  if (of('emergency_item').length > 0) {
    loads.push(
      listEmergencyItemsByIds(db, accountId, of('emergency_item')).then((rows) => {
        for (const row of rows) put('emergency_item', row.id, toEmergencyItem(ctx, access, row), holder);
      }),
    );
  }
  if (of('emergency_contact').length > 0) {
    loads.push(
      listEmergencyContactsByIds(db, accountId, of('emergency_contact')).then((rows) => {
        for (const row of rows) put('emergency_contact', row.id, toEmergencyContact(ctx, row), holder);
      }),
    );
  }
  if (of('media_resource').length > 0) {
    loads.push(
      listMediaByIds(db, accountId, of('media_resource')).then((rows) => {
        for (const row of rows) {
          put(
            'media_resource',
            row.id,
            toMediaResource(ctx, access, { ...row, size: Number(row.size) }),
            holder,
            null,
            row.in_private === 1,
          );
        }
      }),
    );
  }
  await Promise.all(loads);
  return loaded;
}
