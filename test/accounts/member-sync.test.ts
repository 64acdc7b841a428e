// docs/messaging-and-sync.md: the account flows queue a mailing-list upsert on registration, a name change
// and a change of primary address (the member is named by the primary address before it).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { MailchimpStandIn } from '../mailchimp/mailchimp-stand-in.ts';
import { PASSWORD, registerVerified, startMailedServer, uniqueEmail, verificationKey, type MailedServer } from './account-flows.ts';

const md5 = (text: string) => createHash('md5').update(text.toLowerCase()).digest('hex');

describe('mailing-list sync from the account flows', () => {
  let mailchimp: MailchimpStandIn;
  let mailed: MailedServer;
  before(async () => {
    mailchimp = new MailchimpStandIn();
    await mailchimp.listen();
    mailed = await startMailedServer({ MAILCHIMP_API_KEY: 'abc-us6', MAILCHIMP_LIST_ID: 'list42', MAILCHIMP_API_URL: mailchimp.url });
  });
  after(async () => {
    await mailed.close();
    await mailchimp.close();
  });
  beforeEach(() => mailchimp.reset());

  /** Waits for the worker, then returns the requests since the last reset. */
  async function requests(count: number) {
    const received = await mailchimp.waitForRequests(count);
    await mailed.server.server.worker.runOnce();
    return received.map((r) => ({ method: r.method, path: r.path, email: r.body.email_address, names: r.body.merge_fields }));
  }

  test('registration upserts the member; names come along', async () => {
    const email = uniqueEmail('sync');
    await mailed.server.request('POST', '/auth/register/', { body: { email, password: PASSWORD, first_name: 'Ada', last_name: 'L' } });
    assert.deepEqual(await requests(1), [
      { method: 'PUT', path: `/lists/list42/members/${md5(email)}`, email, names: { FNAME: 'Ada', LNAME: 'L' } },
    ]);
  });

  test('a name change syncs; a PATCH that changes nothing does not', async () => {
    const account = await registerVerified(mailed);
    await requests(1);
    mailchimp.reset();
    await mailed.server.request('PATCH', '/account/profile/', { token: account.token, body: { first_name: 'Grace' } });
    const [request] = await requests(1);
    assert.equal(request!.path, `/lists/list42/members/${md5(account.email)}`);
    assert.deepEqual(request!.names, { FNAME: 'Grace', LNAME: '' });
    mailchimp.reset();
    await mailed.server.request('PATCH', '/account/profile/', { token: account.token, body: { first_name: 'Grace' } });
    await mailed.server.request('PATCH', '/account/profile/', { token: account.token, body: { last_name: 'Hopper' } });
    const after = await requests(1);
    assert.equal(after.length, 1, 'only the real change was synced');
    assert.deepEqual(after[0]!.names, { FNAME: 'Grace', LNAME: 'Hopper' });
  });

  test('a primary change (PATCH, or verification action 2) renames the member from the old address', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const second = uniqueEmail('second');
    const added = await server.request('POST', '/account/emails/', { token: account.token, body: { email: second } });
    await server.request('POST', '/account/verify-email/', { body: { key: await verificationKey(sink, second), password: PASSWORD } });
    await requests(1);
    mailchimp.reset();
    await server.request('PATCH', `/account/emails/${added.body.id}/`, { token: account.token, body: { primary: true } });
    const [moved] = await requests(1);
    assert.equal(moved!.path, `/lists/list42/members/${md5(account.email)}`);
    assert.equal(moved!.email, second);

    mailchimp.reset();
    const third = uniqueEmail('third');
    await server.request('POST', '/account/emails/', { token: account.token, body: { email: third, verified_action: 2 } });
    await server.request('POST', '/account/verify-email/', { body: { key: await verificationKey(sink, third), password: PASSWORD } });
    const [replaced] = await requests(1);
    assert.equal(replaced!.path, `/lists/list42/members/${md5(second)}`);
    assert.equal(replaced!.email, third);
  });
});
