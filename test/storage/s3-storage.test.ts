// The S3 media store (src/storage/s3-storage.ts) against a real S3-protocol server (s3rver, in
// this process, over HTTP), through the service's own API: uploads, downloads with and without
// a range, HEAD, deletes, account deletion, a large upload streamed through, the store going
// away and coming back, and start-up against a store that is not there. Runs on whichever
// database the suite runs on, whatever TEST_MEDIA_STORAGE says. Also that the S3 server the
// tests start survives puts and deletes racing in one folder, as concurrent uploads make them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { after, before, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { freePort } from '../helpers/free-port.ts';
import { isIncoming, listStoredObjects } from '../helpers/media-storage.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createAppUser, download, pdf, png, pngOfSize, storageKeyOf, upload, waitUntilRemoved } from '../media/media-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const objects = (server: TestServer) => listStoredObjects(server.server.ctx.config.mediaStorage);

describe('media in S3 (s3rver)', () => {
  let s3: TestS3Server;
  let server: TestServer;
  let account: TestAccount;
  let appUserId: number;

  before(async () => {
    s3 = await startS3Server();
    server = await startTestServer({ ...s3.env('tenant-a/media'), MEDIA_MAX_BYTES: '128MiB' });
    account = await createAccount(server);
    appUserId = await createAppUser(server, account);
  });
  after(async () => {
    await server?.close();
    await s3?.close();
  });

  test('an upload becomes one object under the prefix, nothing left under .incoming; GET, Range and HEAD read it back', async () => {
    const file = pngOfSize(200_000);
    const created = await upload(server, account.token, appUserId, { name: 'photo', file });
    assert.equal(created.status, 201, created.text);
    const key = storageKeyOf(created.body.file);
    assert.deepEqual(await objects(server), [`tenant-a/media/${key}`]);

    const whole = await download(server, created.body.file);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-length'), String(file.length));
    assert.equal(whole.headers.get('content-type'), 'image/png');
    assert.ok(Buffer.from(await whole.arrayBuffer()).equals(file));

    const part = await download(server, created.body.file, { headers: { Range: 'bytes=1000-1999' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 1000-1999/${file.length}`);
    assert.ok(Buffer.from(await part.arrayBuffer()).equals(file.subarray(1000, 2000)));

    const suffix = await download(server, created.body.file, { headers: { Range: 'bytes=-10' } });
    assert.equal(suffix.status, 206);
    assert.ok(Buffer.from(await suffix.arrayBuffer()).equals(file.subarray(file.length - 10)));

    const seen = s3.requests.length;
    const head = await download(server, created.body.file, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(file.length));
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    // The object is asked after, never read.
    const forObject = s3.requests.slice(seen).filter((request) => request.endsWith(`/${key}`));
    assert.deepEqual(forObject, [`HEAD /${s3.bucket}/tenant-a/media/${key}`]);
  });

  test('refused and oversize uploads leave nothing in the bucket', async () => {
    const before = await objects(server);
    const refused = await upload(server, account.token, appUserId, {
      name: 'text',
      file: Buffer.from('plain text, not an image\n'.repeat(50)),
    });
    assert.equal(refused.status, 400);
    const noName = await upload(server, account.token, appUserId, { name: '', file: png() });
    assert.equal(noName.status, 400);
    assert.deepEqual(await objects(server), before);
  });

  test('DELETE removes the object; its URL answers 404', async () => {
    const created = await upload(server, account.token, appUserId, { name: 'doc', file: pdf() });
    assert.equal(created.status, 201);
    const key = storageKeyOf(created.body.file);
    assert.ok((await objects(server)).includes(`tenant-a/media/${key}`));
    assert.equal((await server.request('DELETE', `/app/media-resources/${created.body.id}/`, { token: account.token })).status, 204);
    assert.equal((await download(server, created.body.file)).status, 404);
    await waitUntilRemoved(server, key);
    assert.ok(!(await objects(server)).includes(`tenant-a/media/${key}`));
  });

  test('an object missing from the bucket: its URL answers 404, not 500', async () => {
    const created = await upload(server, account.token, appUserId, { name: 'vanishing', file: png() });
    await server.server.ctx.media.remove(storageKeyOf(created.body.file));
    await server.server.ctx.media.remove(storageKeyOf(created.body.file)); // a missing object: no error
    assert.equal((await download(server, created.body.file)).status, 404);
  });

  test('deleting the account removes all its objects, and only its own', async () => {
    const other = await createAccount(server);
    const otherAppUser = await createAppUser(server, other);
    const kept = await upload(server, other.token, otherAppUser, { name: 'kept', file: png() });
    const doomed = await createAccount(server);
    const doomedAppUser = await createAppUser(server, doomed);
    const keys: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const created = await upload(server, doomed.token, doomedAppUser, { name, file: png(100) });
      assert.equal(created.status, 201);
      keys.push(storageKeyOf(created.body.file));
    }
    const deleted = await server.request('DELETE', '/account/', { token: doomed.token, body: { password: doomed.password } });
    assert.equal(deleted.status, 204, deleted.text);
    for (const key of keys) await waitUntilRemoved(server, key);
    const left = await objects(server);
    for (const key of keys) assert.ok(!left.includes(`tenant-a/media/${key}`));
    assert.ok(left.includes(`tenant-a/media/${storageKeyOf(kept.body.file)}`));
    assert.equal((await download(server, kept.body.file)).status, 200);
  });

  test("a large upload streams through: the service's memory does not grow with the file's size", async () => {
    // Live memory, measured after a full collection, so that garbage waiting for one does not count.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const live = async () => {
      // Twice, a turn apart: buffers freed by the first are only then released.
      gc();
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    const size = 96 * 1024 * 1024;
    const head = png();
    const boundary = 'big-upload-boundary';
    const opening = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nbig\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
    const filler = new Uint8Array(256 * 1024).fill(7);
    // The body is made as it is sent: this test itself holds a chunk at a time.
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) {
          controller.enqueue(new Uint8Array(Buffer.concat([opening, head])));
          sent = head.length;
        } else if (sent < size) {
          const length = Math.min(filler.length, size - sent);
          controller.enqueue(filler.subarray(0, length));
          sent += length;
        } else {
          controller.enqueue(new Uint8Array(closing));
          controller.close();
        }
      },
    });

    const baseline = await live();
    let peak = baseline;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await live());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    let response: Response;
    try {
      response = await fetch(`${server.url}/app/users/${appUserId}/gallery/`, {
        method: 'POST',
        headers: { authorization: `Token ${account.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit);
    } finally {
      sampling = false;
      await sampler;
    }
    const created = (await response.json()) as { id: number; size: number; file: string };
    assert.equal(response.status, 201, JSON.stringify(created));
    assert.equal(created.size, size);
    const growth = peak - baseline;
    assert.ok(growth < size / 2, `memory grew by ${Math.round(growth / 1048576)} MiB for an ${size / 1048576} MiB upload`);

    // The bytes are all there: the end of the file, by range.
    const tail = await download(server, created.file, { headers: { Range: `bytes=${size - 4}-` } });
    assert.equal(tail.status, 206);
    assert.deepEqual([...new Uint8Array(await tail.arrayBuffer())], [7, 7, 7, 7]);
    assert.ok(!(await objects(server)).some(isIncoming), 'nothing is left under .incoming');
    assert.equal((await server.request('DELETE', `/app/media-resources/${created.id}/`, { token: account.token })).status, 204);
  });
});

describe('the S3 server the tests start', () => {
  test('puts and deletes racing in one folder all succeed (a put never finds its folder just removed)', async () => {
    const s3 = await startS3Server();
    const client = s3.client();
    try {
      // As uploads under .incoming/ do: each is put, then deleted as others are being put.
      await Promise.all(
        Array.from({ length: 3 }, async (_, worker) => {
          for (let round = 0; round < 300; round++) {
            const key = `racing/.incoming/${worker}-${round}`;
            await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: Buffer.alloc(100) }));
            await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
          }
        }),
      );
    } finally {
      client.destroy();
      await s3.close();
    }
  });
});

