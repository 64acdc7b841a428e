// kill -9 right after an account deletion committed, before its media files were removed: the
// removal is an outbox message of the same transaction, so the restarted service removes them.
// The first process runs with OUTBOX_WORKER=off, so nothing is delivered before the kill.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../src/auth/passwords.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { loadConfig } from '../../src/config.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { isIncoming, listStoredObjects, testMediaStorageEnv } from '../helpers/media-storage.ts';
import { verifiedAccount } from '../helpers/factories.ts';
import { requester } from '../helpers/server.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { png, uploadForm } from '../media/media-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const PASSWORD = 'violet-lantern-47-quarry';

/** What the service keeps in its media store (local disk, or S3 with TEST_MEDIA_STORAGE=s3), uploads being received left out. */
async function storedFiles(dataDir: string): Promise<string[]> {
  const spec = loadConfig(await testMediaStorageEnv(dataDir)).mediaStorage;
  return (await listStoredObjects(spec)).filter((stored) => !isIncoming(stored));
}

describe('kill -9 right after an account deletion, then restart', () => {
  let database: TestDatabase;
  let dataDir: string;
  let email: string;
  const services: ServiceProcess[] = [];

  before(async () => {
    database = await createTestDatabase();
    dataDir = tempDir('profile-service-deletion-crash-');
    const db = openDatabase(database.url);
    try {
      await migrateToLatest(db);
      email = (await verifiedAccount(db.kysely, { passwordHash: await hashPassword(PASSWORD), now: Date.now() })).email;
    } finally {
      await db.close();
    }
  });
  after(async () => {
    for (const service of services) {
      if (service.child.exitCode === null) {
        service.child.kill('SIGKILL');
        await service.exited;
      }
    }
    await database.drop();
  });

  test('the media files of the deleted account still leave storage, and the last notice still goes out', async () => {
    const first = await startServiceProcess(database.url, dataDir, undefined, { OUTBOX_WORKER: 'off' });
    services.push(first);
    const request = requester(first.url);
    const token = (await request('POST', '/auth/login/', { body: { username: email, password: PASSWORD } })).body.token as string;
    const appUser = (await request('POST', '/app/users/', { token, body: {} })).body;
    for (const name of ['a.png', 'b.png']) {
      const uploaded = await request('POST', `/app/users/${appUser.id}/gallery/`, { token, raw: uploadForm({ name, file: png() }) });
      assert.equal(uploaded.status, 201, uploaded.text);
    }
    const files = await storedFiles(dataDir);
    assert.equal(files.length, 2);

    assert.equal((await request('DELETE', '/account/', { token, body: { password: PASSWORD } })).status, 204);
    first.child.kill('SIGKILL');
    await first.exited;
    assert.deepEqual(await storedFiles(dataDir), files, 'nothing was removed before the kill');

    const second = await startServiceProcess(database.url, dataDir);
    services.push(second);
    const deadline = Date.now() + 20_000;
    const mailSent = () => existsSync(join(dataDir, 'mail')) && readdirSync(join(dataDir, 'mail')).some((name) => name.endsWith('.eml'));
    while ((await storedFiles(dataDir)).length > 0 || !mailSent()) {
      assert.ok(Date.now() < deadline, 'the restarted service did not remove the files and send the notice');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal((await requester(second.url)('POST', '/auth/login/', { body: { username: email, password: PASSWORD } })).status, 400);
  });
});
