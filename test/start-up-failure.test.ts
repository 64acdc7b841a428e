// A start-up that fails after the database was opened and migrated (here: the port is taken)
// says why and leaves nothing open: the database is closed again.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { createTestDatabase } from './helpers/database.ts';
import { waitFor } from './helpers/wait.ts';

test('the port is taken: startServer rejects, and the database it opened is closed', async () => {
  const database = await createTestDatabase();
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  const dataDir = mkdtempSync(join(tmpdir(), 'profile-service-start-'));
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