describe('the S3 store going away', () => {
  test('uploads and downloads answer 503 + Retry-After while it is down, nothing crashes, and it works again when it is back', async () => {
    const port = await freePort();
    // The store's folder outlives its first server: the second serves what the first kept.
    const directory = tempDir('profile-service-s3-');
    const s3 = await startS3Server('media', port, directory);
    const server = await startTestServer(s3.env('outage'));
    try {
      const account = await createAccount(server);
      const appUserId = await createAppUser(server, account);
      const created = await upload(server, account.token, appUserId, { name: 'before', file: png() });
      assert.equal(created.status, 201);

      await s3.close();
      const refused = await upload(server, account.token, appUserId, { name: 'during', file: png(20_000) });
      assert.equal(refused.status, 503, refused.text);
      assert.deepEqual(refused.body, { detail: 'The media store is unavailable; try again shortly.' });
      assert.equal(refused.headers.get('retry-after'), '5');
      const unreadable = await download(server, created.body.file);
      assert.equal(unreadable.status, 503);
      assert.deepEqual(await unreadable.json(), { detail: 'The media store is unavailable; try again shortly.' });
      // The rest of the service is unaffected.
      assert.equal((await server.request('GET', `/app/users/${appUserId}/gallery/`, { token: account.token })).status, 200);
      assert.equal((await server.request('GET', '/health')).status, 200);

      const back = await startS3Server('media', port, directory);
      try {
        const again = await download(server, created.body.file);
        assert.equal(again.status, 200);
        assert.ok(Buffer.from(await again.arrayBuffer()).equals(png()));
        const later = await upload(server, account.token, appUserId, { name: 'after', file: png() });
        assert.equal(later.status, 201, later.text);
      } finally {
        await back.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('start-up against an S3 store', () => {
  test('an unreachable endpoint or a missing bucket stops start-up with a message naming MEDIA_STORAGE', async () => {
    const s3 = await startS3Server();
    const database = await createTestDatabase();
    try {
      const base = { PORT: '0', DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
      const missingBucket = loadConfig({ ...base, ...s3.env('x'), MEDIA_STORAGE: 's3://no-such-bucket/x' });
      await assert.rejects(startServer(missingBucket), (error: Error) => {
        assert.match(error.message, /^MEDIA_STORAGE: the bucket s3:\/\/no-such-bucket\/x\/ at http:\/\/127\.0\.0\.1:\d+ cannot be reached/);
        return true;
      });
      const nobody = `http://127.0.0.1:${await freePort()}`;
      const unreachable = loadConfig({ ...base, ...s3.env('x'), S3_ENDPOINT: nobody });
      await assert.rejects(startServer(unreachable), (error: Error) => {
        assert.match(error.message, /^MEDIA_STORAGE: the bucket s3:\/\/media\/x\/ at http:\/\/127\.0\.0\.1:\d+ cannot be reached/);
        return true;
      });
    } finally {
      await database.drop();
      await s3.close();
    }
  });

  test('uploads abandoned under .incoming more than a day ago are removed at start-up; younger ones are left', async () => {
    const s3 = await startS3Server();
    try {
      const spec = loadConfig(s3.env('sweep')).mediaStorage;
      assert.equal(spec.kind, 's3');
      const old = `sweep/.incoming/${randomBytes(16).toString('hex')}.png.abc`;
      const recent = `sweep/.incoming/${randomBytes(16).toString('hex')}.png.def`;
      await s3.putObject(old, Buffer.from('x'), new Date(Date.now() - 48 * 3_600_000));
      await s3.putObject(recent, Buffer.from('x'));
      const server = await startTestServer(s3.env('sweep'));
      try {
        assert.deepEqual(await listStoredObjects(spec), [recent]);
      } finally {
        await server.close();
      }
    } finally {
      await s3.close();
    }
  });
});
