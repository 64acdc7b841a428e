// Queries on emergency items. Every one takes the caller's account id.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { EmergencyItemRow } from './emergency-item-schemas.ts';

export interface OwnedEmergencyItemRow extends EmergencyItemRow {
  app_user_id: number;
}

function selectWithMedia(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('emergency_items')
    .leftJoin('media_resources', (join) =>
      join
        .onRef('media_resources.id', '=', 'emergency_items.media_resource_id')
        .onRef('media_resources.account_id', '=', 'emergency_items.account_id'),
    )
    .select([
      'emergency_items.id',
      'emergency_items.app_user_id',
      'emergency_items.name',
      'emergency_items.description',
      'media_resources.id as media_id',
      'media_resources.name as media_name',
      'media_resources.storage_key as media_storage_key',
      'media_resources.content_type as media_content_type',
      'media_resources.size as media_size',
    ])
    .where('emergency_items.account_id', '=', accountId);
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectWithMedia>['execute']>>[number];

function toRow(row: JoinedRow): OwnedEmergencyItemRow {
  const { media_id: id, media_name: name, media_storage_key: storageKey, media_content_type: contentType, media_size: size } = row;
  const media =
    id !== null && name !== null && storageKey !== null && contentType !== null && size !== null
      ? { id, name, storage_key: storageKey, content_type: contentType, size: Number(size) }
      : null;
  return { id: row.id, app_user_id: row.app_user_id, name: row.name, description: row.description, media };
}

export async function listEmergencyItems(db: Kysely<Database>, accountId: number, appUserId: number): Promise<EmergencyItemRow[]> {
  const rows = await selectWithMedia(db, accountId)
    .where('emergency_items.app_user_id', '=', appUserId)
    .orderBy('emergency_items.id')
    .execute();
  return rows.map(toRow);
}

/** Emergency items by id (the changes of docs/offline-and-live.md). */
export async function listEmergencyItemsByIds(
  db: Kysely<Database>,
  accountId: number,
  ids: readonly number[],
): Promise<EmergencyItemRow[]> {
  const rows = await selectWithMedia(db, accountId).where('emergency_items.id', 'in', ids).execute();
  return rows.map(toRow);
}

export async function findEmergencyItem(db: Kysely<Database>, accountId: number, id: number): Promise<OwnedEmergencyItemRow | undefined> {
  const row = await selectWithMedia(db, accountId).where('emergency_items.id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

export async function countEmergencyItems(db: Kysely<Database>, accountId: number, appUserId: number): Promise<number> {
  const row = await db
    .selectFrom('emergency_items')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertEmergencyItem(
  trx: Kysely<Database>,
  values: { accountId: number; appUserId: number; name: string; description: string; mediaResourceId: number | null },
): Promise<number> {
  const row = await trx
    .insertInto('emergency_items')
    .values({
      account_id: values.accountId,
      app_user_id: values.appUserId,
      name: values.name,
      description: values.description,
      media_resource_id: values.mediaResourceId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEmergencyItem(
  trx: Kysely<Database>,
  accountId: number,
  id: number,
  changes: { name?: string; description?: string; media_resource_id?: number | null },
): Promise<void> {
  await trx.updateTable('emergency_items').set(changes).where('id', '=', id).where('account_id', '=', accountId).execute();
}

export async function deleteEmergencyItem(trx: Kysely<Database>, accountId: number, id: number): Promise<boolean> {
  const result = await trx.deleteFrom('emergency_items').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
