// kill -9 while items are being created (on SQLite many creates share one group commit),
// then restart on the same database: every item answered 201 is there, with its entries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { insertAccount } from '../../src/accounts/core/account-queries.ts';
import { issueToken } from '../../src/auth/token-queries.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { appUserOf, topicOf } from '../helpers/factories.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('kill -9 during item creates, then restart', () => {
  let database: TestDatabase;
  let dataDir: string;
  let service: ServiceProcess | undefined;
  let token: string;
  let topicId: number;

  before(async () => {
    database = await createTestDatabase();
    dataDir = tempDir('profile-service-crash-');
    // The owner, app user, profile and topic, written straight into the database.
    const db = openDatabase(database.url);
    try {
      await migrateToLatest(db);
      // An account with no address, which the tests never log in: the token is all they use.
      const accountId = await insertAccount(db.kysely, { firstName: 'Kim', lastName: 'Crash', passwordHash: 'unused', now: 0 });
      const appUserId = await appUserOf(db.kysely, accountId, { name: 'Kim', now: 0 });
      topicId = (await topicOf(db.kysely, accountId, appUserId)).topicId;
      token = await issueToken(db.kysely, accountId, Date.now(), 'password');
    } finally {
      await db.close();
    }
  });
  after(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await database.drop();
  });

  test('every item answered 201 before the kill exists after the restart, entries and all', async () => {
    service = await startServiceProcess(database.url, dataDir);
    const first = service;
    const acknowledged: Array<{ id: number; entries: string[] }> = [];
    let killed = false;
    await Promise.all(
      Array.from({ length: 120 }, async (_, index) => {
        await new Promise((done) => setTimeout(done, Math.floor(index / 8) * 10));
        if (killed) return;
        const entries = [`entry ${index}.1`, `entry ${index}.2`, `entry ${index}.3`];
        let response: Response;
        try {
          response = await fetch(`${first.url}/app/topics/${topicId}/items/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Token ${token}` },
            body: JSON.stringify({ name: `Item ${index}`, list_content: { entries: entries.map((text) => ({ text })) } }),
          });
        } catch (error) {
          if (killed) return;
          throw error;
        }
        assert.equal(response.status, 201, await response.clone().text());
        acknowledged.push({ id: ((await response.json()) as { id: number }).id, entries });
        if (acknowledged.length === 40 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }),
    );
    await first.exited;
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.ok(acknowledged.length >= 40);

    service = await startServiceProcess(database.url, dataDir);
    const response = await fetch(`${service.url}/app/topics/${topicId}/items/`, { headers: { authorization: `Token ${token}` } });
    assert.equal(response.status, 200);
    const items = (await response.json()) as Array<{ id: number; list_content: { entries: Array<{ text: string }> } }>;
    const byId = new Map(items.map((item) => [item.id, item]));
    for (const { id, entries } of acknowledged) {
      assert.deepEqual(
        byId.get(id)?.list_content.entries.map((e) => e.text),
        entries,
        `item ${id}`,
      );
    }
  });
});
