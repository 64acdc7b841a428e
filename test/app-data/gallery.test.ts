import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import {
  createAppUser,
  download,
  mp4,
  multipartBody,
  pdf,
  png,
  isStored,
  storedFiles,
  waitUntilRemoved,
  textFile,
  upload,
  uploadForm,
  wav,
  zip,
} from '../media/media-fixtures.ts';

const MEDIA_KEYS = ['content_type', 'file', 'id', 'name', 'size', 'url'];

describe('media gallery', () => {
  let server: TestServer;
  let account: TestAccount;
  let appUserId: number;

  before(async () => {
    server = await startTestServer();
    account = await createAccount(server);
    appUserId = await createAppUser(server, account);
  });
  after(() => server.close());

  const dataVersion = async (id = appUserId) =>
    (await server.server.ctx.db.kysely.selectFrom('app_users').select('data_version').where('id', '=', id).executeTakeFirstOrThrow())
      .data_version;

  test('upload → 201 with Location = url; download gives the same bytes with the detected type', async () => {
    const cases = [
      { file: png(), type: 'image/png', ext: 'png', disposition: 'inline' },
      { file: pdf(), type: 'application/pdf', ext: 'pdf', disposition: 'attachment' },
      { file: wav(), type: 'audio/wav', ext: 'wav', disposition: 'inline' },
      { file: mp4(), type: 'video/mp4', ext: 'mp4', disposition: 'inline' },
    ];
    for (const item of cases) {
      const created = await upload(server, account.token, appUserId, { name: `My ${item.ext}`, file: item.file, filename: 'x.bin' });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.body).sort(), MEDIA_KEYS);
      assert.equal(created.headers.get('location'), created.body.url);
      assert.equal(created.body.url, `${PUBLIC_URL}/app/media-resources/${created.body.id}/`);
      assert.equal(created.body.name, `My ${item.ext}`);
      assert.equal(created.body.content_type, item.type);
      assert.equal(created.body.size, item.file.length);
      assert.match(
        created.body.file,
        new RegExp(`^${PUBLIC_URL}/media/files/[0-9a-f]{32}\\.${item.ext}\\?expires=\\d+&signature=[\\w-]+$`),
      );

      const response = await download(server, created.body.file);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), item.type);
      assert.equal(response.headers.get('content-length'), String(item.file.length));
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(
        response.headers.get('content-disposition'),
        `${item.disposition}; filename="My ${item.ext}.${item.ext}"; filename*=UTF-8''My%20${item.ext}.${item.ext}`,
      );
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), item.file);
    }
  });

  test("the client's file name and content type are neither trusted nor used as a path", async () => {
    const created = await upload(server, account.token, appUserId, {
      name: 'sneaky',
      file: png(),
      filename: '../../../../etc/passwd',
      type: 'text/html',
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.content_type, 'image/png');
    const key = /\/media\/files\/([^?]+)/.exec(created.body.file)![1]!;
    assert.match(key, /^[0-9a-f]{32}\.png$/);
    assert.ok((await storedFiles(server)).some((path) => path.endsWith(`/${key}`)));
    assert.ok(await isStored(server, key));
    assert.ok(!(await storedFiles(server)).some((path) => path.includes('passwd')));
  });

  test('name is trimmed; the stored row matches the response', async () => {
    const created = await upload(server, account.token, appUserId, { name: '  Holiday  ', file: png() });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'Holiday');
    const detail = await server.request('GET', `/app/media-resources/${created.body.id}/`, { token: account.token });
    assert.equal(detail.status, 200);
    assert.deepEqual({ ...detail.body, file: undefined }, { ...created.body, file: undefined });
  });

  test('a text file named .png, a ZIP and an SVG are refused (400 under file), and nothing is stored', async () => {
    const before = (await storedFiles(server)).length;
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const [file, filename, type] of [
      [textFile, 'photo.png', 'image/png'],
      [zip(), 'photo.jpg', 'image/jpeg'],
      [svg, 'a.svg', 'image/svg+xml'],
    ] as const) {
      const refused = await upload(server, account.token, appUserId, { name: 'bad', file, filename, type });
      assert.equal(refused.status, 400, refused.text);
      assert.deepEqual(Object.keys(refused.body), ['file']);
      assert.match(refused.body.file[0], /image, PDF, audio or video/);
    }
    assert.equal((await storedFiles(server)).length, before);
  });

  test('missing, blank or too long fields: 400 keyed by field', async () => {
    const missingBoth = await upload(server, account.token, appUserId, {});
    assert.equal(missingBoth.status, 400);
    assert.deepEqual(missingBoth.body, {
      name: ['This field is required.'],
      file: ['No file was submitted. Check the encoding type on the form.'],
    });

    const noName = await upload(server, account.token, appUserId, { file: png() });
    assert.equal(noName.status, 400);
    assert.deepEqual(noName.body, { name: ['This field is required.'] });

    const blank = await upload(server, account.token, appUserId, { name: '   ', file: png() });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.body, { name: ['This field may not be blank.'] });

    const long = await upload(server, account.token, appUserId, { name: 'x'.repeat(256), file: png() });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body, { name: ['Ensure this field has no more than 255 characters.'] });

    const veryLong = await upload(server, account.token, appUserId, { name: 'é'.repeat(5000), file: png() });
    assert.equal(veryLong.status, 400);
    assert.deepEqual(veryLong.body, { name: ['Ensure this field has no more than 255 characters.'] });

    const noFile = await upload(server, account.token, appUserId, { name: 'only a name' });
    assert.equal(noFile.status, 400);
    assert.deepEqual(noFile.body, { file: ['No file was submitted. Check the encoding type on the form.'] });

    const empty = await upload(server, account.token, appUserId, { name: 'empty', file: Buffer.alloc(0) });
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body, { file: ['The submitted file is empty.'] });

    const textField = new FormData();
    textField.append('name', 'text');
    textField.append('file', 'just a string');
    const notAFile = await server.request('POST', `/app/users/${appUserId}/gallery/`, { token: account.token, raw: textField });
    assert.equal(notAFile.status, 400);
    assert.deepEqual(notAFile.body, { file: ['No file was submitted. Check the encoding type on the form.'] });
  });

  test('unknown fields and extra files are ignored; the first `file` counts', async () => {
    const form = uploadForm({ name: 'extra', file: png() });
    form.append('colour', 'blue');
    form.append('thumbnail', new Blob([textFile]), 'thumb.txt');
    form.append('file', new Blob([textFile]), 'second.txt');
    const created = await server.request('POST', `/app/users/${appUserId}/gallery/`, { token: account.token, raw: form });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.content_type, 'image/png');
  });

  test('fields may come after the file', async () => {
    const boundary = 'b0undary';
    const body = multipartBody(boundary, [
      { headers: ['Content-Disposition: form-data; name="file"; filename="a.png"', 'Content-Type: image/png'], body: png() },
      { headers: ['Content-Disposition: form-data; name="name"'], body: 'after' },
    ]);
    const created = await server.request('POST', `/app/users/${appUserId}/gallery/`, {
      token: account.token,
      raw: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.name, 'after');
  });

  test('a malformed or truncated multipart body is 400 {"detail"}, and nothing is stored', async () => {
    const before = (await storedFiles(server)).length;
    const boundary = 'cut';
    const truncated = multipartBody(
      boundary,
      [
        { headers: ['Content-Disposition: form-data; name="name"'], body: 'cut short' },
        { headers: ['Content-Disposition: form-data; name="file"; filename="a.png"'], body: png(8000) },
      ],
      false,
    ).subarray(0, 6000);
    const cut = await server.request('POST', `/app/users/${appUserId}/gallery/`, {
      token: account.token,
      raw: truncated,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(cut.status, 400, cut.text);
    assert.equal(typeof cut.body.detail, 'string');

    const noBoundary = await server.request('POST', `/app/users/${appUserId}/gallery/`, {
      token: account.token,
      raw: 'garbage',
      headers: { 'content-type': 'multipart/form-data' },
    });
    assert.equal(noBoundary.status, 400, noBoundary.text);
    assert.equal(typeof noBoundary.body.detail, 'string');
    assert.equal((await storedFiles(server)).length, before);
  });

  test('a JSON body on the upload route is 415; multipart anywhere else is 415', async () => {
    const json = await server.request('POST', `/app/users/${appUserId}/gallery/`, {
      token: account.token,
      body: { name: 'x', file: 'aGVsbG8=' },
    });
    assert.equal(json.status, 415);
    assert.equal(typeof json.body.detail, 'string');

    const created = await upload(server, account.token, appUserId, { name: 'target', file: png() });
    const patch = await server.request('PATCH', `/app/media-resources/${created.body.id}/`, {
      token: account.token,
      raw: uploadForm({ name: 'renamed' }),
    });
    assert.equal(patch.status, 415);
    const put = await server.request('PUT', `/app/media-resources/${created.body.id}/`, {
      token: account.token,
      raw: uploadForm({ name: 'renamed' }),
    });
    assert.equal(put.status, 415);
    const detail = await server.request('GET', `/app/media-resources/${created.body.id}/`, { token: account.token });
    assert.equal(detail.body.name, 'target');
  });

  test('upload to an unknown or malformed app user id: 404', async () => {
    for (const id of ['999999', 'abc', '0']) {
      const response = await upload(server, account.token, id as unknown as number, { name: 'x', file: png() });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
  });

  test('anonymous requests are 401', async () => {
    const list = await server.request('GET', `/app/users/${appUserId}/gallery/`);
    assert.equal(list.status, 401);
    const post = await server.request('POST', `/app/users/${appUserId}/gallery/`, { raw: uploadForm({ name: 'x', file: png() }) });
    assert.equal(post.status, 401);
    const detail = await server.request('GET', '/app/media-resources/1/');
    assert.equal(detail.status, 401);
  });

  test("the list is the app user's media by id ascending, each with a working file URL", async () => {
    const other = await createAccount(server);
    const otherAppUser = await createAppUser(server, other);
    await upload(server, other.token, otherAppUser, { name: 'not mine', file: png() });

    const owner = await createAccount(server);
    const ownAppUser = await createAppUser(server, owner);
    const empty = await server.request('GET', `/app/users/${ownAppUser}/gallery/`, { token: owner.token });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, []);

    const ids: number[] = [];
    for (const name of ['c', 'a', 'b']) ids.push((await upload(server, owner.token, ownAppUser, { name, file: png() })).body.id);
    const list = await server.request('GET', `/app/users/${ownAppUser}/gallery/`, { token: owner.token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((m: { id: number }) => m.id),
      ids,
    );
    assert.deepEqual(
      list.body.map((m: { name: string }) => m.name),
      ['c', 'a', 'b'],
    );
    for (const media of list.body) {
      assert.deepEqual(Object.keys(media).sort(), MEDIA_KEYS);
      assert.equal((await download(server, media.file)).status, 200);
    }
  });

  test('PATCH and PUT change the name only; bad names are 400', async () => {
    const created = await upload(server, account.token, appUserId, { name: 'before', file: png() });
    const path = `/app/media-resources/${created.body.id}/`;
    const version = await dataVersion();

    const patched = await server.request('PATCH', path, {
      token: account.token,
      body: { name: '  after  ', size: 1, content_type: 'text/html', file: 'x' },
    });
    assert.equal(patched.status, 200);
    assert.deepEqual({ ...patched.body, file: undefined }, { ...created.body, name: 'after', file: undefined });
    assert.equal(await dataVersion(), version + 1);

    const unchanged = await server.request('PATCH', path, { token: account.token, body: {} });
    assert.equal(unchanged.status, 200);
    assert.equal(unchanged.body.name, 'after');

    const putMissing = await server.request('PUT', path, { token: account.token, body: {} });
    assert.equal(putMissing.status, 400);
    assert.deepEqual(putMissing.body, { name: ['This field is required.'] });

    const put = await server.request('PUT', path, { token: account.token, body: { name: 'put' } });
    assert.equal(put.status, 200);
    assert.equal(put.body.name, 'put');

    for (const [body, message] of [
      [{ name: '' }, 'This field may not be blank.'],
      [{ name: '   ' }, 'This field may not be blank.'],
      [{ name: 'x'.repeat(256) }, 'Ensure this field has no more than 255 characters.'],
      [{ name: 3 }, 'Not a valid string.'],
      [{ name: null }, 'This field may not be null.'],
    ] as const) {
      const refused = await server.request('PATCH', path, { token: account.token, body });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.deepEqual(refused.body, { name: [message] });
    }
    const detail = await server.request('GET', path, { token: account.token });
    assert.equal(detail.body.name, 'put');

    // The bytes are untouched by a rename.
    const bytes = Buffer.from(await (await download(server, detail.body.file)).arrayBuffer());
    assert.deepEqual(bytes, png());
  });

  test("create, rename and delete each bump the app user's data version", async () => {
    const start = await dataVersion();
    const created = await upload(server, account.token, appUserId, { name: 'v', file: png() });
    assert.equal(await dataVersion(), start + 1);
    await server.request('PATCH', `/app/media-resources/${created.body.id}/`, { token: account.token, body: { name: 'v2' } });
    assert.equal(await dataVersion(), start + 2);
    await server.request('DELETE', `/app/media-resources/${created.body.id}/`, { token: account.token });
    assert.equal(await dataVersion(), start + 3);
    // A refused upload changes nothing.
    await upload(server, account.token, appUserId, { name: 'bad', file: textFile });
    assert.equal(await dataVersion(), start + 3);
  });

  test('DELETE: 204, the stored file is removed, references become null, the URL stops working', async () => {
    const db = server.server.ctx.db.kysely;
    const created = await upload(server, account.token, appUserId, { name: 'doomed', file: png() });
    const kept = await upload(server, account.token, appUserId, { name: 'kept', file: pdf() });
    const key = /\/media\/files\/([^?]+)/.exec(created.body.file)![1]!;
    assert.ok(await isStored(server, key));

    const profile = await db
      .insertInto('profiles')
      .values({ account_id: account.id, app_user_id: appUserId, name: 'p', is_default: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const topic = await db
      .insertInto('topics')
      .values({ account_id: account.id, profile_id: profile.id, name: 't', topic_type: 4 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = await db
      .insertInto('items')
      .values({ account_id: account.id, topic_id: topic.id, name: 'i' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const content = await db
      .insertInto('image_contents')
      .values({
        account_id: account.id,
        item_id: item.id,
        description: 'd',
        image_resource_id: created.body.id,
        media_resource_id: created.body.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const otherItem = await db
      .insertInto('items')
      .values({ account_id: account.id, topic_id: topic.id, name: 'j' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const otherContent = await db
      .insertInto('image_contents')
      .values({
        account_id: account.id,
        item_id: otherItem.id,
        description: 'd',
        image_resource_id: kept.body.id,
        media_resource_id: created.body.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const emergency = await db
      .insertInto('emergency_items')
      .values({
        account_id: account.id,
        app_user_id: appUserId,
        name: 'e',
        description: '',
        media_resource_id: created.body.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const deleted = await server.request('DELETE', `/app/media-resources/${created.body.id}/`, { token: account.token });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    await waitUntilRemoved(server, key); // the stored file is removed (through the outbox)

    const contentRow = await db.selectFrom('image_contents').selectAll().where('id', '=', content.id).executeTakeFirstOrThrow();
    assert.equal(contentRow.image_resource_id, null);
    assert.equal(contentRow.media_resource_id, null);
    const otherRow = await db.selectFrom('image_contents').selectAll().where('id', '=', otherContent.id).executeTakeFirstOrThrow();
    assert.equal(otherRow.image_resource_id, kept.body.id, 'other references stay');
    assert.equal(otherRow.media_resource_id, null);
    const emergencyRow = await db.selectFrom('emergency_items').selectAll().where('id', '=', emergency.id).executeTakeFirstOrThrow();
    assert.equal(emergencyRow.media_resource_id, null);

    const again = await server.request('GET', `/app/media-resources/${created.body.id}/`, { token: account.token });
    assert.equal(again.status, 404);
    const deleteAgain = await server.request('DELETE', `/app/media-resources/${created.body.id}/`, { token: account.token });
    assert.equal(deleteAgain.status, 404);
    const file = await download(server, created.body.file);
    assert.equal(file.status, 404);
    assert.deepEqual(await file.json(), { detail: 'Not found.' });
    assert.equal((await download(server, kept.body.file)).status, 200);
  });

  test('detail paths: malformed or unknown ids are 404; other methods 405 with Allow', async () => {
    for (const id of ['0', '-1', 'abc', '99999999999', '999999']) {
      const response = await server.request('GET', `/app/media-resources/${id}/`, { token: account.token });
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
    const post = await server.request('POST', '/app/media-resources/1/', { token: account.token, body: {} });
    assert.equal(post.status, 405);
    assert.match(post.headers.get('allow') ?? '', /DELETE/);
    const deleteList = await server.request('DELETE', `/app/users/${appUserId}/gallery/`, { token: account.token });
    assert.equal(deleteList.status, 405);
  });

  test('the OpenAPI document describes the gallery, the multipart upload and the file route', async () => {
    const doc = await server.request('GET', '/openapi.json');
    assert.equal(doc.status, 200);
    const upload = doc.body.paths['/app/users/{id}/gallery/'].post;
    assert.deepEqual(upload.requestBody.content['multipart/form-data'].schema.required, ['name', 'file']);
    assert.ok(upload.responses['201']);
    assert.ok(doc.body.paths['/app/media-resources/{id}/'].patch);
    assert.ok(doc.body.paths['/media/files/{storage_key}'].get);
  });
});
