// A burst of wrong e-mailed codes (docs/accounts.md#codes-by-e-mail): 1,000 wrong codes across
// 100 addresses that each hold a live sign-in code, sent 50 at a time, while another person signs
// in with their password one login after another. Prints the burst's answers and the other
// person's login times without and during the burst, as JSON.
//
//   npx node bench/email-code-burst.ts [one-ip|many-ips]
//
// one-ip: the whole burst from one client address; many-ips: each wrong code from an address of
// its own (a botnet), which only the per-address and per-code limits can stop. The service runs
// from its sources as a child process, on a fresh SQLite file, with the limits on.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { insertAccount } from '../src/accounts/core/account-queries.ts';
import { insertAddress, markAddressVerified } from '../src/accounts/emails/email-address-queries.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open-database.ts';

const mode = process.argv[2] === 'many-ips' ? 'many-ips' : 'one-ip';
const ADDRESSES = 100;
const WRONG_CODES = 1_000;
const AT_ONCE = 50;
const LOGINS = 30;
const PASSWORD = 'bench-password-for-codes-1';
const ROOT = resolve(import.meta.dirname, '..');

const dir = mkdtempSync(join(tmpdir(), 'email-code-burst-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const db = openDatabase(databaseUrl);
await migrateToLatest(db);
const hash = await hashPassword(PASSWORD);
const now = Date.now();
const emails: string[] = [];
for (let i = 0; i <= ADDRESSES; i++) {
  const email = `burst-${i}@example.com`;
  const accountId = await insertAccount(db.kysely, { firstName: 'B', lastName: String(i), passwordHash: hash, now });
  const address = await insertAddress(db.kysely, { accountId, email, primary: true, verifiedAction: 1, now });
  await markAddressVerified(db.kysely, address.id);
  emails.push(email);
}
await db.close();
const victim = emails.pop()!;

const port = await new Promise<number>((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => done(port));
  });
});
const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: ROOT,
  env: {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    MAIL_DIR: join(dir, 'mail'),
    MEDIA_STORAGE: `fs:${join(dir, 'media')}`,
    LOG_LEVEL: 'silent',
    TRUST_PROXY: '127.0.0.1',
    OVERLOAD_EVENT_LOOP_DELAY: '0',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://127.0.0.1:${port}`;
for (let tries = 0; ; tries++) {
  try {
    if ((await fetch(`${url}/health`)).ok) break;
  } catch {}
  if (tries > 300) throw new Error('the service did not start');
  await new Promise((done) => setTimeout(done, 100));
}

async function post(path: string, body: unknown, ip: string): Promise<number> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/** The victim's password logins, one after another, from an address of their own: each one's milliseconds. */
async function logins(count: number, until?: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (times.length < count || (until && !until())) {
    const started = performance.now();
    const status = await post('/auth/login/', { username: victim, password: PASSWORD }, '192.0.2.77');
    if (status !== 200) throw new Error(`the victim's login answered ${status}`);
    times.push(performance.now() - started);
  }
  return times;
}

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { logins: sorted.length, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: Math.round(sorted.at(-1)!) };
}

// Each address gets a live code, asked from addresses of their own (the per-IP limit on asking is not what is measured).
for (const [i, email] of emails.entries()) await post('/auth/email-code/', { email }, `198.51.100.${i + 1}`);

await logins(5); // warm-up
const baseline = await logins(LOGINS);

const statuses = new Map<number, number>();
let sent = 0;
let burstDone = false;
const burstStarted = performance.now();
const burst = (async () => {
  const workers = Array.from({ length: AT_ONCE }, async () => {
    for (;;) {
      const n = sent++;
      if (n >= WRONG_CODES) return;
      const ip = mode === 'one-ip' ? '203.0.113.9' : `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      // 999xxx: each right only by a one-in-a-million chance.
      const status = await post('/auth/login/email-code/', { email: emails[n % ADDRESSES], email_code: String(n).padStart(6, '9') }, ip);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  await Promise.all(workers);
  burstDone = true;
})();
const during = await logins(LOGINS, () => burstDone);
await burst;
const burstMs = performance.now() - burstStarted;

child.kill('SIGTERM');
await new Promise((done) => child.once('exit', done));
// What the burst left of the codes: each address's code dead after its 5 tries, whatever came after.
const after = openDatabase(databaseUrl);
const codes = await after.kysely.selectFrom('email_codes').select(['failed_attempts', 'used_at']).execute();
await after.close();
process.stdout.write(
  `${JSON.stringify(
    {
      mode,
      burst: {
        wrongCodes: WRONG_CODES,
        addresses: ADDRESSES,
        atOnce: AT_ONCE,
        ms: Math.round(burstMs),
        answers: Object.fromEntries(statuses),
        codesDead: codes.filter((code) => code.failed_attempts >= 5).length,
        codesUsed: codes.filter((code) => code.used_at !== null).length,
      },
      othersLogin: { baseline: summary(baseline), duringBurst: summary(during) },
    },
    null,
    2,
  )}\n`,
);
process.exit(0);
