// docs/sharing.md, granting access: the owner invites an address; the person invited sees the
// invitation once the address is verified on their account, accepts it (bound to their account
// from then on), declines or leaves; the owner changes or revokes it. Everyone else gets 404.
// Through the real server over HTTP and a real SMTP server, on whichever database the suite runs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  mailsTo,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  waitForMail,
  type MailedServer,
} from '../accounts/account-flows.ts';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { createAccount } from '../helpers/accounts.ts';
import { PUBLIC_URL, type TestServer } from '../helpers/server.ts';
import { accept, addAddress, invite, invited, outboxDelivered, pendingOf, ACCEPTED_SUBJECT } from './sharing-flows.ts';

const ACCESSOR_KEYS = [
  'id',
  'url',
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
];

describe('accessors (docs/sharing.md, granting access)', () => {
  let mailed: MailedServer;
  let server: TestServer;
  let owner: Owner;
  let stranger: Owner;

  before(async () => {
    mailed = await startMailedServer({ ACCESSOR_QUOTA: '12' });
    server = mailed.server;
    owner = await createOwner(server);
    stranger = await createOwner(server);
  });
  after(() => mailed.close());

  const get = (token: string, path: string) => server.request('GET', path, { token });

  test('POST answers 201 with Location equal to the accessor’s url, in exactly the documented shape; GET and the list answer the same', async () => {
    const email = uniqueEmail('Grace');
    const response = await invite(server, owner.token, owner.appUserId, { email: `  ${email}  ` });
    assert.equal(response.status, 201, response.text);
    const accessor = response.body;
    assert.deepEqual(Object.keys(accessor), ACCESSOR_KEYS);
    assert.equal(response.headers.get('location'), accessor.url);
    assert.equal(accessor.url, `${PUBLIC_URL}/app/accessors/${accessor.id}/`);
    assert.equal(accessor.email, email, 'trimmed, case kept');
    assert.equal(accessor.accepted, false);
    assert.equal(accessor.can_write, false);
    assert.equal(accessor.has_private_profile_access, false);
    assert.equal(accessor.created_at, new Date(server.clock.now()).toISOString());
    assert.deepEqual(accessor.app_user, { id: owner.appUserId, url: `${PUBLIC_URL}/app/users/${owner.appUserId}/`, name: 'Ada' });
    assert.equal(accessor.user_with_access, null);

    const detail = await get(owner.token, `/app/accessors/${accessor.id}/`);
    assert.equal(detail.status, 200);
    assert.deepEqual(detail.body, accessor);
    const second = await invited(server, owner.token, owner.appUserId, {
      email: uniqueEmail('writer'),
      can_write: true,
      has_private_profile_access: true,
    });
    assert.equal(second.can_write, true);
    assert.equal(second.has_private_profile_access, true);
    const list = await get(owner.token, `/app/users/${owner.appUserId}/accessors/`);
    assert.equal(list.status, 200);
    const ids = list.body.map((a: { id: number }) => a.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      'ordered by id',
    );
    assert.deepEqual(
      list.body.filter((a: { id: number }) => a.id === accessor.id || a.id === second.id),
      [accessor, second],
    );
    // Clean up for the quota below.
    for (const id of [accessor.id, second.id]) {
      assert.equal((await server.request('DELETE', `/app/accessors/${id}/`, { token: owner.token })).status, 204);
    }
  });

  test('400 under email: invalid, missing, the owner’s own address (any of theirs, any case, verified or not), one already invited here (any case)', async () => {
    const path = `/app/users/${owner.appUserId}/accessors/`;
    const refused = async (body: object, field: string, message?: RegExp) => {
      const response = await server.request('POST', path, { token: owner.token, body });
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
      assert.deepEqual(Object.keys(response.body), [field], response.text);
      if (message) assert.match(response.body[field][0], message);
    };
    await refused({ email: 'not-an-address' }, 'email', /valid email/);
    await refused({}, 'email', /required/);
    await refused({ email: 'a@example.com', can_write: 'yes' }, 'can_write');
    await refused({ email: owner.email.toUpperCase() }, 'email', /your own addresses/);
    const secondary = uniqueEmail('own-unverified');
    await addAddress(mailed, owner, secondary, false);
    await refused({ email: secondary }, 'email', /your own addresses/);

    const email = uniqueEmail('twice');
    const first = await invited(server, owner.token, owner.appUserId, { email });
    await refused({ email: email.toUpperCase() }, 'email', /already been invited/);
    // Another app user may invite the same address.
    await invited(server, stranger.token, stranger.appUserId, { email });
    const list = await get(owner.token, `/app/users/${owner.appUserId}/accessors/`);
    assert.deepEqual(
      list.body.map((a: { id: number }) => a.id),
      [first.id],
      'nothing refused was made',
    );
    assert.equal((await server.request('DELETE', `/app/accessors/${first.id}/`, { token: owner.token })).status, 204);
  });

  test('at most ACCESSOR_QUOTA per app user: the next one is 400 non_field_errors, and a deleted one frees a place', async () => {
    const other = await createOwner(server);
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await invited(server, other.token, other.appUserId, { email: uniqueEmail(`q${i}`) }));
    const over = await invite(server, other.token, other.appUserId, { email: uniqueEmail('over') });
    assert.equal(over.status, 400, over.text);
    assert.deepEqual(over.body, { non_field_errors: ['Limit reached: there can be at most 12 accessors per app user.'] });
    assert.equal((await server.request('DELETE', `/app/accessors/${made[0].id}/`, { token: other.token })).status, 204);
    await invited(server, other.token, other.appUserId, { email: uniqueEmail('freed') });
  });

  test('a stranger gets 404 on the collection and on every method of the detail, as for a missing id; nothing changes', async () => {
    const accessor = await invited(server, owner.token, owner.appUserId, { email: uniqueEmail('kept') });
    const cases: [string, string, object | undefined][] = [
      ['GET', `/app/users/${owner.appUserId}/accessors/`, undefined],
      ['POST', `/app/users/${owner.appUserId}/accessors/`, { email: uniqueEmail('x') }],
      ['GET', `/app/accessors/${accessor.id}/`, undefined],
      ['PATCH', `/app/accessors/${accessor.id}/`, { can_write: true }],
      ['DELETE', `/app/accessors/${accessor.id}/`, undefined],
      ['POST', `/app/accessors/${accessor.id}/accept/`, undefined],
      ['GET', '/app/users/2000000000/accessors/', undefined],
      ['GET', '/app/accessors/2000000000/', undefined],
      ['POST', '/app/accessors/2000000000/accept/', undefined],
      ['GET', '/app/accessors/abc/', undefined],
    ];
    for (const [method, path, body] of cases) {
      const response = await server.request(method, path, { token: stranger.token, body });
      assert.equal(response.status, 404, `${method} ${path}: ${response.text}`);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
    assert.deepEqual((await get(owner.token, `/app/accessors/${accessor.id}/`)).body, accessor);
    assert.equal((await server.request('GET', '/app/accessors/pending/')).status, 401);
  });

  test('pending lists invitations to the caller’s verified addresses only; an unverified one sees nothing and cannot accept (404)', async () => {
    const person = await createAccount(server);
    const address = uniqueEmail('later-verified');
    const accessor = await invited(server, owner.token, owner.appUserId, { email: address });
    assert.deepEqual(await pendingOf(server, person.token), []);

    await addAddress(mailed, person, address, false);
    assert.deepEqual(await pendingOf(server, person.token), [], 'added, not verified');
    assert.equal((await get(person.token, `/app/accessors/${accessor.id}/`)).status, 404);
    assert.equal((await accept(server, person.token, accessor.id)).status, 404);

    const key = await verificationKey(mailed.sink, address);
    const verified = await server.request('POST', '/account/verify-email/', { body: { key, password: person.password } });
    assert.equal(verified.status, 200, verified.text);
    assert.deepEqual(await pendingOf(server, person.token), [accessor]);
    assert.deepEqual((await get(person.token, `/app/accessors/${accessor.id}/`)).body, accessor);
    // The owner's own pending list does not hold what they sent.
    assert.equal((await pendingOf(server, owner.token)).length, 0);
  });

  test('accept binds the accessor to the caller’s account (200, accepted, names); again: the same 200 and no second notice; a later change of addresses does not move it', async () => {
    const address = uniqueEmail('Charles');
    const accessor = await invited(server, owner.token, owner.appUserId, { email: address, can_write: true });
    // Addresses match whatever their case.
    const person = await registerVerified(mailed, address.toLowerCase());
    const named = { first_name: 'Charles', last_name: 'Babbage' };
    assert.equal((await server.request('PATCH', '/account/profile/', { token: person.token, body: named })).status, 200);
    assert.deepEqual(
      (await pendingOf(server, person.token)).map((a) => a.id),
      [accessor.id],
    );

    const first = await accept(server, person.token, accessor.id);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { ...accessor, accepted: true, user_with_access: named });
    const notices = () => mailsTo(mailed.sink, owner.email, ACCEPTED_SUBJECT).length;
    await outboxDelivered(server);
    const noticesBefore = notices();
    assert.equal(noticesBefore, 1, 'the first accept sent one notice');
    const again = await accept(server, person.token, accessor.id);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    await outboxDelivered(server);
    assert.equal(notices(), noticesBefore, 'no second notice');
    assert.deepEqual(await pendingOf(server, person.token), []);
    assert.deepEqual((await get(owner.token, `/app/accessors/${accessor.id}/`)).body, first.body);

    const notice = await waitForMail(mailed.sink, owner.email, ACCEPTED_SUBJECT);
    assert.match(notice.decoded, new RegExp(`invitation you sent to ${address.replace(/[.+]/g, '\\$&')} was accepted`));
    assert.match(notice.decoded, /see and change the information about Ada/);

    // The accepting account moves to another primary address and deletes the invited one.
    const next = uniqueEmail('charles-next');
    const nextId = await addAddress(mailed, person, next);
    assert.equal(
      (await server.request('PATCH', `/account/emails/${nextId}/`, { token: person.token, body: { primary: true } })).status,
      200,
    );
    const emails = (await get(person.token, '/account/emails/')).body as { id: number; email: string }[];
    const old = emails.find((e) => e.email === address.toLowerCase())!;
    assert.equal((await server.request('DELETE', `/account/emails/${old.id}/`, { token: person.token })).status, 204);
    assert.deepEqual((await get(person.token, `/app/accessors/${accessor.id}/`)).body, first.body, 'still theirs');

    // Someone else now verifies the invited address: the accessor is not theirs to see or take.
    const newcomer = await createAccount(server);
    await addAddress(mailed, newcomer, address);
    assert.deepEqual(await pendingOf(server, newcomer.token), []);
    assert.equal((await get(newcomer.token, `/app/accessors/${accessor.id}/`)).status, 404);
    assert.equal((await accept(server, newcomer.token, accessor.id)).status, 404);
    assert.equal((await server.request('DELETE', `/app/accessors/${accessor.id}/`, { token: newcomer.token })).status, 404);
    assert.equal((await get(person.token, `/app/accessors/${accessor.id}/`)).status, 200);
  });

  test('the accessor of an app user gets 403 on its accessors (owner only), with a sentence', async () => {
    const address = uniqueEmail('reader');
    const accessor = await invited(server, owner.token, owner.appUserId, { email: address });
    const reader = await registerVerified(mailed, address);
    assert.equal((await accept(server, reader.token, accessor.id)).status, 200);
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { email: uniqueEmail('by-reader') }],
    ] as const) {
      const response = await server.request(method, `/app/users/${owner.appUserId}/accessors/`, { token: reader.token, body });
      assert.equal(response.status, 403, `${method}: ${response.text}`);
      assert.match(response.body.detail, /owner/);
    }
  });

  test('PATCH: the owner changes the permissions; email sent back as it is passes, changed is 400; the person invited gets 403; others 404', async () => {
    const address = uniqueEmail('patched');
    const accessor = await invited(server, owner.token, owner.appUserId, { email: address });
    const path = `/app/accessors/${accessor.id}/`;
    const patch = (token: string, body: object) => server.request('PATCH', path, { token, body });

    const changed = await patch(owner.token, { can_write: true, has_private_profile_access: true, accepted: true, id: 99 });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.body, { ...accessor, can_write: true, has_private_profile_access: true }, 'read-only fields ignored');
    const partial = await patch(owner.token, { can_write: false, email: address.toUpperCase() });
    assert.equal(partial.status, 200, partial.text);
    assert.deepEqual(partial.body, { ...accessor, has_private_profile_access: true });

    const moved = await patch(owner.token, { email: uniqueEmail('elsewhere'), can_write: true });
    assert.equal(moved.status, 400);
    assert.deepEqual(Object.keys(moved.body), ['email']);
    assert.equal((await get(owner.token, path)).body.can_write, false, 'nothing changed');

    const person = await registerVerified(mailed, address);
    for (const token of [person.token]) {
      const refused = await patch(token, { can_write: true });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.detail, 'Only the owner of this data can change what an accessor may do.');
    }
    assert.equal((await accept(server, person.token, accessor.id)).status, 200);
    assert.equal((await patch(person.token, { has_private_profile_access: false })).status, 403, 'accepted: still 403');
    assert.equal((await patch(stranger.token, { can_write: true })).status, 404);
    assert.equal((await get(owner.token, path)).body.has_private_profile_access, true);
  });

  test('DELETE: the person invited declines (pending) or leaves (accepted); the owner revokes; each 204 and gone for both', async () => {
    const declinedAddress = uniqueEmail('decliner');
    const leftAddress = uniqueEmail('leaver');
    const revokedAddress = uniqueEmail('revoked');
    const declined = await invited(server, owner.token, owner.appUserId, { email: declinedAddress });
    const left = await invited(server, owner.token, owner.appUserId, { email: leftAddress });
    const revoked = await invited(server, owner.token, owner.appUserId, { email: revokedAddress });
    const decliner = await registerVerified(mailed, declinedAddress);
    const leaver = await registerVerified(mailed, leftAddress);
    const revokee = await registerVerified(mailed, revokedAddress);
    assert.equal((await accept(server, leaver.token, left.id)).status, 200);
    assert.equal((await accept(server, revokee.token, revoked.id)).status, 200);

    for (const [token, id] of [
      [decliner.token, declined.id],
      [leaver.token, left.id],
      [owner.token, revoked.id],
    ] as const) {
      assert.equal((await server.request('DELETE', `/app/accessors/${id}/`, { token })).status, 204);
      assert.equal((await get(owner.token, `/app/accessors/${id}/`)).status, 404);
      assert.equal((await server.request('DELETE', `/app/accessors/${id}/`, { token })).status, 404, 'once');
    }
    assert.equal((await get(revokee.token, `/app/accessors/${revoked.id}/`)).status, 404);
    assert.deepEqual(await pendingOf(server, decliner.token), []);
    const ids = (await get(owner.token, `/app/users/${owner.appUserId}/accessors/`)).body.map((a: { id: number }) => a.id);
    for (const gone of [declined.id, left.id, revoked.id]) assert.ok(!ids.includes(gone));
  });

  test('an account never holds an accessor on its own app user: the owner accepting is 403, even for an address they have verified since', async () => {
    const address = uniqueEmail('mine-later');
    const accessor = await invited(server, owner.token, owner.appUserId, { email: address });
    const notTheirs = await accept(server, owner.token, accessor.id);
    assert.equal(notTheirs.status, 403, notTheirs.text);
    assert.equal(notTheirs.body.detail, 'This invitation is to your own data: only the person invited can accept it.');

    await addAddress(mailed, owner, address);
    assert.deepEqual(await pendingOf(server, owner.token), [], 'not offered to the owner');
    assert.equal((await accept(server, owner.token, accessor.id)).status, 403);
    assert.equal((await get(owner.token, `/app/accessors/${accessor.id}/`)).body.accepted, false);
    assert.equal((await server.request('DELETE', `/app/accessors/${accessor.id}/`, { token: owner.token })).status, 204);
  });

  test('one accessor per person and app user: with invitations to two of their addresses, the second accept is 409 and may be declined', async () => {
    const first = uniqueEmail('two-a');
    const second = uniqueEmail('two-b');
    const a = await invited(server, owner.token, owner.appUserId, { email: first });
    const b = await invited(server, owner.token, owner.appUserId, { email: second });
    const person = await registerVerified(mailed, first);
    await addAddress(mailed, person, second);
    assert.deepEqual(
      (await pendingOf(server, person.token)).map((x) => x.id),
      [a.id, b.id],
    );
    assert.equal((await accept(server, person.token, a.id)).status, 200);
    const refused = await accept(server, person.token, b.id);
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.body.detail, /already have access/);
    assert.equal((await get(owner.token, `/app/accessors/${b.id}/`)).body.accepted, false);
    assert.equal((await server.request('DELETE', `/app/accessors/${b.id}/`, { token: person.token })).status, 204);
  });

  test('at once: one address invited twice gives one 201 and one 400; one invitation accepted twice, two 200s and one notice; two invitations of one person, one 200 and one 409', async () => {
    const other = await createOwner(server);
    const address = uniqueEmail('racing');
    const creates = await Promise.all([0, 1].map(() => invite(server, other.token, other.appUserId, { email: address })));
    assert.deepEqual(creates.map((r) => r.status).sort(), [201, 400], creates.map((r) => r.text).join(' '));
    const accessor = creates.find((r) => r.status === 201)!.body;

    const person = await registerVerified(mailed, address);
    const accepts = await Promise.all([0, 1].map(() => accept(server, person.token, accessor.id)));
    assert.deepEqual(
      accepts.map((r) => r.status),
      [200, 200],
    );
    assert.deepEqual(accepts[0]!.body, accepts[1]!.body);
    await outboxDelivered(server);
    assert.equal(mailsTo(mailed.sink, other.email, ACCEPTED_SUBJECT).length, 1);

    const third = await createOwner(server);
    const second = uniqueEmail('racing-second');
    await addAddress(mailed, person, second);
    const both = [
      await invited(server, third.token, third.appUserId, { email: address }),
      await invited(server, third.token, third.appUserId, { email: second }),
    ];
    const raced = await Promise.all(both.map((a) => accept(server, person.token, a.id)));
    assert.deepEqual(raced.map((r) => r.status).sort(), [200, 409], raced.map((r) => r.text).join(' '));
    const list = await get(third.token, `/app/users/${third.appUserId}/accessors/`);
    assert.equal(list.body.filter((a: { accepted: boolean }) => a.accepted).length, 1);
  });

  test('through these routes, access follows from the next request: accept opens the data, PATCH can_write allows writes, DELETE ends it', async () => {
    const other = await createOwner(server);
    const address = uniqueEmail('end-to-end');
    const accessor = await invited(server, other.token, other.appUserId, { email: address });
    const person = await registerVerified(mailed, address);
    const appUserPath = `/app/users/${other.appUserId}/`;
    const profiles = `/app/users/${other.appUserId}/profiles/`;
    // Read once before, so that any cache of the person's grants is warm.
    assert.equal((await get(person.token, appUserPath)).status, 404, 'invited is not accepted');

    assert.equal((await accept(server, person.token, accessor.id)).status, 200);
    assert.equal((await get(person.token, appUserPath)).status, 200);
    assert.equal((await server.request('POST', profiles, { token: person.token, body: { name: 'By them' } })).status, 403);

    const patch = (body: object) => server.request('PATCH', `/app/accessors/${accessor.id}/`, { token: other.token, body });
    assert.equal((await patch({ can_write: true })).status, 200);
    assert.equal((await server.request('POST', profiles, { token: person.token, body: { name: 'By them' } })).status, 201);

    assert.equal((await server.request('DELETE', `/app/accessors/${accessor.id}/`, { token: other.token })).status, 204);
    assert.equal((await get(person.token, appUserPath)).status, 404);
  });
});
