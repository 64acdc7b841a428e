import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createAppUser, download, png, storageKeyOf, upload, wav } from './media-fixtures.ts';

const HOUR = 3_600_000;

describe('signed media file URLs', () => {
  let server: TestServer;
  let account: TestAccount;
  let appUserId: number;

  before(async () => {
    server = await startTestServer({ MEDIA_URL_TTL: '1h' });
    account = await createAccount(server);
    appUserId = await createAppUser(server, account);
  });
  after(() => server.close());

  async function uploaded(name = 'photo', file = png()) {
    const response = await upload(server, account.token, appUserId, { name, file });
    assert.equal(response.status, 201, response.text);
    return response.body as { id: number; file: string; url: string };
  }

  test('works without a token; caching lasts until the URL expires, not longer', async () => {
    const media = await uploaded();
    const response = await download(server, media.file);
    assert.equal(response.status, 200);
    const expires = Number(new URL(media.file).searchParams.get('expires'));
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    assert.ok(maxAge >= 3600 && maxAge <= expires - Math.floor(server.clock.now() / 1000), `max-age ${maxAge}`);
  });

  test('a token, good or bad, makes no difference', async () => {
    const media = await uploaded();
    assert.equal((await download(server, media.file, { headers: { authorization: 'Token not-a-token' } })).status, 200);
  });

  test('the URL stays the same for a while, so responses that embed it can be cached', async () => {
    const media = await uploaded();
    const first = await server.request('GET', `/app/media-resources/${media.id}/`, { token: account.token });
    const second = await server.request('GET', `/app/media-resources/${media.id}/`, { token: account.token });
    assert.equal(first.body.file, second.body.file);
  });

  test('a tampered signature, expiry or key is 404', async () => {
    const media = await uploaded();
    const other = await uploaded('other');
    const url = new URL(media.file);
    const signature = url.searchParams.get('signature')!;
    const expires = url.searchParams.get('expires')!;
    const key = url.pathname.split('/').pop()!;
    const otherKey = new URL(other.file).pathname.split('/').pop()!;
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    const base = `${url.origin}/media/files`;
    const tampered = [
      `${base}/${key}?expires=${expires}&signature=${flipped}`,
      `${base}/${key}?expires=${Number(expires) + 3600}&signature=${signature}`,
      `${base}/${otherKey}?expires=${expires}&signature=${signature}`,
      `${base}/${key}?expires=${expires}`,
      `${base}/${key}?signature=${signature}`,
      `${base}/${key}`,
      `${base}/${key}?expires=${expires}&signature=`,
      `${base}/${key}?expires=abc&signature=${signature}`,
      `${base}/..%2F..%2Fetc%2Fpasswd?expires=${expires}&signature=${signature}`,
      `${base}/${key.toUpperCase()}?expires=${expires}&signature=${signature}`,
    ];
    for (const address of tampered) {
      const response = await download(server, address);
      assert.equal(response.status, 404, address);
      assert.deepEqual(await response.json(), { detail: 'Not found.' });
    }
  });

  test('an expired URL is 410 {"detail"}; the resource then gives a fresh URL that works', async () => {
    const media = await uploaded();
    // The expiry is rounded up by at most a quarter of the lifetime (signed-urls.ts).
    server.clock.advance(HOUR * 1.25 + 60_000);
    const response = await download(server, media.file);
    assert.equal(response.status, 410);
    assert.equal(typeof ((await response.json()) as { detail: unknown }).detail, 'string');

    const fresh = await server.request('GET', `/app/media-resources/${media.id}/`, { token: account.token });
    assert.notEqual(fresh.body.file, media.file);
    const again = await download(server, fresh.body.file);
    assert.equal(again.status, 200);
    assert.deepEqual(Buffer.from(await again.arrayBuffer()), png());
  });

  test('a URL is still valid just before its lifetime ends', async () => {
    const media = await uploaded();
    server.clock.advance(HOUR - 60_000);
    assert.equal((await download(server, media.file)).status, 200);
  });

  test('HEAD gives the headers without the body', async () => {
    const file = wav();
    const media = await uploaded('sound', file);
    const response = await download(server, media.file, { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'audio/wav');
    assert.equal(response.headers.get('content-length'), String(file.length));
    assert.equal(response.headers.get('accept-ranges'), 'bytes');
    assert.equal((await response.arrayBuffer()).byteLength, 0);
  });

  test('a media resource whose stored file is gone: GET and HEAD answer 404', async () => {
    const media = await uploaded();
    await server.server.ctx.media.remove(storageKeyOf(media.file));
    assert.equal((await download(server, media.file)).status, 404);
    const head = await download(server, media.file, { method: 'HEAD' });
    assert.equal(head.status, 404);
  });

  test('byte ranges: 206 with Content-Range; outside the file 416; unreadable ranges get the whole file', async () => {
    const file = wav(2000);
    const media = await uploaded('seekable', file);
    const size = file.length;
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=10-${size + 500}`, 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await download(server, media.file, { headers: { range } });
      assert.equal(response.status, 206, range);
      assert.equal(response.headers.get('content-range'), `bytes ${start}-${end}/${size}`);
      assert.equal(response.headers.get('content-length'), String(end - start + 1));
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), file.subarray(start, end + 1));
    }
    const outside = await download(server, media.file, { headers: { range: `bytes=${size}-` } });
    assert.equal(outside.status, 416);
    assert.equal(outside.headers.get('content-range'), `bytes */${size}`);
    assert.equal(typeof ((await outside.json()) as { detail: unknown }).detail, 'string');
    for (const range of ['bytes=0-1,5-9', 'pages=1-2', 'bytes=9-1']) {
      const whole = await download(server, media.file, { headers: { range } });
      assert.equal(whole.status, 200, range);
      assert.equal((await whole.arrayBuffer()).byteLength, size);
    }
    const conditional = await download(server, media.file, { headers: { range: 'bytes=0-9', 'if-range': '"x"' } });
    assert.equal(conditional.status, 200);
    assert.equal((await conditional.arrayBuffer()).byteLength, size);
  });

  test('the download name comes from the resource name, made safe', async () => {
    const media = await uploaded('../evil "name"\r\nX-Injected: 1 ünï.png');
    const response = await download(server, media.file);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-injected'), null);
    assert.equal(
      response.headers.get('content-disposition'),
      `inline; filename="_evil _name_X-Injected: 1 _n_.png"; filename*=UTF-8''_evil%20_name_X-Injected%3A%201%20%C3%BCn%C3%AF.png`,
    );
  });

  test('a URL signed with another secret is refused', async () => {
    const media = await uploaded();
    const otherServer = await startTestServer({ MEDIA_URL_SECRET: 'a-different-secret-of-enough-length' });
    try {
      const account2 = await createAccount(otherServer);
      const appUser2 = await createAppUser(otherServer, account2);
      const elsewhere = await upload(otherServer, account2.token, appUser2, { name: 'x', file: png() });
      const key = new URL(media.file).pathname.split('/').pop()!;
      const foreign = new URL(elsewhere.body.file);
      const forged = `${new URL(media.file).origin}/media/files/${key}${foreign.search}`;
      assert.equal((await download(server, forged)).status, 404);
    } finally {
      await otherServer.close();
    }
  });
});
