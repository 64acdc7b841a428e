import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/open-database.ts';
import type { OutboxState } from '../../src/db/schema.ts';
import { createTestDatabase, onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const CLI = fileURLToPath(new URL('../../src/cli/outbox.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run outbox -- <args>` as the operator would, in a directory without a .env file. */
async function runCli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd: tempDir('outbox-cli-'),
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill(), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe('outbox CLI', () => {
  let server: TestServer;
  let databaseUrl: string;
  const ids: Record<string, number> = {};

  async function insert(
    name: string,
    kind: string,
    state: OutboxState,
    payload: unknown,
    extra: { attempts?: number; last_error?: string | null; sent_at?: number | null } = {},
  ) {
    const now = server.clock.now();
    const row = await server.server.ctx.db.kysely
      .insertInto('outbox')
      .values({
        kind,
        state,
        payload: JSON.stringify(payload),
        attempts: extra.attempts ?? 0,
        next_attempt_at: now + 3_600_000,
        created_at: now,
        last_error: extra.last_error ?? null,
        sent_at: extra.sent_at ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[name] = row.id;
  }

  async function stateOf(name: string) {
    return server.server.ctx.db.kysely
      .selectFrom('outbox')
      .select(['state', 'attempts', 'next_attempt_at', 'last_error'])
      .where('id', '=', ids[name]!)
      .executeTakeFirstOrThrow();
  }

  before(async () => {
    server = await startTestServer();
    // The test moves entries between states itself; the worker only runs when told.
    await server.server.worker.stop();
    databaseUrl = server.server.ctx.config.databaseUrl;
    const mail = (to: string) => ({
      to,
      subject: 'Verify your e-mail address',
      text: 'key=SECRET-KEY-VALUE',
      html: '<p>key=SECRET-KEY-VALUE</p>',
    });
    await insert('pendingMail', 'email', 'pending', mail('pending@example.com'));
    await insert(
      'sentMail',
      'email',
      'sent',
      { to: 'sent@example.com', subject: 'Password changed' },
      { attempts: 1, sent_at: server.clock.now() },
    );
    await insert('failedMail', 'email', 'failed', mail('failed@example.com'), {
      attempts: 12,
      last_error: 'connect ECONNREFUSED 127.0.0.1:25',
    });
    await insert(
      'failedSync',
      'mailchimp',
      'failed',
      { previousEmail: 'old@example.com', email: 'new@example.com', firstName: 'A', lastName: 'B' },
      { attempts: 1, last_error: 'Mailchimp answered 400: Invalid Resource: new@example.com is already a list member.' },
    );
    await insert(
      'failedSync2',
      'mailchimp',
      'failed',
      { previousEmail: 'z@example.com', email: 'z@example.com', firstName: 'Z', lastName: 'Z' },
      { attempts: 1, last_error: 'Mailchimp answered 404: Resource Not Found' },
    );
  });
  after(() => server.close());

  test('list --json: every entry, oldest first, with a summary but never a body or key', async () => {
    const result = await runCli(databaseUrl, 'list', '--json');
    assert.equal(result.code, 0, result.stderr);
    const entries = JSON.parse(result.stdout);
    assert.deepEqual(
      entries.map((e: { id: number }) => e.id),
      Object.values(ids),
    );
    const failedSync = entries.find((e: { id: number }) => e.id === ids.failedSync);
    assert.deepEqual(
      { kind: failedSync.kind, state: failedSync.state, attempts: failedSync.attempts, summary: failedSync.summary },
      { kind: 'mailchimp', state: 'failed', attempts: 1, summary: 'member old@example.com -> new@example.com' },
    );
    assert.match(failedSync.lastError, /already a list member/);
    assert.equal(entries[0].summary, 'to pending@example.com: Verify your e-mail address');
    assert.doesNotMatch(result.stdout, /SECRET-KEY-VALUE/);
  });

  test('list --state filters by state; --kind by kind; --limit keeps the newest', async () => {
    const failed = JSON.parse((await runCli(databaseUrl, 'list', '--state', 'failed', '--json')).stdout);
    assert.deepEqual(
      failed.map((e: { id: number }) => e.id),
      [ids.failedMail, ids.failedSync, ids.failedSync2],
    );
    const pending = JSON.parse((await runCli(databaseUrl, 'list', '--state', 'pending', '--json')).stdout);
    assert.deepEqual(
      pending.map((e: { id: number }) => e.id),
      [ids.pendingMail],
    );
    const sync = JSON.parse((await runCli(databaseUrl, 'list', '--kind', 'mailchimp', '--json')).stdout);
    assert.deepEqual(
      sync.map((e: { id: number }) => e.id),
      [ids.failedSync, ids.failedSync2],
    );
    const newest = JSON.parse((await runCli(databaseUrl, 'list', '--limit', '2', '--json')).stdout);
    assert.deepEqual(
      newest.map((e: { id: number }) => e.id),
      [ids.failedSync, ids.failedSync2],
    );
  });

  test('list prints a table with the last error of each entry', async () => {
    const result = await runCli(databaseUrl, 'list', '--state', 'failed');
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+KIND\s+STATE\s+ATTEMPTS\s+CREATED/);
    assert.match(result.stdout, new RegExp(`^${ids.failedMail}\\s+email\\s+failed\\s+12\\s`, 'm'));
    assert.match(result.stdout, /last error: connect ECONNREFUSED 127\.0\.0\.1:25/);
    assert.doesNotMatch(result.stdout, /sent@example\.com/);
    const empty = await runCli(databaseUrl, 'list', '--kind', 'nothing-of-this-kind');
    assert.equal(empty.code, 0);
    assert.match(empty.stdout, /No outbox entries match/);
  });

  test('stats counts entries per state', async () => {
    const result = await runCli(databaseUrl, 'stats', '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { pending: 1, sent: 1, failed: 3 });
    const text = await runCli(databaseUrl, 'stats');
    assert.match(text.stdout, /^failed\s+3$/m);
  });

  test('bad usage exits 2 with the usage text and touches nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['list', '--state', 'lost'], /--state must be one of pending, sent, failed/],
      [['list', '--limit', '0'], /--limit must be a positive whole number/],
      [['list', '--bogus'], /Unknown option '--bogus'/],
      [['retry'], /retry needs entry ids or --all-failed/],
      [['retry', '--all-failed', String(ids.failedMail)], /retry needs entry ids or --all-failed/],
      [['retry', 'abc'], /an entry id must be a positive whole number, got "abc"/],
      [['frobnicate'], /unknown command "frobnicate"/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(databaseUrl, ...args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, message, args.join(' '));
      assert.match(result.stderr, /Usage:/);
    }
    assert.equal((await stateOf('failedMail')).state, 'failed');
  });

  test('retry of entries that are not failed changes nothing and exits 1 saying why', async () => {
    const result = await runCli(databaseUrl, 'retry', String(ids.pendingMail), String(ids.sentMail), '999999');
    assert.equal(result.code, 1);
    assert.match(result.stdout, /No failed entries were retried/);
    assert.match(
      result.stderr,
      new RegExp(
        `Not retried: ${ids.pendingMail} \\(pending, not failed\\), ${ids.sentMail} \\(sent, not failed\\), 999999 \\(no such entry\\)`,
      ),
    );
    assert.equal((await stateOf('sentMail')).state, 'sent');
  });

  test('retry <id> puts one failed entry back in the queue, due now, with a fresh attempt budget', async () => {
    const startedAt = Date.now();
    const result = await runCli(databaseUrl, 'retry', String(ids.failedMail));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`Queued again: ${ids.failedMail}$`, 'm'));
    const row = await stateOf('failedMail');
    assert.equal(row.state, 'pending');
    assert.equal(row.attempts, 0);
    assert.ok(row.next_attempt_at >= startedAt && row.next_attempt_at <= Date.now(), 'due now');
    assert.equal(row.last_error, 'connect ECONNREFUSED 127.0.0.1:25', 'the last error stays until the next attempt');
    assert.equal((await stateOf('failedSync')).state, 'failed', 'other failed entries are left alone');
  });

  test("a retried entry is delivered by the service's worker", async () => {
    // The CLI used the wall clock; bring the test clock level with it.
    server.clock.advance(Math.max(0, Date.now() - server.clock.now()) + 1000);
    await server.server.worker.runOnce();
    const row = await stateOf('failedMail');
    assert.equal(row.state, 'sent');
    const mail = readdirSync(join(server.dataDir, 'mail')).filter((name) => name.endsWith('.eml'));
    assert.equal(mail.length, 1, 'written once to MAIL_DIR');
  });

  test('retry --all-failed puts every failed entry back in the queue', async () => {
    const result = await runCli(databaseUrl, 'retry', '--all-failed');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`Queued again: ${ids.failedSync}, ${ids.failedSync2}$`, 'm'));
    for (const name of ['failedSync', 'failedSync2']) assert.equal((await stateOf(name)).state, 'pending');
    const again = await runCli(databaseUrl, 'retry', '--all-failed');
    assert.equal(again.code, 0);
    assert.match(again.stdout, /No failed entries were retried/);
  });
});

describe('outbox CLI against a database the service has not prepared', () => {
  test("a database without the service's tables: refused, exit 1, nothing created", async () => {
    const database = await createTestDatabase();
    // An empty database (SQLite creates the file on open).
    const empty = openDatabase(database.url);
    await sql`select 1`.execute(empty.kysely);
    await empty.close();
    try {
      const result = await runCli(database.url, 'list');
      assert.equal(result.code, 1);
      assert.match(result.stderr, /is not migrated to this version \(pending: 0001-accounts, 0002-outbox/);
      assert.match(result.stderr, /Start the service/);
    } finally {
      await database.drop();
    }
  });

  test('an SQLite file that does not exist is not created', { skip: onPostgres }, async () => {
    const path = join(tempDir('outbox-cli-missing-'), 'nothing-here.db');
    const result = await runCli(`sqlite:${path}`, 'stats');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /No database at ".*nothing-here\.db" \(DATABASE_URL\)/);
    assert.equal(existsSync(path), false);
  });

  test('a bad DATABASE_URL is a configuration error naming the variable (exit 2)', async () => {
    const result = await runCli('mysql://nope', 'list');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^Configuration error: DATABASE_URL must be/);
  });
});
