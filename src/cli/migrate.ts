// `npm run migrate` (or `node dist/cli/migrate.js`): applies pending migrations to the
// database named by DATABASE_URL and exits. The service also migrates at start-up; this is
// for deployments that migrate as a separate step.
import { loadConfigOrExit } from '../config.ts';
import { openDatabase } from '../db/open-database.ts';
import { migrateToLatest } from '../db/migrate.ts';

async function main(): Promise<number> {
  const config = loadConfigOrExit();
  const db = openDatabase(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous });
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length === 0 ? 'The database is up to date.' : `Applied: ${applied.join(', ')}`);
    return 0;
  } catch (error) {
    console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main();
