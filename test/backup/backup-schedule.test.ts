// BACKUP_SCHEDULE: the running service backs itself up on time, keeps the newest BACKUP_KEEP,
// and a shutdown lets a backup under way finish rather than leave half of one.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer } from '../helpers/server.ts';
import { WAIT_MS } from '../helpers/wait.ts';
import { createAppUser, png, upload } from '../media/media-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe(`scheduled backups (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  test('every second, keeping the newest two: backups appear, the oldest go, a shutdown leaves no partial one', async () => {
    const location = tempDir('profile-service-scheduled-');
    const server = await startTestServer({
      BACKUP_SCHEDULE: '* * * * * *',
      BACKUP_LOCATION: location,
      BACKUP_KEEP: '2',
      BACKUP_KEY: Buffer.alloc(32, 1).toString('base64'),
      METRICS_PORT: '0',
    });
    try {
      const account = await createAccount(server);
      const appUserId = await createAppUser(server, account);
      assert.equal((await upload(server, account.token, appUserId, { name: 'P', file: png(), type: 'image/png' })).status, 201);
      const backups = server.server.backups!;
      assert.ok(backups.nextRun(), 'a next run is planned');
      const deadline = Date.now() + WAIT_MS;
      while (backups.counts.written < 4) {
        assert.ok(Date.now() < deadline, `only ${backups.counts.written} backups written (${backups.counts.failed} failed)`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(backups.counts.failed, 0);
      // For an alert on a backup that is overdue: the last success, as Prometheus reads it.
      const metrics = await (await fetch(`${server.server.metricsAddress}/metrics`)).text();
      const last = Number(/^backup_last_success_timestamp_seconds (\S+)$/m.exec(metrics)?.[1]);
      assert.ok(last > Date.now() / 1000 - 3600 && last <= Date.now() / 1000, `backup_last_success_timestamp_seconds ${last}`);
      assert.match(metrics, /^backup_failures_total 0$/m);
    } finally {
      await server.close();
    }
    const left = readdirSync(location);
    assert.equal(left.filter((name) => name.startsWith('.partial-')).length, 0, `no partial backup is left: ${left.join(', ')}`);
    assert.equal(left.length, 2, `the newest two are kept: ${left.join(', ')}`);
    for (const name of left) {
      assert.match(name, /^backup-/);
      assert.ok(existsSync(join(location, name, 'manifest.json')));
      assert.equal(readdirSync(join(location, name, 'media')).length, 1, 'the picture is in each backup');
    }

    // Started again (no backup due for months), it reports the newest backup already there.
    const again = await startTestServer({
      BACKUP_SCHEDULE: '0 0 1 1 *',
      BACKUP_LOCATION: location,
      BACKUP_KEY: Buffer.alloc(32, 1).toString('base64'),
      METRICS_PORT: '0',
    });
    try {
      const newest = left.sort().at(-1)!;
      const expected = Date.parse(newest.slice('backup-'.length).replace(/T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z$/, 'T$1:$2:$3.$4Z')) / 1000;
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const metrics = await (await fetch(`${again.server.metricsAddress}/metrics`)).text();
        const last = Number(/^backup_last_success_timestamp_seconds (\S+)$/m.exec(metrics)?.[1]);
        if (last === expected) break;
        assert.ok(Date.now() < deadline, `backup_last_success_timestamp_seconds ${last}, expected ${expected} (${newest})`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await again.close();
    }
  });
});
