import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, afterEach, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { OutboxTable } from '../../src/db/schema.ts';
import { queueMemberSync, type MemberSync } from '../../src/mailchimp/queue-member-sync.ts';
import { createAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { MailchimpStandIn, type CannedAnswer } from './mailchimp-stand-in.ts';
import { WAIT_MS } from '../helpers/wait.ts';

const API_KEY = 'abc-us6';
const LIST_ID = 'list42';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Queues a sync job the way the account endpoints do: inside a transaction, waking the worker after commit. */
let nextAccountId = 1_000_000;

async function queueSync(server: TestServer, member: MemberSync, accountId = nextAccountId++): Promise<number> {
  const ctx = server.server.ctx;
  const id = await ctx.db.kysely.transaction().execute(async (trx) => {
    await queueMemberSync(ctx, trx, accountId, member);
    const row = await trx.selectFrom('outbox').select('id').where('kind', '=', 'mailchimp').orderBy('id', 'desc').executeTakeFirst();
    return row?.id ?? 0;
  });
  ctx.outbox.wake();
  return id;
}

type OutboxRow = Pick<OutboxTable, 'state' | 'attempts' | 'last_error' | 'payload'>;

async function outboxRow(server: TestServer, id: number): Promise<OutboxRow> {
  return server.server.ctx.db.kysely
    .selectFrom('outbox')
    .select(['state', 'attempts', 'last_error', 'payload'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow() as Promise<OutboxRow>;
}

async function waitForRow(server: TestServer, id: number, done: (row: OutboxRow) => boolean): Promise<OutboxRow> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await outboxRow(server, id);
    if (done(row)) return row;
    if (Date.now() > deadline) throw new Error(`outbox row ${id} did not reach the expected state: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Mailchimp configuration', () => {
  const base = { DATABASE_URL: 'sqlite:unused.db', MAILCHIMP_LIST_ID: LIST_ID };

  test("the API base comes from the key's data-centre suffix", () => {
    assert.equal(loadConfig({ ...base, MAILCHIMP_API_KEY: 'abc-us6' }).mailchimp?.apiUrl, 'https://us6.api.mailchimp.com/3.0');
    assert.equal(
      loadConfig({ ...base, MAILCHIMP_API_KEY: '0123456789abcdef0123456789abcdef-us21' }).mailchimp?.apiUrl,
      'https://us21.api.mailchimp.com/3.0',
    );
  });

  test('MAILCHIMP_API_URL overrides it (trailing slash dropped)', () => {
    const config = loadConfig({ ...base, MAILCHIMP_API_KEY: 'abc-us6', MAILCHIMP_API_URL: 'http://127.0.0.1:9999/3.0/' });
    assert.deepEqual(config.mailchimp, { apiKey: 'abc-us6', listId: LIST_ID, apiUrl: 'http://127.0.0.1:9999/3.0' });
  });

  test('sync is off unless both the key and the list are set; one without the other stops start-up', () => {
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite:unused.db' }).mailchimp, undefined);
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite:unused.db', MAILCHIMP_API_URL: 'http://127.0.0.1:1' }).mailchimp, undefined);
    assert.throws(
      () => loadConfig({ MAILCHIMP_API_KEY: 'abc-us6' }),
      (error: Error) => error instanceof ConfigError && /MAILCHIMP_LIST_ID/.test(error.message),
    );
    assert.throws(
      () => loadConfig({ MAILCHIMP_LIST_ID: LIST_ID }),
      (error: Error) => error instanceof ConfigError && /MAILCHIMP_API_KEY/.test(error.message),
    );
  });

  test('a key without a data centre needs MAILCHIMP_API_URL', () => {
    assert.throws(
      () => loadConfig({ ...base, MAILCHIMP_API_KEY: 'abcdef' }),
      (error: Error) => error instanceof ConfigError && /MAILCHIMP_API_KEY/.test(error.message),
    );
    assert.equal(
      loadConfig({ ...base, MAILCHIMP_API_KEY: 'abcdef', MAILCHIMP_API_URL: 'https://mc.example/3.0' }).mailchimp?.apiUrl,
      'https://mc.example/3.0',
    );
  });
});

describe('Mailchimp sync delivery', () => {
  const standIn = new MailchimpStandIn();
  let server: TestServer;

  before(async () => {
    await standIn.listen();
    server = await startTestServer({ MAILCHIMP_API_KEY: API_KEY, MAILCHIMP_LIST_ID: LIST_ID, MAILCHIMP_API_URL: standIn.url });
  });
  afterEach(() => standIn.reset());
  after(async () => {
    await server.close();
    await standIn.close();
  });

  test('a new member: PUT /lists/{list}/members/{md5 of the lower-cased address} with basic auth and the member', async () => {
    const id = await queueSync(server, {
      previousEmail: 'Ada.Lovelace@Example.COM',
      email: 'Ada.Lovelace@Example.COM',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    assert.ok(id > 0, 'a job is queued');
    const [request] = await standIn.waitForRequests(1);
    assert.equal(request!.method, 'PUT');
    assert.equal(request!.path, `/lists/${LIST_ID}/members/${md5('ada.lovelace@example.com')}`);
    assert.equal(request!.headers.authorization, `Basic ${Buffer.from(`anystring:${API_KEY}`).toString('base64')}`);
    assert.match(request!.headers['content-type'] ?? '', /^application\/json/);
    assert.deepEqual(request!.body, {
      email_address: 'Ada.Lovelace@Example.COM',
      status_if_new: 'subscribed',
      merge_fields: { FNAME: 'Ada', LNAME: 'Lovelace' },
    });
    const row = await waitForRow(server, id, (r) => r.state === 'sent');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, null);
    assert.equal(standIn.requests.length, 1);
  });

  test('a new primary address updates the member known by the previous address (moved, not duplicated)', async () => {
    const id = await queueSync(server, {
      previousEmail: 'Old@Example.com',
      email: 'new@example.org',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    const [request] = await standIn.waitForRequests(1);
    assert.equal(request!.path, `/lists/${LIST_ID}/members/${md5('old@example.com')}`);
    assert.notEqual(request!.path, `/lists/${LIST_ID}/members/${md5('new@example.org')}`);
    assert.equal(request!.body.email_address, 'new@example.org');
    assert.deepEqual(request!.body.merge_fields, { FNAME: 'Grace', LNAME: 'Hopper' });
    await waitForRow(server, id, (r) => r.state === 'sent');
  });

  const outages: Array<[string, CannedAnswer]> = [
    ['500', { status: 500, body: { title: 'Internal Server Error', detail: 'Try again.' } }],
    ['503', { status: 503 }],
    ['429', { status: 429, body: { title: 'Too Many Requests', detail: 'Slow down.' } }],
    ['a dropped connection', 'drop'],
  ];
  for (const [what, answer] of outages) {
    test(`after ${what} the job is kept, retried after the back-off, and delivered once`, async () => {
      standIn.answerNext(answer);
      const member = { previousEmail: 'retry@example.com', email: 'retry@example.com', firstName: 'Re', lastName: 'Try' };
      const id = await queueSync(server, member);
      await standIn.waitForRequests(1);
      const failed = await waitForRow(server, id, (r) => r.last_error !== null);
      assert.equal(failed.state, 'pending');
      assert.equal(failed.attempts, 1);
      if (typeof answer === 'object') assert.match(failed.last_error!, new RegExp(`Mailchimp answered ${answer.status}`));
      else assert.match(failed.last_error!, /Mailchimp request failed/);

      // Not due before the back-off has passed (the worker runs on the test's clock).
      await server.server.worker.runOnce();
      assert.equal(standIn.requests.length, 1);

      server.clock.advance(60_000);
      server.server.worker.wake();
      const requests = await standIn.waitForRequests(2);
      const sent = await waitForRow(server, id, (r) => r.state === 'sent');
      assert.equal(sent.attempts, 2);
      assert.equal(sent.last_error, null);
      assert.deepEqual(requests[1]!.body, requests[0]!.body, 'the same member is sent again');
      assert.equal(requests[1]!.path, requests[0]!.path);

      server.clock.advance(3_600_000);
      await server.server.worker.runOnce();
      assert.equal(standIn.requests.length, 2, 'delivered once: nothing more after success');
    });
  }

  test("one account's jobs go out in order: a later job waits while an earlier one is retried", async () => {
    const accountId = nextAccountId++;
    standIn.answerNext({ status: 503 });
    const move = await queueSync(
      server,
      { previousEmail: 'first@example.com', email: 'second@example.com', firstName: 'Or', lastName: 'Der' },
      accountId,
    );
    const rename = await queueSync(
      server,
      { previousEmail: 'second@example.com', email: 'second@example.com', firstName: 'Renamed', lastName: 'Der' },
      accountId,
    );
    const other = await queueSync(server, {
      previousEmail: 'someone@example.com',
      email: 'someone@example.com',
      firstName: 'Some',
      lastName: 'One',
    });
    await waitForRow(server, move, (r) => r.last_error !== null);
    await waitForRow(server, other, (r) => r.state === 'sent');
    // The move failed once and waits for its back-off; the rename must not overtake it.
    await server.server.worker.runOnce();
    assert.equal((await outboxRow(server, rename)).state, 'pending');
    assert.equal((await outboxRow(server, rename)).attempts, 0);

    server.clock.advance(60_000);
    server.server.worker.wake();
    await waitForRow(server, move, (r) => r.state === 'sent');
    await waitForRow(server, rename, (r) => r.state === 'sent');
    const paths = standIn.requests.filter((r) => r.body.last_name === 'Der' || r.body.merge_fields?.LNAME === 'Der').map((r) => r.path);
    const [firstHash, secondHash] = [md5('first@example.com'), md5('second@example.com')];
    assert.deepEqual(
      paths.map((p) => p.split('/').pop()),
      [firstHash, firstHash, secondHash],
      'the move (failed, then retried) before the rename',
    );
  });

  const refusals: Array<[number, string, string]> = [
    [400, 'Invalid Resource', 'taken@example.com is already a list member.'],
    [401, 'API Key Invalid', "Your API key may be invalid, or you've attempted to access the wrong datacenter."],
    [404, 'Resource Not Found', 'The requested resource could not be found.'],
  ];
  for (const [status, title, detail] of refusals) {
    test(`a ${status} is recorded as failed with the API's title and detail, and not retried`, async () => {
      standIn.answerNext({
        status,
        body: { type: 'https://mailchimp.com/developer/marketing/docs/errors/', title, status, detail, instance: 'x' },
      });
      const id = await queueSync(server, { previousEmail: 'me@example.com', email: 'taken@example.com', firstName: 'A', lastName: 'B' });
      const row = await waitForRow(server, id, (r) => r.state !== 'pending');
      assert.equal(row.state, 'failed');
      assert.equal(row.attempts, 1);
      assert.equal(row.last_error, `Mailchimp answered ${status}: ${title}: ${detail}`);

      server.clock.advance(24 * 3_600_000);
      await server.server.worker.runOnce();
      assert.equal(standIn.requests.length, 1);
      assert.equal((await outboxRow(server, id)).state, 'failed');
    });
  }

  test('a job queued in a transaction that rolls back is never sent', async () => {
    const ctx = server.server.ctx;
    const before = await ctx.db.kysely
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await assert.rejects(
      ctx.db.kysely.transaction().execute(async (trx) => {
        await queueMemberSync(ctx, trx, 999_999, {
          previousEmail: 'gone@example.com',
          email: 'gone@example.com',
          firstName: 'G',
          lastName: 'H',
        });
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    ctx.outbox.wake();
    const afterCount = await ctx.db.kysely
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(afterCount.n), Number(before.n));
    server.clock.advance(3_600_000);
    await server.server.worker.runOnce();
    assert.ok(!standIn.requests.some((r) => r.body.email_address === 'gone@example.com'));
  });
});

describe('Mailchimp sync through the account endpoints', () => {
  const standIn = new MailchimpStandIn();
  let server: TestServer;

  before(async () => {
    await standIn.listen();
    server = await startTestServer({ MAILCHIMP_API_KEY: API_KEY, MAILCHIMP_LIST_ID: LIST_ID, MAILCHIMP_API_URL: standIn.url });
  });
  after(async () => {
    await server.close();
    await standIn.close();
  });

  async function latestSyncRow(): Promise<number> {
    const row = await server.server.ctx.db.kysely
      .selectFrom('outbox')
      .select('id')
      .where('kind', '=', 'mailchimp')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  test('registration upserts the new member; an API outage does not fail the registration', async () => {
    const email = 'Sync.Me@Example.com';
    standIn.answerNext({ status: 503 });
    const registered = await server.request('POST', '/auth/register/', {
      body: { email, password: 'a long and unusual passphrase 7', first_name: 'Sync', last_name: 'Me' },
    });
    assert.equal(registered.status, 201, registered.text);
    const [first] = await standIn.waitForRequests(1);
    assert.equal(first!.method, 'PUT');
    assert.equal(first!.path, `/lists/${LIST_ID}/members/${md5('sync.me@example.com')}`);
    assert.deepEqual(first!.body, { email_address: email, status_if_new: 'subscribed', merge_fields: { FNAME: 'Sync', LNAME: 'Me' } });

    const id = await latestSyncRow();
    await waitForRow(server, id, (r) => r.last_error !== null);
    server.clock.advance(60_000);
    server.server.worker.wake();
    await waitForRow(server, id, (r) => r.state === 'sent');
    assert.equal(standIn.requests.length, 2);
    standIn.reset();
  });

  test('a name change upserts the member with the new names; a PATCH that changes nothing sends nothing', async () => {
    const account = await createAccount(server, { email: 'names@example.com', firstName: 'Old', lastName: 'Name' });
    const patched = await server.request('PATCH', '/account/profile/', { token: account.token, body: { first_name: 'New' } });
    assert.equal(patched.status, 200, patched.text);
    const [request] = await standIn.waitForRequests(1);
    assert.equal(request!.path, `/lists/${LIST_ID}/members/${md5('names@example.com')}`);
    assert.deepEqual(request!.body, {
      email_address: 'names@example.com',
      status_if_new: 'subscribed',
      merge_fields: { FNAME: 'New', LNAME: 'Name' },
    });
    await waitForRow(server, await latestSyncRow(), (r) => r.state === 'sent');

    const rowsBefore = await server.server.ctx.db.kysely.selectFrom('outbox').select('id').where('kind', '=', 'mailchimp').execute();
    const unchanged = await server.request('PATCH', '/account/profile/', { token: account.token, body: { first_name: 'New' } });
    assert.equal(unchanged.status, 200);
    const rowsAfter = await server.server.ctx.db.kysely.selectFrom('outbox').select('id').where('kind', '=', 'mailchimp').execute();
    assert.equal(rowsAfter.length, rowsBefore.length);
    standIn.reset();
  });

  test('making another verified address primary moves the member from the old address to the new one', async () => {
    const account = await createAccount(server, { email: 'First@Example.com', firstName: 'Mo', lastName: 'Ving' });
    const db = server.server.ctx.db.kysely;
    const second = await db
      .insertInto('email_addresses')
      .values({
        account_id: account.id,
        email: 'second@example.com',
        email_lower: 'second@example.com',
        verified: 1,
        is_primary: 0,
        verified_action: 1,
        created_at: server.clock.now(),
        last_key_sent_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const patched = await server.request('PATCH', `/account/emails/${second.id}/`, { token: account.token, body: { primary: true } });
    assert.equal(patched.status, 200, patched.text);
    const [request] = await standIn.waitForRequests(1);
    assert.equal(request!.path, `/lists/${LIST_ID}/members/${md5('first@example.com')}`);
    assert.deepEqual(request!.body, {
      email_address: 'second@example.com',
      status_if_new: 'subscribed',
      merge_fields: { FNAME: 'Mo', LNAME: 'Ving' },
    });
    await waitForRow(server, await latestSyncRow(), (r) => r.state === 'sent');
    standIn.reset();
  });
});

describe('Mailchimp sync off', () => {
  const standIn = new MailchimpStandIn();
  let server: TestServer;

  before(async () => {
    await standIn.listen();
    // Only the URL: without key and list, sync is off.
    server = await startTestServer({ MAILCHIMP_API_URL: standIn.url });
  });
  after(async () => {
    await server.close();
    await standIn.close();
  });

  test('no outbox row and no request', async () => {
    assert.equal(server.server.ctx.config.mailchimp, undefined);
    const id = await queueSync(server, { previousEmail: 'off@example.com', email: 'off@example.com', firstName: 'O', lastName: 'F' });
    assert.equal(id, 0);
    const rows = await server.server.ctx.db.kysely.selectFrom('outbox').select('id').where('kind', '=', 'mailchimp').execute();
    assert.deepEqual(rows, []);
    await server.server.worker.runOnce();
    assert.equal(standIn.requests.length, 0);
  });

  test('a sync job left from when sync was on is marked failed, not sent', async () => {
    const ctx = server.server.ctx;
    await ctx.outbox.enqueue(
      ctx.db.kysely,
      'mailchimp',
      { previousEmail: 'x@example.com', email: 'x@example.com', firstName: 'X', lastName: 'Y' },
      ctx.clock.now(),
    );
    const row = await ctx.db.kysely.selectFrom('outbox').select('id').where('kind', '=', 'mailchimp').executeTakeFirstOrThrow();
    ctx.outbox.wake();
    const failed = await waitForRow(server, row.id, (r) => r.state !== 'pending');
    assert.equal(failed.state, 'failed');
    assert.match(failed.last_error ?? '', /no handler/);
    assert.equal(standIn.requests.length, 0);
  });
});
