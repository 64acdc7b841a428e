// Accessors are personal data too (docs/offline-and-live.md): their GET has a tag, and PATCH and DELETE
// honour If-Match.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';
import { createOwner } from '../app-data/fixtures.ts';
import { invited } from './sharing-flows.ts';

describe('If-Match on an accessor', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  test('a stale tag is 412 and nothing changes; the current one goes through', async () => {
    const { server } = mailed;
    const owner = await createOwner(server);
    const accessor = await invited(server, owner.token, owner.appUserId, { email: uniqueEmail() });
    const path = `/app/accessors/${accessor.id}/`;
    const read = await server.request('GET', path, { token: owner.token });
    const tag = String(read.headers.get('etag'));
    assert.match(tag, /^"[\w-]{22}"$/);
    assert.equal((await server.request('GET', path, { token: owner.token, headers: { 'if-none-match': tag } })).status, 304);

    const stale = await server.request('PATCH', path, {
      token: owner.token,
      body: { can_write: true },
      headers: { 'if-match': '"stale"' },
    });
    assert.equal(stale.status, 412, stale.text);
    assert.equal((await server.request('GET', path, { token: owner.token })).body.can_write, false, 'nothing changed');
    const changed = await server.request('PATCH', path, { token: owner.token, body: { can_write: true }, headers: { 'if-match': tag } });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.can_write, true);

    const old = await server.request('DELETE', path, { token: owner.token, headers: { 'if-match': tag } });
    assert.equal(old.status, 412, 'the tag from before the change');
    const now = String((await server.request('GET', path, { token: owner.token })).headers.get('etag'));
    assert.equal((await server.request('DELETE', path, { token: owner.token, headers: { 'if-match': now } })).status, 204);
    assert.equal((await server.request('GET', path, { token: owner.token })).status, 404);
  });
});
