// docs/sharing.md with docs/accounts.md: an accessor over the lives of the two accounts. Deleting either removes
// its accessors in both directions, while invitations others sent to its address and that it
// never accepted stay with their senders; the owner's export lists the accessors under the app
// user, the accessor's export lists what is shared with them (`shared_with_me`).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import {
  logIn,
  PASSWORD,
  register,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  type MailedServer,
} from '../accounts/account-flows.ts';
import { createOwner } from '../app-data/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { exportDocument } from '../helpers/zip.ts';
import { accept, invited, pendingOf } from './sharing-flows.ts';

/** The test's own idea of "less its URL fields": url and *_url, at every depth. */
function stripLinks(value: any): any {
  if (Array.isArray(value)) return value.map(stripLinks);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'url' && !key.endsWith('_url'))
      .map(([key, member]) => [key, stripLinks(member)]),
  );
}

async function exportOf(server: TestServer, token: string): Promise<any> {
  const response = await fetch(`${server.url}/account/export/`, { headers: { authorization: `Token ${token}` } });
  const body = Buffer.from(await response.arrayBuffer());
  assert.equal(response.status, 200, body.toString());
  return exportDocument(body);
}

/** Accessor rows that name the account: as owner, as the accepting account, or through its app user. */
async function accessorRowsOf(server: TestServer, accountId: number): Promise<unknown[]> {
  const { rows } = await sql`select a.id from accessors a
    where a.owner_account_id = ${accountId} or a.user_with_access_id = ${accountId}
      or a.app_user_id in (select id from app_users where account_id = ${accountId})`.execute(server.server.ctx.db.kysely);
  return rows;
}

describe('accessors over the accounts’ lives', () => {
  let mailed: MailedServer;
  let server: TestServer;
  before(async () => {
    mailed = await startMailedServer();
    server = mailed.server;
  });
  after(() => mailed.close());

  const list = async (token: string, appUserId: number) =>
    (await server.request('GET', `/app/users/${appUserId}/accessors/`, { token })).body as { id: number; accepted: boolean }[];
  const deleteAccount = async (token: string, password: string) => {
    const response = await server.request('DELETE', '/account/', { token, body: { password } });
    assert.equal(response.status, 204, response.text);
  };

  test('deleting the person with access: their accessors go both ways; an invitation to their address they never accepted stays with its sender', async () => {
    const owner = await createOwner(server);
    const sender = await createOwner(server);
    const address = uniqueEmail('leaving');
    const pendingAddress = uniqueEmail('pending');
    const held = await invited(server, owner.token, owner.appUserId, { email: address });
    const waiting = await invited(server, owner.token, owner.appUserId, { email: pendingAddress });
    const unaccepted = await invited(server, sender.token, sender.appUserId, { email: address });

    const person = await registerVerified(mailed, address);
    assert.equal((await accept(server, person.token, held.id)).status, 200);
    // The person shares data of their own too.
    const theirs = await server.request('POST', '/app/users/', { token: person.token, body: { name: 'Theirs' } });
    assert.equal(theirs.status, 201, theirs.text);
    const sent = await invited(server, person.token, theirs.body.id, { email: uniqueEmail('their-friend') });
    assert.notEqual((await accessorRowsOf(server, person.id)).length, 0);

    await deleteAccount(person.token, PASSWORD);
    assert.deepEqual(await accessorRowsOf(server, person.id), [], 'no accessor names the deleted account');
    assert.equal((await server.request('GET', `/app/accessors/${sent.id}/`, { token: owner.token })).status, 404);
    assert.deepEqual(
      (await list(owner.token, owner.appUserId)).map((a) => a.id),
      [waiting.id],
      'the owner keeps their other invitation',
    );
    const senders = await list(sender.token, sender.appUserId);
    assert.deepEqual(
      senders.map((a) => [a.id, a.accepted]),
      [[unaccepted.id, false]],
      'the unaccepted invitation stays with its sender',
    );

    // The address registers again: the invitation waits for the new account.
    assert.equal((await register(server, address)).status, 201);
    const key = await verificationKey(mailed.sink, address, 2);
    assert.equal((await server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } })).status, 200);
    const again = { token: await logIn(server, address) };
    assert.deepEqual(
      (await pendingOf(server, again.token)).map((a) => a.id),
      [unaccepted.id],
    );
  });

  test('deleting the owner: every accessor of their app user goes, accepted or not; the person with access no longer sees it', async () => {
    const owner = await createOwner(server);
    const address = uniqueEmail('kept-by');
    const held = await invited(server, owner.token, owner.appUserId, { email: address, can_write: true });
    const waiting = await invited(server, owner.token, owner.appUserId, { email: uniqueEmail('never') });
    const person = await registerVerified(mailed, address);
    assert.equal((await accept(server, person.token, held.id)).status, 200);

    await deleteAccount(owner.token, owner.password);
    assert.deepEqual(await accessorRowsOf(server, owner.id), []);
    for (const id of [held.id, waiting.id]) {
      assert.equal((await server.request('GET', `/app/accessors/${id}/`, { token: person.token })).status, 404);
    }
    assert.deepEqual((await exportOf(server, person.token)).shared_with_me, []);
  });

  test('the owner’s export lists the accessors under the app user; the accessor’s lists what is shared with them, and nothing of the owner’s data', async () => {
    const owner = await createOwner(server);
    const profile = await server.request('POST', `/app/users/${owner.appUserId}/profiles/`, {
      token: owner.token,
      body: { name: 'Owner-only profile name' },
    });
    assert.equal(profile.status, 201);
    const address = uniqueEmail('exported');
    const held = await invited(server, owner.token, owner.appUserId, { email: address, has_private_profile_access: true });
    await invited(server, owner.token, owner.appUserId, { email: uniqueEmail('pending-export') });
    const person = await registerVerified(mailed, address);
    assert.equal((await accept(server, person.token, held.id)).status, 200);
    // Invited by someone else too, not accepted: not shared with them yet.
    const other = await createOwner(server);
    await invited(server, other.token, other.appUserId, { email: address });

    const owners = await exportOf(server, owner.token);
    const accessors = await list(owner.token, owner.appUserId);
    assert.equal(accessors.length, 2);
    assert.deepEqual(owners.app_users[0].accessors, stripLinks(accessors));
    assert.deepEqual(owners.shared_with_me, []);

    const persons = await exportOf(server, person.token);
    const detail = await server.request('GET', `/app/accessors/${held.id}/`, { token: person.token });
    assert.deepEqual(persons.shared_with_me, [stripLinks(detail.body)]);
    assert.deepEqual(Object.keys(persons.shared_with_me[0]), [
      'id',
      'email',
      'accepted',
      'can_write',
      'has_private_profile_access',
      'expires_at',
      'expired',
      'profiles',
      'created_at',
      'app_user',
      'user_with_access',
    ]);
    assert.deepEqual(persons.app_users, []);
    assert.doesNotMatch(JSON.stringify(persons), /Owner-only profile name|https?:\/\//);
  });
});
