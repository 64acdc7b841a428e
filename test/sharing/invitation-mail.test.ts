// docs/sharing.md, docs/api-conventions.md#limits: the invitation e-mail (to the address, naming the owner, linking to the
// web client's /shared page, saying how to decline), the owner's notice on acceptance, and the
// limits that keep invitations from mailing anyone again and again. Real SMTP server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  mailsTo,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  VERIFY_SUBJECT,
  waitForMail,
  type MailedServer,
} from '../accounts/account-flows.ts';
import { createOwner } from '../app-data/fixtures.ts';
import { createAccount } from '../helpers/accounts.ts';
import { PUBLIC_URL } from '../helpers/server.ts';
import { accept, addAddress, INVITATION_SUBJECT, invite, invited, outboxDelivered, pendingOf } from './sharing-flows.ts';

/** The text part of a received e-mail: its paragraphs, one line each. */
function textOf(decoded: string): string {
  const start = decoded.indexOf('Content-Type: text/plain');
  const end = decoded.indexOf('Content-Type: text/html');
  return decoded.slice(start, end);
}

describe('invitation e-mails', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  test('the invitation goes to the address, names the owner and what is shared, links to $PUBLIC_URL/shared and says how to decline', async () => {
    const { server, sink } = mailed;
    const owner = await createOwner(server);
    const reader = uniqueEmail('Reader');
    const writer = uniqueEmail('writer');
    await invited(server, owner.token, owner.appUserId, { email: reader });
    await invited(server, owner.token, owner.appUserId, { email: writer, can_write: true });

    const mail = await waitForMail(sink, reader, INVITATION_SUBJECT);
    assert.deepEqual(
      mail.to.map((a) => a.toLowerCase()),
      [reader.toLowerCase()],
    );
    const text = textOf(mail.decoded);
    assert.match(text, new RegExp(`Ada Lovelace \\(${owner.email.replace(/[.+]/g, '\\$&')}\\) invited`));
    assert.match(text, /invited \S+ to see the information they keep about Ada on Profile Service\./);
    assert.ok(text.includes(`\r\n${PUBLIC_URL}/shared\r\n`), 'the link, on a line of its own');
    assert.match(text, /If you do not want this, ignore this e-mail: nothing is shared with you unless you accept\./);
    assert.match(text, /To decline, choose Decline on the same page/);
    assert.doesNotMatch(mail.decoded, /key=/, 'no key: the page lists what waits for the signed-in person');

    const writerMail = await waitForMail(sink, writer, INVITATION_SUBJECT);
    assert.match(textOf(writerMail.decoded), /to see and keep up to date the information/);
    // Without limits, the invitation says none.
    assert.doesNotMatch(text, /Only some of the profiles|The share ends/);
  });

  test('a share limited in time or to some profiles says so in its invitation', async () => {
    const { server, sink } = mailed;
    const owner = await createOwner(server);
    const profile = await server.request('POST', `/app/users/${owner.appUserId}/profiles/`, { token: owner.token, body: { name: 'Home' } });
    assert.equal(profile.status, 201, profile.text);
    const limited = uniqueEmail('limited');
    const end = Date.UTC(2031, 4, 17, 9, 30);
    await invited(server, owner.token, owner.appUserId, {
      email: limited,
      expires_at: new Date(end).toISOString(),
      profiles: [profile.body.id],
    });
    const text = textOf((await waitForMail(sink, limited, INVITATION_SUBJECT)).decoded);
    assert.match(text, /Only some of the profiles are shared with you\./);
    assert.match(text, /The share ends on May 17, 2031 at 9:30\sAM \(UTC\), unless it is extended\./);
  });

  test('an owner without names is named by their address; names are escaped in the HTML part', async () => {
    const { server, sink } = mailed;
    const nameless = await createOwner(server);
    const unnamed = await server.request('PATCH', '/account/profile/', { token: nameless.token, body: { first_name: '', last_name: '' } });
    assert.equal(unnamed.status, 200, unnamed.text);
    const to = uniqueEmail('nameless');
    await invited(server, nameless.token, nameless.appUserId, { email: to });
    const mail = await waitForMail(sink, to, INVITATION_SUBJECT);
    assert.match(textOf(mail.decoded), new RegExp(`^${nameless.email.replace(/[.+]/g, '\\$&')} invited`, 'm'));

    const marked = await createOwner(server, { firstName: '<b>Bold</b>' });
    const other = uniqueEmail('escaped');
    await invited(server, marked.token, marked.appUserId, { email: other });
    const html = (await waitForMail(sink, other, INVITATION_SUBJECT)).decoded.split('Content-Type: text/html')[1]!;
    assert.ok(!html.includes('<b>Bold</b>'), 'no markup from a name');
    assert.ok(html.includes('&#60;b&#62;Bold'), html);
  });

  test('accepting tells the owner, at their primary address, which invitation was accepted', async () => {
    const { server, sink } = mailed;
    const owner = await createOwner(server);
    const to = uniqueEmail('accepter');
    const accessor = await invited(server, owner.token, owner.appUserId, { email: to });
    const person = await registerVerified(mailed, to);
    assert.equal((await accept(server, person.token, accessor.id)).status, 200);
    const notice = await waitForMail(sink, owner.email, 'Your invitation was accepted');
    assert.match(textOf(notice.decoded), new RegExp(`The invitation you sent to ${to.replace(/[.+]/g, '\\$&')} was accepted`));
    assert.match(textOf(notice.decoded), /can see the information about Ada\./);
  });
});

