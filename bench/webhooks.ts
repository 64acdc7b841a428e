// What webhook deliveries cost (docs/webhooks.md, docs/scaling.md): queues --events events
// (account.email_changed, --per-account of them for each of --events ÷ --per-account seeded
// accounts, as the account services queue them) for one endpoint, prints what they add to the
// database and to the service's memory while queued, then starts the webhook worker and times
// their delivery to a receiver in a process of its own on this machine (HTTP on loopback,
// answering 204), the events of each account in order.
//
//   npx node --expose-gc --import tsx bench/webhooks.ts [--db postgres://…] [--events 10000] [--per-account 10]
//
// The service runs in this process (its production code); the database is a fresh SQLite file,
// or a fresh database created on the given PostgreSQL server (bench/fixtures.ts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { createWebhook } from '../src/admin/webhook-service.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { SEED_PASSWORD } from '../src/cli/seed-data.ts';
import { seedAccounts } from '../src/cli/seed-writer.ts';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open-database.ts';
import { startServer } from '../src/server.ts';
import { queueAccountEvent } from '../src/webhooks/webhook-events.ts';
import { createBenchDatabase } from './fixtures.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    events: { type: 'string', default: '10000' },
    'per-account': { type: 'string', default: '10' },
  },
});
const EVENTS = Number(values.events);
const PER_ACCOUNT = Number(values['per-account']);
const ACCOUNTS = Math.ceil(EVENTS / PER_ACCOUNT);

const RECEIVER = `
const http = require('node:http');
let count = 0;
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { count++; res.writeHead(204).end(); }); });
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
process.on('SIGTERM', () => { process.stdout.write('received ' + count + '\\n'); process.exit(0); });
`;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
function settle(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function databaseBytes(kysely: Kysely<Database>, dialect: string, file?: string): Promise<number> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ size: string }>`select pg_total_relation_size('webhook_deliveries') as size`.execute(kysely);
    return Number(rows[0]!.size);
  }
  await sql`pragma wal_checkpoint(truncate)`.execute(kysely);
  return statSync(file!).size;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webhooks-bench-'));
  const database = await createBenchDatabase(values.db!, 'webhooks', dataDir, ACCOUNTS);
  const seedDb = openDatabase(database.url);
  await migrateToLatest(seedDb);
  const seeded = await seedAccounts(seedDb, { accounts: ACCOUNTS, passwordHash: await hashPassword(SEED_PASSWORD), now: Date.now() });
  await seedDb.close();

  const receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [portLine] = (await once(receiver.stdout, 'data')) as [Buffer];
  const port = Number(portLine.toString().trim());

  const config = loadConfig({
    PORT: '0',
    DATABASE_URL: database.url,
    MEDIA_STORAGE: `fs:${join(dataDir, 'media')}`,
    MAIL_DIR: join(dataDir, 'mail'),
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    // The workers wait until the events are queued and measured.
    OUTBOX_WORKER: 'off',
    OUTBOX_POLL_INTERVAL: '100ms',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const server = await startServer(config);
  const { ctx } = server;
  const sqliteFile = database.url.startsWith('sqlite:') ? database.url.slice('sqlite:'.length) : undefined;
  try {
    await createWebhook(ctx, { via: 'cli', user: 'bench' }, { url: `http://127.0.0.1:${port}/hooks`, events: ['*'] });
    settle();
    const heapBefore = process.memoryUsage();
    const bytesBefore = await databaseBytes(ctx.db.kysely, ctx.db.dialect, sqliteFile);
    const queueStart = performance.now();
    for (let round = 0; round < PER_ACCOUNT; round++) {
      for (let id = seeded.firstAccountId; id <= seeded.lastAccountId; id++) {
        await ctx.db.writeTransaction((trx) => queueAccountEvent(ctx, trx, 'account.email_changed', id));
      }
    }
    const queueMs = performance.now() - queueStart;
    settle();
    const heapQueued = process.memoryUsage();
    const bytesQueued = await databaseBytes(ctx.db.kysely, ctx.db.dialect, sqliteFile);
    const queued = Number(
      (
        await ctx.db.kysely
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

    let peakRss = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 50);
    const start = performance.now();
    server.webhooks.start();
    for (;;) {
      const left = await ctx.db.kysely
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('state', '=', 'pending')
        .executeTakeFirstOrThrow();
      if (Number(left.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    const failed = await ctx.db.kysely
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('state', '!=', 'delivered')
      .executeTakeFirstOrThrow();

    console.log(`database: ${ctx.db.dialect}; ${queued} events for ${ACCOUNTS} accounts (${PER_ACCOUNT} each), one endpoint`);
    console.log(`queueing: ${(queued / (queueMs / 1000)).toFixed(0)} events/s, one transaction each`);
    console.log(
      `queued: database +${mib(bytesQueued - bytesBefore)} (${((bytesQueued - bytesBefore) / queued).toFixed(0)} bytes an event${ctx.db.dialect === 'postgres' ? ', the table with its indexes' : ', the file'}), ` +
        `heap +${mib(heapQueued.heapUsed - heapBefore.heapUsed)}, RSS +${mib(heapQueued.rss - heapBefore.rss)}`,
    );
    console.log(
      `delivered: ${queued} in ${seconds.toFixed(1)} s = ${(queued / seconds).toFixed(0)} events/s; not delivered: ${failed.n}; peak RSS while delivering ${mib(peakRss)}`,
    );
  } finally {
    await server.close();
    receiver.kill('SIGTERM');
    await once(receiver, 'exit');
    await database.drop();
  }
}

await main();
