// `npm run seed -- --accounts N [--db URL]` (or `node dist/cli/seed.js …` in production):
// migrates the database, then writes N verified demo/benchmark accounts in bulk, all with
// the same password (hashed once). See src/cli/seed-data.ts for what each account holds.
import { parseArgs } from 'node:util';
import { hashPassword } from '../auth/passwords.ts';
import { loadDotEnv } from '../config.ts';
import { openDatabase } from '../db/open-database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createProgressBar } from './progress-bar.ts';
import { SEED_PASSWORD, seedEmail } from './seed-data.ts';
import { seedAccounts } from './seed-writer.ts';

const USAGE = `Usage: seed --accounts N [--db URL] [--password P] [--batch N] [--json] [--quiet]

  --accounts N   how many accounts to add (bench-<n>@example.com, numbered after any already there)
  --db URL       sqlite:<path> or postgres://… (default: DATABASE_URL, else sqlite:data/profile-service.db)
  --password P   the password of every seeded account (default: ${SEED_PASSWORD})
  --batch N      accounts per transaction (default: 1000)
  --json         print the summary as JSON on stdout
  --quiet        no progress bar`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function positiveInteger(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) fail(`--${name} is required.`);
    return fallback;
  }
  if (!/^\d+$/.test(value) || Number(value) < 1) fail(`--${name} must be a positive whole number, got "${value}".`);
  return Number(value);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        accounts: { type: 'string' },
        db: { type: 'string' },
        password: { type: 'string' },
        batch: { type: 'string' },
        json: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const accounts = positiveInteger('accounts', values.accounts);
  const batchSize = positiveInteger('batch', values.batch, 1000);
  const password = values.password ?? SEED_PASSWORD;
  loadDotEnv();
  const databaseUrl = values.db ?? (process.env.DATABASE_URL?.trim() || 'sqlite:data/profile-service.db');
  if (!/^sqlite:.+/.test(databaseUrl) && !/^postgres(ql)?:\/\//.test(databaseUrl))
    fail(`--db must be "sqlite:<path>" or "postgres://…", got "${databaseUrl}".`);

  const db = openDatabase(databaseUrl);
  try {
    const started = performance.now();
    await migrateToLatest(db);
    const passwordHash = await hashPassword(password);
    const progress = values.quiet ? undefined : createProgressBar(accounts, 'accounts');
    progress?.update(0);
    const summary = await seedAccounts(db, {
      accounts,
      passwordHash,
      now: Date.now(),
      batchSize,
      onProgress: (done) => progress?.update(done),
    });
    progress?.finish();
    const seconds = (performance.now() - started) / 1000;
    const totalRows = Object.values(summary.rows).reduce((a, b) => a + b, 0);

    if (values.json) {
      console.log(JSON.stringify({ ...summary, accounts, password, seconds: Number(seconds.toFixed(2)) }));
      return;
    }
    console.log(
      `Seeded ${accounts.toLocaleString('en-US')} verified accounts in ${seconds.toFixed(1)} s ` +
        `(${totalRows.toLocaleString('en-US')} rows, ${Math.round(totalRows / seconds).toLocaleString('en-US')} rows/s).`,
    );
    console.log(`  addresses: ${seedEmail(summary.firstNumber)} … ${seedEmail(summary.lastNumber)}`);
    console.log(`  password:  ${password}`);
    console.log(`  account ids ${summary.firstAccountId} … ${summary.lastAccountId}`);
    for (const [table, count] of Object.entries(summary.rows)) console.log(`  ${table.padEnd(16)} ${count.toLocaleString('en-US')} rows`);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
