// The data the workloads run against: a database per size, seeded by the bulk seeder
// (dist/cli/seed.js), and a set of seeded accounts with their profile, first topic and a
// token obtained by logging in through the API.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { issueToken } from '../src/auth/token-queries.ts';
import { SEED_PASSWORD, seedEmail } from '../src/cli/seed-data.ts';
import { openDatabase } from '../src/db/open-database.ts';
import { ROOT } from './processes.ts';

export interface BenchDatabase {
  url: string;
  accounts: number;
  drop(): Promise<void>;
}

export interface BenchAccount {
  number: number;
  email: string;
  accountId: number;
  profileId: number;
  topicId: number;
  token: string;
}

/** Where the bench's databases live: SQLite files in the work directory, or new databases on the given PostgreSQL server. */
export async function createBenchDatabase(db: string, name: string, workDir: string, accounts: number): Promise<BenchDatabase> {
  if (db === 'sqlite') return { url: `sqlite:${join(workDir, `${name}.db`)}`, accounts, drop: async () => {} };
  const database = `profile_bench_${process.pid}_${name}`;
  const admin = new pg.Client({ connectionString: db });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
  } catch (error) {
    throw new Error(`could not create the bench database "${database}" (the role needs CREATEDB): ${(error as Error).message}`);
  } finally {
    await admin.end();
  }
  const url = new URL(db);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    accounts,
    async drop() {
      const client = new pg.Client({ connectionString: db });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** "PostgreSQL 15.8, synchronous_commit=on": what the service's writes run on. */
export async function describePostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const version = await client.query<{ server_version: string }>('show server_version');
    const commit = await client.query<{ synchronous_commit: string }>('show synchronous_commit');
    return `PostgreSQL ${version.rows[0]!.server_version.split(' ')[0]}, synchronous_commit=${commit.rows[0]!.synchronous_commit}`;
  } finally {
    await client.end();
  }
}

/**
 * Runs the bulk seeder as operators would (`node dist/cli/seed.js`, of the checkout at `root`);
 * its progress bar shows on stderr.
 */
export async function seed(database: BenchDatabase, root = ROOT): Promise<{ seconds: number }> {
  const child = spawn(
    process.execPath,
    [join(root, 'dist/cli/seed.js'), '--accounts', String(database.accounts), '--db', database.url, '--json'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the seeder failed (code ${code})`);
  return JSON.parse(output) as { seconds: number };
}

/** `count` account numbers spread evenly over 1…total (so reads touch the whole database), shifted by `offset`. */
export function spreadNumbers(total: number, count: number, offset = 0): number[] {
  const n = Math.min(count, total);
  const step = total / n;
  return Array.from({ length: n }, (_, i) => 1 + ((Math.floor(i * step) + offset) % total));
}

async function findAccounts(databaseUrl: string, numbers: number[]): Promise<Omit<BenchAccount, 'token'>[]> {
  const db = openDatabase(databaseUrl);
  try {
    const rows = await db.kysely
      .selectFrom('email_addresses')
      .innerJoin('profiles', 'profiles.account_id', 'email_addresses.account_id')
      .innerJoin('topics', 'topics.profile_id', 'profiles.id')
      .where('email_addresses.email_lower', 'in', numbers.map(seedEmail))
      .where('profiles.is_default', '=', 1)
      .select((eb) => [
        'email_addresses.email_lower as email',
        'email_addresses.account_id',
        'profiles.id as profile_id',
        eb.fn.min('topics.id').as('topic_id'),
      ])
      .groupBy(['email_addresses.email_lower', 'email_addresses.account_id', 'profiles.id'])
      .execute();
    const byEmail = new Map(rows.map((row) => [row.email, row]));
    return numbers.map((number) => {
      const row = byEmail.get(seedEmail(number));
      if (!row) throw new Error(`seeded account ${seedEmail(number)} not found in ${databaseUrl}`);
      return { number, email: row.email, accountId: row.account_id, profileId: row.profile_id, topicId: Number(row.topic_id) };
    });
  } finally {
    await db.close();
  }
}

/**
 * Logs the accounts in through POST /auth/login/ (four at a time). Where the service has no
 * login endpoint yet (404), tokens are issued straight into the database instead.
 */
async function logIn(
  serviceUrl: string,
  databaseUrl: string,
  accounts: Omit<BenchAccount, 'token'>[],
): Promise<{ accounts: BenchAccount[]; via: string }> {
  const tokens: string[] = new Array(accounts.length);
  let missing = false;
  let next = 0;
  const worker = async () => {
    while (!missing && next < accounts.length) {
      const index = next++;
      const response = await fetch(`${serviceUrl}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: accounts[index]!.email, password: SEED_PASSWORD }),
      });
      const text = await response.text();
      if (response.status === 404) missing = true;
      else if (response.status !== 200) throw new Error(`logging in ${accounts[index]!.email} answered ${response.status}: ${text}`);
      else tokens[index] = (JSON.parse(text) as { token: string }).token;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  if (!missing) return { accounts: accounts.map((a, i) => ({ ...a, token: tokens[i]! })), via: 'POST /auth/login/' };

  const db = openDatabase(databaseUrl);
  try {
    const issued: BenchAccount[] = [];
    for (const account of accounts)
      issued.push({ ...account, token: await issueToken(db.kysely, account.accountId, Date.now(), 'password') });
    return { accounts: issued, via: 'tokens written to the database (POST /auth/login/ answered 404)' };
  } finally {
    await db.close();
  }
}

export async function benchAccounts(
  serviceUrl: string,
  databaseUrl: string,
  numbers: number[],
): Promise<{ accounts: BenchAccount[]; via: string }> {
  return logIn(serviceUrl, databaseUrl, await findAccounts(databaseUrl, numbers));
}

/** How many items the topics hold now (W3 checks that every acknowledged create is there). */
export async function countItems(databaseUrl: string, topicIds: number[]): Promise<number> {
  const db = openDatabase(databaseUrl);
  try {
    const row = await db.kysely
      .selectFrom('items')
      .where('topic_id', 'in', topicIds)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.close();
  }
}

/** Shares each owner's app user with the viewer at the same place, read only, accepted (W7). */
export async function shareWith(
  databaseUrl: string,
  owners: BenchAccount[],
  viewers: BenchAccount[],
  rights: { canWrite?: boolean } = {},
): Promise<void> {
  const db = openDatabase(databaseUrl);
  try {
    const appUsers = await db.kysely
      .selectFrom('app_users')
      .select(['id', 'account_id'])
      .where(
        'account_id',
        'in',
        owners.map((o) => o.accountId),
      )
      .execute();
    const appUserOf = new Map(appUsers.map((row) => [row.account_id, row.id]));
    const now = Date.now();
    await db.kysely
      .insertInto('accessors')
      .values(
        owners.map((owner, i) => ({
          app_user_id: appUserOf.get(owner.accountId)!,
          owner_account_id: owner.accountId,
          email: viewers[i]!.email,
          email_lower: viewers[i]!.email,
          user_with_access_id: viewers[i]!.accountId,
          can_write: rights.canWrite ? 1 : 0,
          created_at: now,
          accepted_at: now,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  } finally {
    await db.close();
  }
}
