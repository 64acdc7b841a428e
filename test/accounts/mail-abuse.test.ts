// The service must not be a way to mail a stranger again and again: the per-address cooldown
// outlives the address (add, delete, add again), and one account can cause only so many
// verification e-mails, whatever addresses it adds.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  PASSWORD,
  VERIFY_SUBJECT,
  mailsTo,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  type MailedServer,
} from './account-flows.ts';

describe('verification e-mails cannot be used to spam an address', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({
      RATE_LIMITS: 'on',
      RATE_LIMIT_REGISTER: '100/1h',
      RATE_LIMIT_VERIFY_EMAIL: '100/1h',
      RATE_LIMIT_EMAIL_PER_ADDRESS: '1/1m',
      RATE_LIMIT_VERIFICATION_EMAILS_PER_ACCOUNT: '3/1d',
    });
  });
  after(() => mailed.close());

  function add(token: string, email: string) {
    return mailed.server.request('POST', '/account/emails/', { token, body: { email } });
  }

  test('add, delete, add again inside the cooldown: 429 with Retry-After and no second e-mail; after it: 201 and one more', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const stranger = uniqueEmail('stranger');
    const first = await add(account.token, stranger);
    assert.equal(first.status, 201, first.text);
    await verificationKey(sink, stranger);
    assert.equal((await server.request('DELETE', `/account/emails/${first.body.id}/`, { token: account.token })).status, 204);

    const again = await add(account.token, stranger);
    assert.equal(again.status, 429, again.text);
    assert.match(again.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal((await server.request('GET', '/account/emails/', { token: account.token })).body.length, 1, 'nothing was added');
    // Another account adding the same address meets the same cooldown: it belongs to the address.
    const other = await registerVerified(mailed);
    assert.equal((await add(other.token, stranger)).status, 429);

    server.clock.advance(61_000);
    assert.equal((await add(account.token, stranger)).status, 201);
    await verificationKey(sink, stranger, 2);
    assert.equal(mailsTo(sink, stranger, VERIFY_SUBJECT).length, 2);
  });

  test('one account causes at most RATE_LIMIT_VERIFICATION_EMAILS_PER_ACCOUNT verification e-mails (adds and resends), then 429', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed); // its own registration e-mail is one of the three
    const a = await add(account.token, uniqueEmail('a'));
    assert.equal(a.status, 201, a.text);
    server.clock.advance(61_000);
    assert.equal((await server.request('POST', `/account/emails/${a.body.id}/resend-verification/`, { token: account.token })).status, 204);
    const refused = await add(account.token, uniqueEmail('b'));
    assert.equal(refused.status, 429, refused.text);
    assert.match(refused.body.detail, /too many verification e-mails/);
    server.clock.advance(61_000);
    assert.equal((await server.request('POST', `/account/emails/${a.body.id}/resend-verification/`, { token: account.token })).status, 429);

    // A day later the account may again; the sweep keeps only what the limits still count.
    server.clock.advance(24 * 3_600_000);
    await server.server.sweeper.runOnce();
    const later = uniqueEmail('later');
    assert.equal((await add(account.token, later)).status, 201);
    await verificationKey(sink, later);
  });

  test('registration always sends its e-mail: the account has no other way to get a key', async () => {
    const { server, sink } = mailed;
    const email = uniqueEmail('fresh');
    const registered = await server.request('POST', '/auth/register/', { body: { email, password: PASSWORD } });
    assert.equal(registered.status, 201, registered.text);
    await verificationKey(sink, email);
  });
});
