import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { listItemFunction } from './0013-app-user-usage.ts';

// PostgreSQL: create_list_items records how each accessor's create came (`via`: 'api' or 'web',
// docs/activity.md), so that a create from the web client is gathered with the others of its
// turn like any other, where the ten-argument form recorded every one as 'api'. The ten- and
// eight-argument forms stay for instances of earlier builds during a rolling upgrade.
export function listItemFunctionViasMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql.raw(listItemFunction({ logged: true, activity: true, vias: true })).execute(db);
    },
  };
}
