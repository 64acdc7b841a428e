import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// activity_events loses its index on (app_user_id, id): every read of an app user's log also
// names the owner's account, which (account_id, app_user_id, id) serves, and the app user's
// foreign key (a deletion's cascade) is served by the read-hour index, which starts with
// app_user_id. Each index keyed by the owner puts an event on a page of that owner's: the
// creates of one commit, by as many owners, write as many pages more to the journal for it. An
// accessor's item create, which writes an event, cost SQLite 1.35–1.44 × the owner's create
// (bench W9 against W3, in one run) with three such indexes, and 1.31–1.36 with two; paired
// against the build with three (--compare, 5 pairs), its CPU is 0.99: the index was a small
// part of that cost.
export function activityWithoutAppUserIndexMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('activity_events_app_user').execute();
    },
  };
}
