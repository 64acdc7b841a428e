// A start-up that fails after the database was opened and migrated (here: the port is taken)
// says why and leaves nothing open: the database is closed again.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { startupFailureMessage } from '../src/startup-failure.ts';
import { createTestDatabase } from './helpers/database.ts';
import { waitFor } from './helpers/wait.ts';
import { tempDir } from './helpers/temp-dir.ts';

test('the port is taken: startServer rejects, and the database it opened is closed', async () => {
  const database = await createTestDatabase();
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  const dataDir = tempDir('profile-service-start-');
  try {
    const config = loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      MAIL_DIR: join(dataDir, 'mail'),
      MEDIA_STORAGE: `fs:${join(dataDir, 'media')}`,
    });
    await assert.rejects(startServer(config), /EADDRINUSE/);
    if (database.url.startsWith('sqlite:')) {
      // SQLite removes the write-ahead log when the last connection closes cleanly.
      const file = database.url.slice('sqlite:'.length);
      assert.ok(existsSync(file), 'the database was opened and migrated');
      assert.ok(!existsSync(`${file}-wal`), 'the database was closed');
    } else {
      // A closed connection's server process exits after the client has gone, and is listed
      // until it has: on a busy machine, for a while. One left open is listed until the wait fails.
      const name = new URL(database.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        await waitFor(async () => {
          const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          return rows[0].n === 0;
        }, 'no connection to the database left open');
      } finally {
        await admin.end();
      }
    }
  } finally {
    blocker.close();
    await database.drop();
  }
});

test('the metrics port is taken: the start fails without saying it listens on the API port', async () => {
  const database = await createTestDatabase();
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const metricsPort = (blocker.address() as { port: number }).port;
  const dataDir = tempDir('profile-service-start-');
  const lines: Array<{ msg: string }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }) as FastifyBaseLogger;
  try {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      DATABASE_URL: database.url,
      MAIL_DIR: join(dataDir, 'mail'),
      MEDIA_STORAGE: `fs:${join(dataDir, 'media')}`,
    });
    const failure = await startServer(config, { log }).then(
      () => assert.fail('the start succeeded'),
      (error: unknown) => error,
    );
    assert.match(String(failure), /EADDRINUSE/);
    assert.deepEqual(
      lines.filter((line) => /listening/i.test(line.msg)),
      [],
    );
    assert.match(startupFailureMessage(failure, config.databaseUrl), /Another program listens on that port/);
  } finally {
    blocker.close();
    await database.drop();
  }
});

test('a PostgreSQL database that does not exist: the message says how to create it', () => {
  const error = Object.assign(new Error('database "profile" does not exist'), { code: '3D000' });
  assert.equal(
    startupFailureMessage(error, 'postgres://app:secret@db.example:6543/profile'),
    'Start-up failed: database "profile" does not exist\n' +
      'Create it first, e.g. `createdb -h db.example -p 6543 -U app profile`; the service then makes its tables itself.',
  );
  // The password never reaches the message; other failures keep their own sentence alone.
  assert.equal(startupFailureMessage(new Error('boom'), 'postgres://app:secret@db.example/profile'), 'Start-up failed: boom');
});
