import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { IMAGE_IDS, IMAGE_USES, recompute } from './0028-media-privacy.ts';
import { CHANGE_COLUMNS, NOW_MS } from './helpers.ts';

// A private media resource (used only in private profiles, 0028) is seen by an accessor limited
// to some profiles only while an image item under one of them shows it (docs/sharing.md). That
// changes when an image content starts or stops showing it, and its `in_private` may stay 1:
// the change log then had nothing to say of the resource, and such an accessor's client never
// heard of a resource it now sees, nor of one it no longer sees. The image contents' privacy
// triggers now also log an upsert of each private resource they name, after recomputing
// `in_private` (so the row reads it as it is now; a resource that turned private has its own
// upsert from the privacy trigger first, which says it was not hidden before). Each caller's
// changes then decide what the upsert is to them (sync/change-service.ts).

/** An upsert of each private media resource among `ids`, hidden before (it is private now and was: a turn is logged by the resource's own trigger first). */
const logPrivateUses = (dialect: Dialect, ids: string) =>
  `INSERT INTO changes (${CHANGE_COLUMNS}) SELECT a.id, a.account_id, 'media_resource', m.id, 'upsert', NULL, 1, ${NOW_MS[dialect]}
    FROM media_resources m JOIN app_users a ON a.id = m.app_user_id WHERE m.id IN (${ids}) AND m.in_private = 1;`;

const TRIGGERS = [
  { name: 'media_privacy_image_insert', on: 'AFTER INSERT ON image_contents', when: IMAGE_USES('NEW'), ids: IMAGE_IDS('NEW') },
  {
    name: 'media_privacy_image_update',
    on: 'AFTER UPDATE OF image_resource_id, media_resource_id ON image_contents',
    when: 'OLD.image_resource_id IS DISTINCT FROM NEW.image_resource_id OR OLD.media_resource_id IS DISTINCT FROM NEW.media_resource_id',
    ids: `${IMAGE_IDS('OLD')}, ${IMAGE_IDS('NEW')}`,
  },
  { name: 'media_privacy_image_delete', on: 'AFTER DELETE ON image_contents', when: IMAGE_USES('OLD'), ids: IMAGE_IDS('OLD') },
];

export function privateMediaUsesLoggedMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const trigger of TRIGGERS) {
        const body = `${recompute(trigger.ids)} ${logPrivateUses(dialect, trigger.ids)}`;
        if (dialect === 'sqlite') {
          await sql.raw(`DROP TRIGGER ${trigger.name}`).execute(db);
          await sql.raw(`CREATE TRIGGER ${trigger.name} ${trigger.on} WHEN ${trigger.when} BEGIN ${body} END`).execute(db);
          continue;
        }
        await sql
          .raw(`CREATE OR REPLACE FUNCTION ${trigger.name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`)
          .execute(db);
      }
    },
  };
}
