import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// emergency_links.pin_lockouts: how many times in a row wrong PINs have locked the link. Each
// lock-out lasts twice as long as the one before, and after a few the link takes no PIN until
// its owner sets one again, which, as a right PIN does, sets the count back to 0
// (emergency/pin-lockout.ts).
export function emergencyPinLockoutsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('emergency_links')
        .addColumn('pin_lockouts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
