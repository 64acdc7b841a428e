// Media across instances (docs/production.md): a file uploaded through one instance is described
// and served by the others, and deleted through a third it is gone from the shared store
// and from every instance. Three instances on one PostgreSQL database with one media store
// (a folder, or the suite's S3 server with TEST_MEDIA_STORAGE=s3).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { onPostgres } from '../helpers/database.ts';
import { testMediaStorageEnv } from '../helpers/media-storage.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createAppUser, download, isStored, png, storageKeyOf, upload, waitUntilRemoved } from '../media/media-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('media on three instances', { skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)' }, () => {
  let instances: [TestServer, TestServer, TestServer];
  before(async () => {
    const storage = await testMediaStorageEnv(tempDir('multi-instance-media-'));
    const first = await startTestServer(storage);
    const shared = { ...storage, DATABASE_URL: first.server.ctx.config.databaseUrl };
    instances = [first, await startTestServer(shared), await startTestServer(shared)];
  });
  after(async () => {
    await Promise.all(instances.slice(1).map((server) => server.close()));
    await instances[0].close();
  });

  test('stored through one, described and served by another, deleted through a third: gone everywhere', async () => {
    const [a, b, c] = instances;
    const account = await createAccount(a);
    const appUserId = await createAppUser(a, account);
    const bytes = png(2048);
    const uploaded = await upload(a, account.token, appUserId, { name: 'Beach', file: bytes, filename: 'beach.png', type: 'image/png' });
    assert.equal(uploaded.status, 201, uploaded.text);

    const described = await b.request('GET', `/app/media-resources/${uploaded.body.id}/`, { token: account.token });
    assert.equal(described.status, 200, described.text);
    const served = await download(c, described.body.file);
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);

    assert.equal((await c.request('DELETE', `/app/media-resources/${uploaded.body.id}/`, { token: account.token })).status, 204);
    const key = storageKeyOf(described.body.file);
    await waitUntilRemoved(a, key);
    assert.equal(await isStored(b, key), false);
    for (const server of instances) {
      assert.equal((await server.request('GET', `/app/media-resources/${uploaded.body.id}/`, { token: account.token })).status, 404);
      assert.equal((await download(server, described.body.file)).status, 404);
    }
  });
});