describe('invitation e-mails are limited per address and per account (docs/api-conventions.md#limits)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({
      RATE_LIMITS: 'on',
      RATE_LIMIT_REGISTER: '100/1h',
      RATE_LIMIT_VERIFY_EMAIL: '100/1h',
      RATE_LIMIT_INVITATION_EMAILS_PER_ADDRESS: '2/1d',
      RATE_LIMIT_INVITATION_EMAILS_PER_ACCOUNT: '3/1d',
    });
  });
  after(() => mailed.close());

  const invitations = (to: string) => mailsTo(mailed.sink, to, INVITATION_SUBJECT).length;

  test('re-inviting, by one owner or several, mails an address at most the limit; the invitations are made all the same and wait on /shared', async () => {
    const { server } = mailed;
    const owner = await createOwner(server);
    const other = await createOwner(server);
    const stranger = uniqueEmail('stranger');
    const again = async () => {
      const made = await invited(server, owner.token, owner.appUserId, { email: stranger });
      await outboxDelivered(server);
      return made;
    };
    const revoke = async (id: number) =>
      assert.equal((await server.request('DELETE', `/app/accessors/${id}/`, { token: owner.token })).status, 204);

    await revoke((await again()).id);
    assert.equal(invitations(stranger), 1);
    await revoke((await again()).id);
    assert.equal(invitations(stranger), 2);
    const third = await again();
    assert.equal(invitations(stranger), 2, 'over the limit: made, not mailed');
    const fromOther = await invited(server, other.token, other.appUserId, { email: stranger });
    await outboxDelivered(server);
    assert.equal(invitations(stranger), 2, 'another owner meets the same limit');

    // The invitations are there for the person, who is not held back from their own e-mails.
    const person = await createAccount(server);
    await addAddress(mailed, person, stranger);
    assert.equal(mailsTo(mailed.sink, stranger, VERIFY_SUBJECT).length, 1);
    assert.deepEqual(
      (await pendingOf(server, person.token)).map((a) => a.id),
      [third.id, fromOther.id],
    );

    // A day later the address may be mailed again; the sweep keeps what the limits still count.
    server.clock.advance(24 * 3_600_000 + 1000);
    await server.server.sweeper.runOnce();
    await revoke(third.id);
    await again();
    assert.equal(invitations(stranger), 3);
  });

  test('one account mails at most RATE_LIMIT_INVITATION_EMAILS_PER_ACCOUNT invitations, then 429 with Retry-After and nothing made', async () => {
    const { server } = mailed;
    const owner = await createOwner(server);
    for (let i = 0; i < 3; i++) await invited(server, owner.token, owner.appUserId, { email: uniqueEmail(`many${i}`) });
    const refused = await invite(server, owner.token, owner.appUserId, { email: uniqueEmail('one-too-many') });
    assert.equal(refused.status, 429, refused.text);
    assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.match(refused.body.detail, /too many invitations/);
    const list = await server.request('GET', `/app/users/${owner.appUserId}/accessors/`, { token: owner.token });
    assert.equal(list.body.length, 3);

    server.clock.advance(24 * 3_600_000 + 1000);
    const later = uniqueEmail('later');
    await invited(server, owner.token, owner.appUserId, { email: later });
    await waitForMail(mailed.sink, later, INVITATION_SUBJECT);
  });
});
