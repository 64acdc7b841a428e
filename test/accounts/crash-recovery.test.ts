// kill -9 while registrations are being written, then restart on the same database: every
// registration that was answered 201 is there, with its password and its queued verification e-mail.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { PASSWORD, uniqueEmail } from './account-flows.ts';

const ROOT = resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

interface Service {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

async function startService(databaseUrl: string, dataDir: string): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://api.test',
      DATABASE_URL: databaseUrl,
      MAIL_DIR: join(dataDir, 'mail'),
      MEDIA_STORAGE: `fs:${join(dataDir, 'media')}`,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
      OUTBOX_POLL_INTERVAL: '100ms',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the service did not start');
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return { child, url, exited };
}

function post(url: string, path: string, body: unknown): Promise<Response> {
  return fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('kill -9 during registrations, then restart', () => {
  let database: TestDatabase;
  let dataDir: string;
  let service: Service | undefined;
  before(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'profile-service-crash-'));
  });
  after(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await database.drop();
  });

  test('every account answered 201 before the kill exists after the restart, with its verification e-mail', async () => {
    service = await startService(database.url, dataDir);
    const emails = Array.from({ length: 40 }, () => uniqueEmail('crash'));
    const acknowledged: string[] = [];
    let killed = false;
    const first = service;
    await Promise.all(emails.map(async (email, index) => {
      // Staggered, so some are still being written when the process dies.
      await new Promise((done) => setTimeout(done, index * 15));
      if (killed) return;
      try {
        const response = await post(first.url, '/auth/register/', { email, password: PASSWORD });
        if (response.status === 201) acknowledged.push(email);
        else assert.fail(`register answered ${response.status}: ${await response.text()}`);
      } catch (error) {
        if (!killed) throw error;
        return;
      }
      if (acknowledged.length === 15 && !killed) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    }));
    await first.exited;
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.ok(acknowledged.length >= 15);

    service = await startService(database.url, dataDir);
    for (const email of acknowledged) {
      // The right password on an unverified address is told to verify first; an unknown
      // address (or a lost password) would be "Invalid credentials".
      const response = await post(service.url, '/auth/login/', { username: email, password: PASSWORD });
      assert.equal(response.status, 400);
      const body = await response.json() as { non_field_errors: string[] };
      assert.match(body.non_field_errors[0]!, /not verified/, email);
      const again = await post(service.url, '/auth/register/', { email, password: PASSWORD });
      assert.equal(again.status, 400, 'the address is taken');
    }

    // The verification e-mails were committed with the accounts: each has its outbox row
    // (pending, or sent by either process; a row the killed process had claimed waits for its
    // lease to run out and is then sent by the new one).
    const db = openDatabase(database.url);
    try {
      const rows = await db.kysely.selectFrom('outbox').select(['payload', 'state']).where('kind', '=', 'email').execute();
      const recipients = rows.map((row) => (JSON.parse(row.payload) as { to: string; subject: string }));
      for (const email of acknowledged) {
        assert.equal(recipients.filter((r) => r.to === email && r.subject === 'Confirm your e-mail address').length, 1, email);
      }
    } finally {
      await db.close();
    }
  });
});
