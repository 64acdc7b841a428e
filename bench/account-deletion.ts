// How long deleting an account takes (docs/accounts.md): an account holding the bench's seeded
// profile (src/cli/seed-data.ts: 5 topics × 10 items, list entries, image contents) plus 100
// media files of 100 KB uploaded through the API, deleted with DELETE /account/. Prints the
// request's time and the time until the outbox has removed every file from storage.
//
//   npx node --import tsx bench/account-deletion.ts [--db postgres://…] [--runs 3]
//
// The service runs in this process (its production code, over real HTTP on loopback); the
// database is a fresh SQLite file, or a fresh database created on the given PostgreSQL server
// (bench/fixtures.ts, as the other benchmarks make theirs).
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hashPassword } from '../src/auth/passwords.ts';
import { SEED_PASSWORD, seedEmail } from '../src/cli/seed-data.ts';
import { seedAccounts } from '../src/cli/seed-writer.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/open-database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { startServer } from '../src/server.ts';
import { createBenchDatabase } from './fixtures.ts';

const MEDIA_FILES = 100;
const MEDIA_BYTES = 100 * 1024;

function png(size: number): Buffer {
  // A PNG signature and an IHDR chunk are what the type sniffer reads; the rest is padding.
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex');
  return Buffer.concat([signature, ihdr, Buffer.alloc(size - signature.length - ihdr.length)]);
}

async function oneRun(db: string, run: number): Promise<{ requestMs: number; filesGoneMs: number; rows: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deletion-bench-'));
  const database = await createBenchDatabase(db, `deletion_${run}`, dataDir, 1);
  const seedDb = openDatabase(database.url);
  await migrateToLatest(seedDb);
  const summary = await seedAccounts(seedDb, { accounts: 1, passwordHash: await hashPassword(SEED_PASSWORD), now: Date.now() });
  await seedDb.close();

  const config = loadConfig({
    PORT: '0',
    DATABASE_URL: database.url,
    MEDIA_STORAGE: `fs:${join(dataDir, 'media')}`,
    MAIL_DIR: join(dataDir, 'mail'),
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    OUTBOX_POLL_INTERVAL: '100ms',
  });
  const server = await startServer(config);
  try {
    const url = server.address;
    const login = await fetch(`${url}/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: seedEmail(summary.firstNumber), password: SEED_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Token ${token}` };
    const [appUser] = (await (await fetch(`${url}/app/users/`, { headers: auth })).json()) as Array<{ id: number }>;
    const file = png(MEDIA_BYTES);
    for (let i = 0; i < MEDIA_FILES; i++) {
      const form = new FormData();
      form.set('name', `photo ${i}`);
      form.set('file', new Blob([file], { type: 'image/png' }), `photo-${i}.png`);
      const uploaded = await fetch(`${url}/app/users/${appUser!.id}/gallery/`, { method: 'POST', headers: auth, body: form });
      if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}: ${await uploaded.text()}`);
    }
    const rows = await server.ctx.db.kysely
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const mediaDir = join(dataDir, 'media');
    const storedFiles = () =>
      readdirSync(mediaDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && entry.name !== '.incoming')
        .flatMap((entry) => readdirSync(join(mediaDir, entry.name)));
    if (storedFiles().length !== MEDIA_FILES) throw new Error(`expected ${MEDIA_FILES} stored files, found ${storedFiles().length}`);

    const started = performance.now();
    const deleted = await fetch(`${url}/account/`, {
      method: 'DELETE',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ password: SEED_PASSWORD }),
    });
    const requestMs = performance.now() - started;
    if (deleted.status !== 204) throw new Error(`DELETE /account/ answered ${deleted.status}: ${await deleted.text()}`);
    while (existsSync(mediaDir) && storedFiles().length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    return { requestMs, filesGoneMs: performance.now() - started, rows: Number(rows.n) };
  } finally {
    await server.close();
    await database.drop();
  }
}

const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
console.log(
  `Account deletion on ${values.db === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: the seeded profile + ${MEDIA_FILES} media files of ${MEDIA_BYTES / 1024} KiB`,
);
for (let i = 0; i < runs; i++) {
  const { requestMs, filesGoneMs, rows } = await oneRun(values.db!, i);
  console.log(
    `  run ${i + 1}: DELETE /account/ answered in ${requestMs.toFixed(1)} ms (password check included); files gone after ${filesGoneMs.toFixed(0)} ms (${rows} items)`,
  );
}
