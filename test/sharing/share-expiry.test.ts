// docs/sharing.md, "Shares that end": an accessor's `expires_at`. Past it, access ends exactly as a
// revocation does — every route, the rendering cache, an open live stream, a signed file URL —
// both sides are told by e-mail once, the owner still lists it with `expired: true`, and a later
// `expires_at` re-grants it without a new invitation, telling the person whose access it gives
// back. The test clock moves past the expiry: no waiting on the wall clock. Real SMTP server; on
// PostgreSQL also two instances on one database.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatMessage } from '../../src/i18n/format.ts';
import { mailsTo, startMailedServer, waitForMail, type MailedServer } from '../accounts/account-flows.ts';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { onPostgres } from '../helpers/database.ts';
import { mailText, type MailText } from '../helpers/mail-text.ts';
import { testMediaStorageEnv } from '../helpers/media-storage.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { download } from '../media/media-fixtures.ts';
import { openStream } from '../sync/event-reader.ts';
import { insertAccessor, makeTree, type Tree } from './sharing-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const OWNER_SUBJECT = 'A share of your information has ended';
const ACCESSOR_SUBJECT = 'Shared information is no longer available to you';
const RESTORED_SUBJECT = 'Shared information is available to you again';
const MINUTE = 60_000;

const iso = (ms: number) => new Date(ms).toISOString();

async function fileStatus(server: TestServer, url: string): Promise<number> {
  const response = await download(server, url);
  await response.arrayBuffer();
  return response.status;
}

