import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { CHANGE_COLUMNS, createRowTriggers, NOW_MS, type RowTrigger } from './helpers.ts';

// A media resource used only in private profiles is private too (docs/sharing.md): an accessor
// without private profile access does not see it anywhere — gallery, detail, file URL, changes,
// live stream — and cannot rename or delete it.
//
// - `media_resources.in_private` (1: private) is kept by triggers in the transaction of every
//   change that can move it, whatever makes the change (the API, a cascade, the seeder), as the
//   change log is (0019): an image content showing it added, changed or removed (an item's,
//   topic's or profile's deletion reaches image_contents by cascade), an emergency item showing
//   it added, changed or removed, a profile made private or public. A resource is private when
//   an image item in a private profile shows it, and no image item in a profile that is not
//   private and no emergency item (which are never private) does. One used nowhere, a fresh
//   upload, is not.
// - The change log follows it as it follows a profile's privacy: a media resource's upsert and
//   tombstone keep whether it was hidden just before (a new one was: it did not exist), and a
//   change of `in_private` is an upsert of its own, so an accessor without private access is
//   told of a deletion when it goes private and gets it whole when it stops being private.
//   The resources' rows already in the log were visible to everyone: they are marked so.

/** Whether an image item in a profile with `is_private = flag` shows the media resource `m`. */
function shownIn(flag: 0 | 1, m: string): string {
  const under = `JOIN items i ON i.id = ic.item_id JOIN topics t ON t.id = i.topic_id JOIN profiles p ON p.id = t.profile_id`;
  return `(EXISTS (SELECT 1 FROM image_contents ic ${under} WHERE ic.image_resource_id = ${m} AND p.is_private = ${flag})
    OR EXISTS (SELECT 1 FROM image_contents ic ${under} WHERE ic.media_resource_id = ${m} AND p.is_private = ${flag}))`;
}

const M = 'media_resources.id';
const PRIVATE_NOW = `CASE WHEN ${shownIn(1, M)} AND NOT ${shownIn(0, M)}
  AND NOT EXISTS (SELECT 1 FROM emergency_items e WHERE e.media_resource_id = ${M}) THEN 1 ELSE 0 END`;

/** Recomputes `in_private` of the media resources whose ids `ids` (an SQL list or subquery) names. */
export const recompute = (ids: string) => `UPDATE media_resources SET in_private = ${PRIVATE_NOW} WHERE id IN (${ids});`;

export const IMAGE_IDS = (row: 'NEW' | 'OLD') => `${row}.image_resource_id, ${row}.media_resource_id`;
export const IMAGE_USES = (row: 'NEW' | 'OLD') => `${row}.image_resource_id IS NOT NULL OR ${row}.media_resource_id IS NOT NULL`;

/** The media resources an image item under the profile `NEW.id` shows. */
const UNDER_PROFILE = ['image_resource_id', 'media_resource_id']
  .map(
    (column) =>
      `SELECT ic.${column} FROM image_contents ic JOIN items i ON i.id = ic.item_id JOIN topics t ON t.id = i.topic_id WHERE t.profile_id = NEW.id`,
  )
  .join(' UNION ');

function triggers(dialect: Dialect): RowTrigger[] {
  const log = (op: 'upsert' | 'delete', row: 'NEW' | 'OLD', hiddenBefore: string) =>
    `INSERT INTO changes (${CHANGE_COLUMNS}) SELECT a.id, a.account_id, 'media_resource', ${row}.id, '${op}', NULL, ${hiddenBefore}, ${NOW_MS[dialect]}
      FROM app_users a WHERE a.id = ${row}.app_user_id;`;
  return [
    {
      name: 'media_privacy_image_insert',
      on: 'AFTER INSERT ON image_contents',
      when: IMAGE_USES('NEW'),
      body: recompute(IMAGE_IDS('NEW')),
    },
    {
      name: 'media_privacy_image_update',
      on: 'AFTER UPDATE OF image_resource_id, media_resource_id ON image_contents',
      when: 'OLD.image_resource_id IS DISTINCT FROM NEW.image_resource_id OR OLD.media_resource_id IS DISTINCT FROM NEW.media_resource_id',
      body: recompute(`${IMAGE_IDS('OLD')}, ${IMAGE_IDS('NEW')}`),
    },
    {
      name: 'media_privacy_image_delete',
      on: 'AFTER DELETE ON image_contents',
      when: IMAGE_USES('OLD'),
      body: recompute(IMAGE_IDS('OLD')),
    },
    {
      name: 'media_privacy_emergency_insert',
      on: 'AFTER INSERT ON emergency_items',
      when: 'NEW.media_resource_id IS NOT NULL',
      body: recompute('NEW.media_resource_id'),
    },
    {
      name: 'media_privacy_emergency_update',
      on: 'AFTER UPDATE OF media_resource_id ON emergency_items',
      when: 'OLD.media_resource_id IS DISTINCT FROM NEW.media_resource_id',
      body: recompute('OLD.media_resource_id, NEW.media_resource_id'),
    },
    {
      name: 'media_privacy_emergency_delete',
      on: 'AFTER DELETE ON emergency_items',
      when: 'OLD.media_resource_id IS NOT NULL',
      body: recompute('OLD.media_resource_id'),
    },
    {
      name: 'media_privacy_profile',
      on: 'AFTER UPDATE OF is_private ON profiles',
      when: 'OLD.is_private <> NEW.is_private',
      body: recompute(UNDER_PROFILE),
    },
    // The change log's own triggers for media resources (0019), now with whether it was hidden before.
    { name: 'log_media_resources_insert', on: 'AFTER INSERT ON media_resources', body: log('upsert', 'NEW', '1') },
    { name: 'log_media_resources_update', on: 'AFTER UPDATE OF name ON media_resources', body: log('upsert', 'NEW', 'OLD.in_private') },
    { name: 'log_media_resources_delete', on: 'AFTER DELETE ON media_resources', body: log('delete', 'OLD', 'OLD.in_private') },
    {
      name: 'log_media_resources_privacy',
      on: 'AFTER UPDATE OF in_private ON media_resources',
      when: 'OLD.in_private <> NEW.in_private',
      body: log('upsert', 'NEW', 'OLD.in_private'),
    },
  ];
}

const REPLACED = ['log_media_resources_insert', 'log_media_resources_update', 'log_media_resources_delete'];

export function mediaPrivacyMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const name of REPLACED) {
        if (dialect === 'sqlite') {
          await sql.raw(`DROP TRIGGER ${name}`).execute(db);
        } else {
          await sql.raw(`DROP TRIGGER ${name} ON media_resources`).execute(db);
          await sql.raw(`DROP FUNCTION ${name}()`).execute(db);
        }
      }
      await db.schema
        .alterTable('media_resources')
        .addColumn('in_private', 'smallint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql.raw(`UPDATE media_resources SET in_private = ${PRIVATE_NOW}`).execute(db);
      await sql`UPDATE changes SET in_private = 0 WHERE type = 'media_resource' AND in_private IS NULL`.execute(db);

      await createRowTriggers(db, dialect, triggers(dialect));
    },
  };
}
