import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createAppUser, download, png, storedFiles, upload, uploadForm } from '../media/media-fixtures.ts';

describe('media isolation between accounts', () => {
  let server: TestServer;
  let owner: TestAccount;
  let stranger: TestAccount;
  let ownerAppUser: number;
  let strangerAppUser: number;
  let media: { id: number; name: string; file: string; url: string; size: number; content_type: string };

  before(async () => {
    server = await startTestServer();
    owner = await createAccount(server);
    stranger = await createAccount(server);
    ownerAppUser = await createAppUser(server, owner);
    strangerAppUser = await createAppUser(server, stranger);
    media = (await upload(server, owner.token, ownerAppUser, { name: 'private', file: png() })).body;
  });
  after(() => server.close());

  const notFound = (response: { status: number; body: unknown }, what: string) => {
    assert.equal(response.status, 404, what);
    assert.deepEqual(response.body, { detail: 'Not found.' }, what);
  };

  test("another account gets 404 on every endpoint of the owner's media, exactly like a missing id", async () => {
    const token = stranger.token;
    const detail = `/app/media-resources/${media.id}/`;
    const missing = `/app/media-resources/999999/`;
    for (const path of [detail, missing]) {
      notFound(await server.request('GET', path, { token }), `GET ${path}`);
      notFound(await server.request('PATCH', path, { token, body: { name: 'stolen' } }), `PATCH ${path}`);
      notFound(await server.request('PUT', path, { token, body: { name: 'stolen' } }), `PUT ${path}`);
      notFound(await server.request('DELETE', path, { token }), `DELETE ${path}`);
    }
    notFound(await server.request('GET', `/app/users/${ownerAppUser}/gallery/`, { token }), 'list');
    const filesBefore = (await storedFiles(server)).length;
    notFound(
      await server.request('POST', `/app/users/${ownerAppUser}/gallery/`, { token, raw: uploadForm({ name: 'planted', file: png() }) }),
      'upload',
    );
    notFound(await server.request('POST', `/app/users/${ownerAppUser}/gallery/`, { token, raw: uploadForm({}) }), 'upload without fields');
    assert.equal((await storedFiles(server)).length, filesBefore, "nothing is stored for a stranger's upload");
  });

  test('the object is unchanged and still downloadable; its gallery holds only what the owner put there', async () => {
    const detail = await server.request('GET', `/app/media-resources/${media.id}/`, { token: owner.token });
    assert.equal(detail.status, 200);
    assert.deepEqual({ ...detail.body, file: undefined }, { ...media, file: undefined });
    const list = await server.request('GET', `/app/users/${ownerAppUser}/gallery/`, { token: owner.token });
    assert.deepEqual(
      list.body.map((m: { id: number }) => m.id),
      [media.id],
    );
    const file = await download(server, detail.body.file);
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), png());
  });

  test("the stranger's own gallery does not show the owner's media", async () => {
    const own = await upload(server, stranger.token, strangerAppUser, { name: 'mine', file: png() });
    assert.equal(own.status, 201);
    const list = await server.request('GET', `/app/users/${strangerAppUser}/gallery/`, { token: stranger.token });
    assert.deepEqual(
      list.body.map((m: { id: number }) => m.id),
      [own.body.id],
    );
  });

  test("it works both ways: the owner cannot reach the stranger's gallery", async () => {
    notFound(await server.request('GET', `/app/users/${strangerAppUser}/gallery/`, { token: owner.token }), 'reverse list');
  });
});