/** Sets the accessor's end date as its owner, through the API. */
async function setExpiry(server: TestServer, owner: Owner, accessorId: number, expiresAt: string | null) {
  const response = await server.request('PATCH', `/app/accessors/${accessorId}/`, { token: owner.token, body: { expires_at: expiresAt } });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** The e-mails queued in the outbox to `to` with `subject`, sent or not. */
async function queuedTo(server: TestServer, to: string, subject: string): Promise<{ to: string; subject: string; text?: string }[]> {
  const rows = await server.server.ctx.db.kysely.selectFrom('outbox').select('payload').where('kind', '=', 'email').execute();
  return rows
    .map((row) => JSON.parse(row.payload) as { to: string; subject: string; text?: string })
    .filter((mail) => mail.to.toLowerCase() === to.toLowerCase() && mail.subject === subject);
}

/** Waits until `count` e-mails with `subject` (in any language) have reached `to`; the last of them, as read. */
async function waitForRead(mailed: MailedServer, to: string, subject: string, count = 1): Promise<MailText> {
  const read = () =>
    mailsTo(mailed.sink, to)
      .map((m) => mailText(m.raw))
      .filter((m) => m.subject === subject);
  await mailed.sink.waitFor(() => read().length >= count);
  return read()[count - 1]!;
}

/** The reads an accessor of `tree` makes, each with the status it answers while access holds. */
function readPaths(tree: Tree): string[] {
  const appUserId = tree.owner.appUserId;
  return [
    `/app/users/${appUserId}/`,
    `/app/users/${appUserId}/profiles/`,
    `/app/profiles/${tree.public.profile}/`,
    `/app/topics/${tree.public.topic}/items/`,
    `/app/items/${tree.public.listItem}/`,
    `/app/users/${appUserId}/emergency-items/`,
    `/app/users/${appUserId}/emergency-contacts/`,
    `/app/users/${appUserId}/gallery/`,
    `/app/media-resources/${tree.public.media}/`,
    `/app/users/${appUserId}/changes/`,
  ];
}

describe('shares that end', () => {
  let mailed: MailedServer;
  let server: TestServer;
  let owner: Owner;
  let tree: Tree;
  before(async () => {
    mailed = await startMailedServer({ EVENT_HEARTBEAT: '200ms' });
    server = mailed.server;
    // The pass runs when the test says (runOnce), not on its timer.
    await server.server.shareExpiry.stop();
    owner = await createOwner(server, { firstName: 'Olive' });
    tree = await makeTree(server, owner);
  });
  after(() => mailed.close());

  test('an end date in the past, or not a date, is 400 under expires_at, on create and on PATCH', async () => {
    const past = iso(server.clock.now() - 1000);
    const created = await server.request('POST', `/app/users/${owner.appUserId}/accessors/`, {
      token: owner.token,
      body: { email: 'past-end@example.com', expires_at: past },
    });
    assert.equal(created.status, 400, created.text);
    assert.ok(created.body.expires_at, created.text);
    const person = await createOwner(server);
    const accessorId = await insertAccessor(server, owner, person.email, person.id);
    for (const expires_at of [past, 'tomorrow']) {
      const patched = await server.request('PATCH', `/app/accessors/${accessorId}/`, { token: owner.token, body: { expires_at } });
      assert.equal(patched.status, 400, patched.text);
      assert.ok(patched.body.expires_at, patched.text);
    }
    const shown = await server.request('GET', `/app/accessors/${accessorId}/`, { token: owner.token });
    assert.equal(shown.body.expires_at, null);
    assert.equal(shown.body.expired, false);
  });

  test('an invitation with an end date carries it; the invited person may not change it (403)', async () => {
    const end = server.clock.now() + 7 * 24 * 3_600_000;
    const created = await server.request('POST', `/app/users/${owner.appUserId}/accessors/`, {
      token: owner.token,
      body: { email: 'week-long@example.com', expires_at: iso(end) },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.expires_at, iso(end));
    assert.equal(created.body.expired, false);
    const person = await createOwner(server);
    const accessorId = await insertAccessor(server, owner, person.email, person.id);
    const refused = await server.request('PATCH', `/app/accessors/${accessorId}/`, {
      token: person.token,
      body: { expires_at: iso(end) },
    });
    assert.equal(refused.status, 403, refused.text);
    const past = iso(server.clock.now() - 1000);
    const alsoRefused = await server.request('PATCH', `/app/accessors/${accessorId}/`, { token: person.token, body: { expires_at: past } });
    assert.equal(alsoRefused.status, 403, `a past date from the person invited is still theirs to not change: ${alsoRefused.text}`);
    const stranger = await createOwner(server);
    const unseen = await server.request('PATCH', `/app/accessors/${accessorId}/`, { token: stranger.token, body: { expires_at: past } });
    assert.equal(unseen.status, 404, unseen.text);
  });

  test('at the end date every route, the cached renderings, an open stream and a handed file URL end; both sides are told once; a later date re-grants', async () => {
    const person = await createOwner(server, { firstName: 'Carer' });
    const accessorId = await insertAccessor(server, owner, person.email, person.id, { canWrite: true });
    const end = server.clock.now() + MINUTE;
    const set = await setExpiry(server, owner, accessorId, iso(end));
    assert.equal(set.expires_at, iso(end));
    assert.equal(set.expired, false);

    for (const path of readPaths(tree)) {
      const response = await server.request('GET', path, { token: person.token });
      assert.equal(response.status, 200, `GET ${path} before the end: ${response.text}`);
    }
    // Cached: the second read of a profile comes from the rendering cache.
    const rendered = server.server.ctx.cacheCounts.get('rendering')!;
    const hits = rendered.hits;
    assert.equal((await server.request('GET', `/app/profiles/${tree.public.profile}/`, { token: person.token })).status, 200);
    assert.equal(rendered.hits, hits + 1, 'the profile is served from the rendering cache');
    const fileUrl: string = (await server.request('GET', `/app/media-resources/${tree.public.media}/`, { token: person.token })).body.file;
    assert.equal(await fileStatus(server, fileUrl), 200);
    const stream = await openStream(server, `/app/users/${owner.appUserId}/events/`, person.token);
    assert.equal(stream.status, 200);
    const listed = await server.request('GET', '/app/users/', { token: person.token });
    assert.ok(listed.body.some((u: { id: number }) => u.id === owner.appUserId));

    server.clock.advance(MINUTE);
    await stream.ended;
    for (const path of readPaths(tree)) {
      const response = await server.request('GET', path, { token: person.token });
      assert.equal(response.status, 404, `GET ${path} at the end: ${response.text}`);
    }
    const write = await server.request('PATCH', `/app/topics/${tree.public.topic}/`, { token: person.token, body: { name: 'Late' } });
    assert.equal(write.status, 404, write.text);
    assert.equal(await fileStatus(server, fileUrl), 404, 'the handed file URL stops');
    const after = await server.request('GET', '/app/users/', { token: person.token });
    assert.deepEqual(
      after.body.map((u: { id: number }) => u.id),
      [person.appUserId],
      'only their own app user is listed',
    );
    assert.equal((await openStream(server, `/app/users/${owner.appUserId}/events/`, person.token)).status, 404, 'a new stream is refused');

    const owned = await server.request('GET', `/app/users/${owner.appUserId}/accessors/`, { token: owner.token });
    const row = owned.body.find((a: { id: number }) => a.id === accessorId);
    assert.equal(row.expired, true, 'still listed for the owner, as expired');
    assert.equal(row.expires_at, iso(end));
    const theirs = await server.request('GET', '/app/accessors/', { token: person.token });
    assert.equal(theirs.body.find((a: { id: number }) => a.id === accessorId)?.expired, true, 'listed for them as expired');

    assert.equal(await server.server.shareExpiry.runOnce(), 1);
    assert.equal(await server.server.shareExpiry.runOnce(), 0, 'told once');
    const log = await server.request('GET', `/app/users/${owner.appUserId}/activity/`, { token: owner.token });
    const ended = log.body.events.filter(
      (e: { action: string; object: { id: number } | null }) => e.action === 'expired' && e.object?.id === accessorId,
    );
    assert.equal(ended.length, 1, "the owner's activity log says the share ended, once");
    assert.equal(ended[0].actor, null, 'ended by the service, not by someone');
    assert.equal(ended[0].at, iso(end), 'at its end date');
    const ownerMail = await waitForMail(mailed.sink, owner.email, OWNER_SUBJECT);
    assert.match(ownerMail.decoded, new RegExp(person.email.replace(/[.+]/g, '\\$&')));
    assert.match(ownerMail.decoded, /they can no longer see it/);
    const personMail = await waitForMail(mailed.sink, person.email, ACCESSOR_SUBJECT);
    assert.match(personMail.decoded, /Olive/);

    // Re-granted by a later end date: no invitation, access back at once.
    const later = server.clock.now() + 10 * MINUTE;
    const regranted = await setExpiry(server, owner, accessorId, iso(later));
    assert.equal(regranted.expired, false);
    assert.equal(regranted.accepted, true);
    for (const path of readPaths(tree)) {
      const response = await server.request('GET', path, { token: person.token });
      assert.equal(response.status, 200, `GET ${path} after the re-grant: ${response.text}`);
    }
    assert.equal(await fileStatus(server, fileUrl), 200, 'the file URL works again');
    // Its next end is told again.
    server.clock.advance(10 * MINUTE);
    assert.equal((await server.request('GET', `/app/users/${owner.appUserId}/`, { token: person.token })).status, 404);
    assert.equal(await server.server.shareExpiry.runOnce(), 1);
    await waitForMail(mailed.sink, owner.email, OWNER_SUBJECT, 2);
    assert.equal(mailsTo(mailed.sink, person.email, ACCESSOR_SUBJECT).length >= 1, true);
    // Until revoked again.
    await setExpiry(server, owner, accessorId, null);
    assert.equal((await server.request('GET', `/app/users/${owner.appUserId}/`, { token: person.token })).status, 200);
  });

  test('giving back access that ended tells the person, in their language, until when; a live share or an invitation tells no one', async () => {
    const person = await createOwner(server, { firstName: 'Carer' });
    const spoken = await server.request('PATCH', '/account/profile/', { token: person.token, body: { language: 'de' } });
    assert.equal(spoken.status, 200, spoken.text);
    const germanSubject = formatMessage('de', 'email', 'shareRestored.subject');
    const accessorId = await insertAccessor(server, owner, person.email, person.id, { canWrite: true });
    const invitee = await createOwner(server);
    const invitationId = await insertAccessor(server, owner, invitee.email, null);
    const start = server.clock.now();
    for (const id of [accessorId, invitationId]) await setExpiry(server, owner, id, iso(start + MINUTE));

    // A live share's end date moved, or taken away: nothing was lost, nobody is told.
    await setExpiry(server, owner, accessorId, iso(start + 2 * MINUTE));
    await setExpiry(server, owner, invitationId, iso(start + 2 * MINUTE));
    assert.equal((await queuedTo(server, person.email, germanSubject)).length, 0, 'no e-mail for a live share');

    server.clock.advance(2 * MINUTE);
    assert.equal(await server.server.shareExpiry.runOnce(), 2);
    const later = start + 30 * 24 * 60 * MINUTE;
    await setExpiry(server, owner, accessorId, iso(later));
    await setExpiry(server, owner, invitationId, iso(later));
    const mail = await waitForRead(mailed, person.email, germanSubject);
    assert.match(mail.text, /Olive/, 'names the owner');
    assert.match(mail.text, /wiederhergestellt: Sie können sie wieder ansehen und ändern\./, 'what they may do again, in German');
    const until = new Intl.DateTimeFormat('de', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(later));
    assert.ok(mail.text.includes(`am ${until} (UTC)`), `until when: ${mail.text}`);
    assert.ok(mail.text.includes(`${server.server.ctx.config.publicUrl}/shared`), 'links to the page of shares');
    assert.equal(mailsTo(mailed.sink, person.email, RESTORED_SUBJECT).length, 0, 'not in English');
    assert.equal((await queuedTo(server, invitee.email, RESTORED_SUBJECT)).length, 0, 'an invitation lost nothing');

    // Live again: taking its end date away tells nobody.
    await setExpiry(server, owner, accessorId, null);
    assert.equal((await queuedTo(server, person.email, germanSubject)).length, 1, 'told once');

    // Ended again, given back with no end date: told so.
    await setExpiry(server, owner, accessorId, iso(server.clock.now() + MINUTE));
    server.clock.advance(MINUTE);
    await setExpiry(server, owner, accessorId, null);
    const endless = await waitForRead(mailed, person.email, germanSubject, 2);
    assert.match(endless.text, /kein Enddatum mehr/);
  });

  test('an invitation past its end date is not pending for the person invited, and cannot be accepted', async () => {
    const person = await createOwner(server);
    const accessorId = await insertAccessor(server, owner, person.email, null);
    await setExpiry(server, owner, accessorId, iso(server.clock.now() + MINUTE));
    const pending = await server.request('GET', '/app/accessors/pending/', { token: person.token });
    assert.ok(pending.body.some((a: { id: number }) => a.id === accessorId));
    server.clock.advance(MINUTE);
    const gone = await server.request('GET', '/app/accessors/pending/', { token: person.token });
    assert.ok(!gone.body.some((a: { id: number }) => a.id === accessorId));
    const accepted = await server.request('POST', `/app/accessors/${accessorId}/accept/`, { token: person.token });
    assert.equal(accepted.status, 404, accepted.text);
    // The owner is told; the person, who never accepted, is not.
    assert.ok((await server.server.shareExpiry.runOnce()) >= 1);
    const about = () => mailsTo(mailed.sink, owner.email, OWNER_SUBJECT).filter((m) => m.decoded.includes(person.email));
    await waitFor(() => about().length >= 1, 'the owner is told');
    // Of an invitation that ended unaccepted, not of access that ended.
    assert.match(about()[0]!.decoded, /reached its end date before it was accepted/);
    assert.doesNotMatch(about()[0]!.decoded, /no longer see it/);
    assert.equal(mailsTo(mailed.sink, person.email, ACCESSOR_SUBJECT).length, 0);
  });
});

describe('shares that end, on two instances', { skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)' }, () => {
  let a: TestServer;
  let b: TestServer;
  let owner: Owner;
  let tree: Tree;
  before(async () => {
    const storage = await testMediaStorageEnv(tempDir('share-expiry-'));
    a = await startTestServer({ ...storage, EVENT_HEARTBEAT: '200ms' });
    b = await startTestServer({ ...storage, EVENT_HEARTBEAT: '200ms', DATABASE_URL: a.server.ctx.config.databaseUrl });
    await a.server.shareExpiry.stop();
    await b.server.shareExpiry.stop();
    owner = await createOwner(a, { firstName: 'Olive' });
    tree = await makeTree(a, owner);
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  test('an end date set through A ends access on B, with B’s renderings cached, its stream open and a file URL it handed', async () => {
    const person = await createOwner(a);
    const accessorId = await insertAccessor(a, owner, person.email, person.id);
    const profilePath = `/app/profiles/${tree.public.profile}/`;
    assert.equal((await b.request('GET', profilePath, { token: person.token })).status, 200);
    assert.equal((await b.request('GET', profilePath, { token: person.token })).status, 200);
    const fileUrl: string = (await b.request('GET', `/app/media-resources/${tree.public.media}/`, { token: person.token })).body.file;
    const end = Math.max(a.clock.now(), b.clock.now()) + MINUTE;
    await setExpiry(a, owner, accessorId, iso(end));
    const stream = await openStream(b, `/app/users/${owner.appUserId}/events/`, person.token);
    assert.equal(stream.status, 200);
    assert.equal((await b.request('GET', profilePath, { token: person.token })).status, 200, 'before the end on B');

    b.clock.advance(end - b.clock.now());
    a.clock.advance(end - a.clock.now());
    await stream.ended;
    for (const server of [a, b]) {
      for (const path of readPaths(tree)) {
        const response = await server.request('GET', path, { token: person.token });
        assert.equal(response.status, 404, `GET ${path} at the end: ${response.text}`);
      }
      assert.equal(await fileStatus(server, fileUrl), 404, 'the file URL B handed stops');
    }
    // Both instances sweep: the expiry is told by exactly one.
    const told = (await Promise.all([a.server.shareExpiry.runOnce(), b.server.shareExpiry.runOnce()])).reduce((x, y) => x + y, 0);
    assert.equal(told, 1);
    const queued = await a.server.ctx.db.kysely
      .selectFrom('accessors')
      .select('expiry_told_at')
      .where('id', '=', accessorId)
      .executeTakeFirstOrThrow();
    assert.notEqual(queued.expiry_told_at, null);
  });
});
