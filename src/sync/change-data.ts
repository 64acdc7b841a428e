// What an upsert carries (docs/offline-and-live.md): the object's read shape, through the same mapper its
// GET uses, without the resources it embeds (those come as changes of their own), plus
// `parent`, what holds it. Read when the changes are, a query per type present in the page.
import type { Kysely } from 'kysely';
import type { Access } from '../app-data/kernel/access.ts';
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
import type { Database } from '../db/schema.ts';
import type { SyncedType } from '../db/synced-types.ts';
import { toMediaResource } from '../media/media-view.ts';
import { entriesByIds, itemsByIds, topicsByIds } from './change-queries.ts';

export interface Parent {
  type: SyncedType;
  id: number;
}

/** An object as an upsert sends it, the profile it is under (null: none), and whether it is private by itself. */
export interface Current {
  data: Record<string, unknown>;
  profileId: number | null;
  /** A media resource used only in private profiles. */
  inPrivate: boolean;
}

export const keyOf = (type: SyncedType, id: number): string => `${type}:${id}`;

/** How one type is read: its rows among `ids`, and what each row becomes. */
interface Loader<Row extends { id: number }> {
  rows(db: Kysely<Database>, accountId: number, appUserId: number, ids: number[]): Promise<Row[]>;
  data(ctx: AppContext, access: Access, row: Row): object;
  /** What holds it; the app user when left out. */
  parent?(row: Row): Parent | null;
  /** The profile it is under. */
  profileId?(row: Row): number;
  inPrivate?(row: Row): boolean;
}

type Load = (ctx: AppContext, db: Kysely<Database>, access: Access, appUserId: number, ids: number[]) => Promise<[number, Current][]>;

function loader<Row extends { id: number }>(spec: Loader<Row>): Load {
  return async (ctx, db, access, appUserId, ids) => {
    const rows = await spec.rows(db, access.accountId, appUserId, ids);
    return rows.map((row) => {
      const parent: Parent | null = spec.parent ? spec.parent(row) : { type: 'app_user', id: appUserId };
      const data = spec.data(ctx, access, row);
      return [
        row.id,
        {
          data: parent ? { ...data, parent } : { ...data },
          profileId: spec.profileId?.(row) ?? null,
          inPrivate: spec.inPrivate?.(row) ?? false,
        },
      ];
    });
  };
}

const LOADERS: Record<SyncedType, Load> = {
  app_user: loader({
    rows: async (db, accountId, appUserId) => {
      const row = await findAppUser(db, accountId, appUserId);
      return row ? [row] : [];
    },
    data: (ctx, access, row) => toAppUser(ctx, row, { grant: access.grant }),
    parent: () => null,
  }),
  profile: loader({
    rows: async (db, accountId, appUserId, ids) => {
      const wanted = new Set(ids);
      return (await listProfiles(db, accountId, appUserId)).filter((row) => wanted.has(row.id));
    },
    data: (ctx, _access, row) => toProfile(ctx, row),
    profileId: (row) => row.id,
  }),
  topic: loader({
    rows: (db, accountId, _appUserId, ids) => topicsByIds(db, accountId, ids),
    data: (ctx, _access, row) => {
      const { items: _embedded, ...topic } = toTopic(ctx, row, []);
      return topic;
    },
    parent: (row) => ({ type: 'profile', id: row.profile_id }),
    profileId: (row) => row.profile_id,
  }),
  item: loader({
    rows: (db, accountId, _appUserId, ids) => itemsByIds(db, accountId, ids),
    data: (ctx, access, row) => {
      const item = toItem(ctx, access, row, []);
      return { ...item, list_content: item.list_content && { id: item.list_content.id } };
    },
    parent: (row) => ({ type: 'topic', id: row.topic_id }),
    profileId: (row) => row.profile_id,
  }),
  list_entry: loader({
    rows: (db, accountId, _appUserId, ids) => entriesByIds(db, accountId, ids),
    data: (ctx, _access, row) => toListEntry(ctx, row),
    parent: (row) => ({ type: 'item', id: row.item_id }),
    profileId: (row) => row.profile_id,
  }),
  emergency_item: loader({
    rows: (db, accountId, _appUserId, ids) => listEmergencyItemsByIds(db, accountId, ids),
    data: (ctx, access, row) => toEmergencyItem(ctx, access, row),
  }),
  emergency_contact: loader({
    rows: (db, accountId, _appUserId, ids) => listEmergencyContactsByIds(db, accountId, ids),
    data: (ctx, _access, row) => toEmergencyContact(ctx, row),
  }),
  media_resource: loader({
    rows: (db, accountId, _appUserId, ids) => listMediaByIds(db, accountId, ids),
    data: (ctx, access, row) => toMediaResource(ctx, access, { ...row, size: Number(row.size) }),
    inPrivate: (row) => row.in_private === 1,
  }),
};

/** The current state of the objects `ids` names, by type; an object gone is absent. */
export async function loadCurrent(
  ctx: AppContext,
  access: Access,
  db: Kysely<Database>,
  appUserId: number,
  ids: ReadonlyMap<SyncedType, number[]>,
): Promise<Map<string, Current>> {
  const present = [...ids].filter(([, some]) => some.length > 0);
  const loads = present.map(async ([type, some]) =>
    (await LOADERS[type](ctx, db, access, appUserId, some)).map(([id, current]) => [keyOf(type, id), current] as const),
  );
  return new Map((await Promise.all(loads)).flat());
}
