// The operator's commands (outbox.ts, accounts.ts) open the service's own database
// (DATABASE_URL): never a new one, never migrating it.
import { existsSync } from 'node:fs';
import type { Db } from '../db/database.ts';
import { openDatabase } from '../db/open-database.ts';
import { pendingMigrations } from '../db/migrate.ts';

/** A problem worth one clear line (no stack): exit status 1. */
export class CommandError extends Error {}

/** Opens the service's database, refusing one that does not exist or is not migrated. */
export async function openServiceDatabase(databaseUrl: string): Promise<Db> {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    // Opening would create an empty file: say instead that the service has not run here.
    if (path === ':memory:' || !existsSync(path)) {
      throw new CommandError(
        `No database at "${path}" (DATABASE_URL). Check DATABASE_URL and the working directory, or start the service once to create it.`,
      );
    }
  }
  const db = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    const pending = await pendingMigrations(db);
    if (pending.length > 0) {
      throw new CommandError(
        `The database (DATABASE_URL) is not migrated to this version (pending: ${pending.join(', ')}). Start the service, which migrates at start-up, then run this again.`,
      );
    }
    return db;
  } catch (error) {
    await db.close();
    if (error instanceof CommandError) throw error;
    throw new CommandError(`Cannot read the database (DATABASE_URL): ${error instanceof Error ? error.message : String(error)}`);
  }
}
