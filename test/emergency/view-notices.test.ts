// docs/emergency-links.md: the owner gets a notice e-mail on a view, at most one per link per hour; the
// views in between are recorded all the same. Notices are queued in the view's own transaction,
// so what was queued can be counted as soon as the view is answered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailedServer, waitForMail, type MailedServer } from '../accounts/account-flows.ts';
import { createOwner } from '../app-data/fixtures.ts';
import { mailText } from '../helpers/mail-text.ts';
import { createLink, queuedNotices, readPublic, unlock, VIEWED_SUBJECT } from './emergency-fixtures.ts';

const MINUTE = 60_000;

describe('view notices', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ TRUST_PROXY: '127.0.0.1' });
  });
  after(() => mailed?.close());

  test('the first view e-mails the owner; more views within the hour e-mail nothing; the next hour’s first view does', async () => {
    const { server, sink } = mailed;
    const owner = await createOwner(server);
    const link = await createLink(server, owner, { label: 'Wallet card', pin: '2468' });
    const headers = { 'x-forwarded-for': '203.0.113.50', 'user-agent': 'Responder/2.0' };
    assert.equal((await unlock(server, link.token, '2468', headers)).status, 200);
    const mail = await waitForMail(sink, owner.email, VIEWED_SUBJECT);
    assert.match(
      mailText(mail.raw).text,
      /Your emergency link "Wallet card" was opened on \w+ \d{1,2}, \d{4} at \d{1,2}:\d\d\s[AP]M \(UTC\)\. The view came from 203\.0\.113\.50 \(Responder\/2\.0\)\./,
    );
    assert.ok(!mail.decoded.includes(link.token), 'the notice does not carry the link');

    // A GET that asks for the PIN, and a wrong PIN, are no views.
    assert.equal((await readPublic(server, link.token)).status, 401);
    assert.equal((await unlock(server, link.token, '0000')).status, 400);
    const firstView = server.clock.now();
    for (const minutes of [1, 30, 59]) {
      server.clock.advance(firstView + minutes * MINUTE - server.clock.now());
      assert.equal((await unlock(server, link.token, '2468')).status, 200);
    }
    assert.equal(await queuedNotices(server, owner.id, VIEWED_SUBJECT), 1, 'one notice within the hour');
    const views = await server.request('GET', `/app/emergency-links/${link.id}/views/`, { token: owner.token });
    assert.equal(views.body.length, 4, 'every view is recorded');

    server.clock.advance(MINUTE);
    assert.equal((await unlock(server, link.token, '2468')).status, 200);
    assert.equal(await queuedNotices(server, owner.id, VIEWED_SUBJECT), 2, 'an hour after the first notice, the next');
    await waitForMail(sink, owner.email, VIEWED_SUBJECT, 2);
  });

  test('per link: a second link’s view within the same hour has its own notice; an unlabelled link is named plainly', async () => {
    const { server, sink } = mailed;
    const owner = await createOwner(server);
    const first = await createLink(server, owner, { label: 'Card' });
    const second = await createLink(server, owner);
    await readPublic(server, first.token);
    await readPublic(server, first.token);
    await readPublic(server, second.token);
    assert.equal(await queuedNotices(server, owner.id, VIEWED_SUBJECT), 2);
    await waitForMail(sink, owner.email, VIEWED_SUBJECT, 2);
    assert.ok(sink.messages.some((m) => m.to.includes(owner.email) && /Your emergency link was opened on/.test(m.decoded)));
  });
});
