// GET /app/accessors/: what others share with the caller, the accessors the caller accepted.
// The API lets the invited person leave (DELETE /app/accessors/{id}/); this list is where
// they find the id once the invitation is no longer pending.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerVerified, startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';
import { createOwner } from '../app-data/fixtures.ts';
import { accept, invited } from './sharing-flows.ts';

describe('GET /app/accessors/ (shared with me)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  test('lists the accessors the caller accepted, by id; pending and outgoing ones are not there; leaving removes it', async () => {
    const { server } = mailed;
    const first = await createOwner(server);
    const second = await createOwner(server);
    const address = uniqueEmail();
    const person = await registerVerified(mailed, address);
    const list = async () => (await server.request('GET', '/app/accessors/', { token: person.token })).body;

    const a = await invited(server, first.token, first.appUserId, { email: address });
    const b = await invited(server, second.token, second.appUserId, { email: address, can_write: true });
    assert.deepEqual(await list(), [], 'pending invitations are listed by /pending/, not here');
    assert.equal((await accept(server, person.token, b.id)).status, 200);
    assert.equal((await accept(server, person.token, a.id)).status, 200);
    const shared = await list();
    assert.deepEqual(
      shared.map((s: any) => [s.id, s.app_user.id, s.accepted, s.can_write]),
      [
        [a.id, first.appUserId, true, false],
        [b.id, second.appUserId, true, true],
      ],
    );
    assert.deepEqual(
      (await server.request('GET', '/app/accessors/', { token: first.token })).body,
      [],
      "the owner's own invitations are not shared with the owner",
    );
    const users = (await server.request('GET', '/app/users/', { token: person.token })).body;
    assert.deepEqual(
      users.map((u: any) => [u.id, u.is_owned_by_current_user, u.permissions.write]),
      [
        [first.appUserId, false, false],
        [second.appUserId, false, true],
      ],
      'two grants on one token: both app users, each with its own rights',
    );
    assert.equal((await server.request('GET', `/app/users/${second.appUserId}/`, { token: person.token })).status, 200);

    assert.equal((await server.request('DELETE', `/app/accessors/${a.id}/`, { token: person.token })).status, 204);
    assert.deepEqual(
      (await list()).map((s: any) => s.id),
      [b.id],
    );
    assert.equal(
      (await server.request('GET', `/app/users/${first.appUserId}/`, { token: person.token })).status,
      404,
      'left: the data is gone',
    );
    assert.equal((await server.request('GET', '/app/accessors/')).status, 401);
  });
});
