// `npm run migrate` (or `node dist/cli/migrate.js`): applies pending migrations to the
// database named by DATABASE_URL and exits. The service also migrates at start-up; this is
// for deployments that migrate as a separate step.
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../config.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { openDatabase } from '../db/open-database.ts';

const USAGE = `Usage: npm run migrate [-- --help]

Applies the pending migrations to the database DATABASE_URL names (read from the
environment and .env), prints which were applied, and exits. The service also migrates
when it starts; this is for deployments that migrate as a separate step.

Options:
  -h, --help   print this help and exit, touching no database`;

async function main(argv: string[]): Promise<number> {
  // Anything but --help is refused before a database is opened: a typo must not migrate.
  let help: boolean | undefined;
  try {
    help = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } } }).values.help;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (help) {
    console.log(USAGE);
    return 0;
  }
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

process.exitCode = await main(process.argv.slice(2));
