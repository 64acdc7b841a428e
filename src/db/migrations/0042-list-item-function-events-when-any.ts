import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { listItemFunction } from './0013-app-user-usage.ts';

// PostgreSQL: create_list_items writes its calls' activity events only when one of its creates
// was an accessor's. The insert over empty arrays was planned again at every call (PL/pgSQL's
// custom plans for a statement whose parameters are arrays), and cost a call of one create about
// 90 µs of the database's CPU: 340 µs a call with it, 240 without, and 240 with it planned once
// (plan_cache_mode = force_generic_plan), in a loop of 3,000 calls on a seeded database.
export function listItemFunctionEventsWhenAnyMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql.raw(listItemFunction({ logged: true, activity: true, vias: true, topics: true, eventsWhenAny: true })).execute(db);
    },
  };
}
