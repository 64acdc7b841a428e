import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createAppUser, download, png, pngOfSize, storedFiles, upload, uploadForm } from './media-fixtures.ts';

describe('upload size limit (MEDIA_MAX_BYTES=1KiB)', () => {
  let server: TestServer;
  let account: TestAccount;
  let appUserId: number;

  before(async () => {
    server = await startTestServer({ MEDIA_MAX_BYTES: '1KiB' });
    account = await createAccount(server);
    appUserId = await createAppUser(server, account);
  });
  after(() => server.close());

  test('a file of exactly the limit is accepted, byte-identical', async () => {
    const file = pngOfSize(1024);
    const created = await upload(server, account.token, appUserId, { name: 'exact', file });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.size, 1024);
    assert.deepEqual(Buffer.from(await (await download(server, created.body.file)).arrayBuffer()), file);
  });

  test('one byte over, or far over: 413 {"detail"}, no row, and no file left in the media directory', async () => {
    const filesBefore = await storedFiles(server);
    const listBefore = await server.request('GET', `/app/users/${appUserId}/gallery/`, { token: account.token });
    for (const size of [1025, 4096, 100_000]) {
      const response = await upload(server, account.token, appUserId, { name: `big ${size}`, file: pngOfSize(size) });
      assert.equal(response.status, 413, `${size}: ${response.text}`);
      assert.match(response.body.detail, /1024 bytes/);
    }
    assert.deepEqual(await storedFiles(server), filesBefore);
    const listAfter = await server.request('GET', `/app/users/${appUserId}/gallery/`, { token: account.token });
    assert.deepEqual(
      listAfter.body.map((m: { id: number }) => m.id),
      listBefore.body.map((m: { id: number }) => m.id),
    );
  });

  test('a body declared far larger than any upload is refused before it is read', async () => {
    const response = await upload(server, account.token, appUserId, { name: 'huge', file: pngOfSize(600_000) });
    assert.equal(response.status, 413);
    assert.equal(typeof response.body.detail, 'string');
  });

  test('the server keeps answering after refusing uploads', async () => {
    const created = await upload(server, account.token, appUserId, { name: 'small', file: png() });
    assert.equal(created.status, 201);
  });

  test('a form with too many parts is 413', async () => {
    const form = uploadForm({ name: 'parts', file: png() });
    for (let i = 0; i < 40; i++) form.append(`field${i}`, 'x');
    const response = await server.request('POST', `/app/users/${appUserId}/gallery/`, { token: account.token, raw: form });
    assert.equal(response.status, 413, response.text);
    assert.equal(typeof response.body.detail, 'string');
  });
});

describe('media quota (QUOTA_MEDIA_PER_USER=2)', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ QUOTA_MEDIA_PER_USER: '2' });
  });
  after(() => server.close());

  test('the upload over the quota is 400 non_field_errors and leaves no file; a delete makes room', async () => {
    const account = await createAccount(server);
    const appUserId = await createAppUser(server, account);
    const first = await upload(server, account.token, appUserId, { name: 'one', file: png() });
    await upload(server, account.token, appUserId, { name: 'two', file: png() });
    const files = await storedFiles(server);
    assert.equal(files.length, 2);

    const refused = await upload(server, account.token, appUserId, { name: 'three', file: png() });
    assert.equal(refused.status, 400);
    assert.deepEqual(Object.keys(refused.body), ['non_field_errors']);
    assert.match(refused.body.non_field_errors[0], /2/);
    assert.deepEqual(await storedFiles(server), files);

    // The quota is per app user: someone else's gallery does not count.
    const other = await createAccount(server);
    const otherAppUser = await createAppUser(server, other);
    assert.equal((await upload(server, other.token, otherAppUser, { name: 'theirs', file: png() })).status, 201);

    assert.equal((await server.request('DELETE', `/app/media-resources/${first.body.id}/`, { token: account.token })).status, 204);
    assert.equal((await upload(server, account.token, appUserId, { name: 'three', file: png() })).status, 201);
  });
});
