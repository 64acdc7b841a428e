// docs/accounts.md, deleting the account, with other requests of the same account under way: no
// answer is a 500, the account ends up gone, and the notices leave once however many repeats
// of the deletion raced each other. Bursts of concurrent requests, judged by their outcomes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { subscriberHash } from '../../src/mailchimp/mailchimp-client.ts';
import { onPostgres } from '../helpers/database.ts';
import type { TestResponse, TestServer } from '../helpers/server.ts';
import { WAIT_MS } from '../helpers/wait.ts';
import { MailchimpStandIn } from '../mailchimp/mailchimp-stand-in.ts';
import { png, upload } from '../media/media-fixtures.ts';
import { mailsTo, PASSWORD, registerVerified, startMailedServer, waitForMail, type MailedServer } from './account-flows.ts';

const DELETED_SUBJECT = 'Your account has been deleted';

/** Until every outbox message has been delivered (or given up): what was queued has been sent. */
async function outboxDrained(server: TestServer): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  const pending = () => server.server.ctx.db.kysely.selectFrom('outbox').select('id').where('state', '=', 'pending').execute();
  while ((await pending()).length > 0) {
    assert.ok(Date.now() < deadline, 'the outbox did not finish');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function statuses(responses: TestResponse[]): number[] {
  return responses.map((response) => response.status);
}

describe('DELETE /account/ racing other requests of the account', () => {
  const mailchimp = new MailchimpStandIn();
  let mailed: MailedServer;
  before(async () => {
    await mailchimp.listen();
    mailed = await startMailedServer({ MAILCHIMP_API_KEY: 'key-us1', MAILCHIMP_LIST_ID: 'list1', MAILCHIMP_API_URL: mailchimp.url });
  });
  after(async () => {
    await mailed.close();
    await mailchimp.close();
  });

  const remove = (token: string) => mailed.server.request('DELETE', '/account/', { token, body: { password: PASSWORD } });

  async function assertGone(account: { email: string; token: string }): Promise<void> {
    const { server } = mailed;
    assert.equal((await server.request('GET', '/account/profile/', { token: account.token })).status, 401);
    const login = await server.request('POST', '/auth/login/', { body: { username: account.email, password: PASSWORD } });
    assert.equal(login.status, 400, login.text);
  }

  test('repeats sent together: one deletion, one notice, one list deletion; each answered 204 or 401', async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const answers = await Promise.all(Array.from({ length: 8 }, () => remove(account.token)));

    const seen = statuses(answers);
    assert.ok(
      seen.every((status) => status === 204 || status === 401),
      `every repeat answered 204 (raced the deletion) or 401 (came after it): ${seen.join(' ')}`,
    );
    assert.ok(seen.includes(204), `one of them deleted the account: ${seen.join(' ')}`);
    await assertGone(account);
    await waitForMail(sink, account.email, DELETED_SUBJECT);
    await outboxDrained(server);
    assert.equal(mailsTo(sink, account.email, DELETED_SUBJECT).length, 1, 'one "account deleted" e-mail');
    const deletionPath = `/lists/list1/members/${subscriberHash(account.email)}/actions/delete-permanent`;
    assert.equal(mailchimp.requests.filter((r) => r.method === 'POST' && r.path === deletionPath).length, 1, 'one list deletion');
  });

  test("a syncing client's creates and uploads during the deletion: no 5xx, and the account is gone", async () => {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const token = account.token;
    const appUser = (await server.request('POST', '/app/users/', { token, body: { name: 'Me' } })).body;
    const profile = (await server.request('POST', `/app/users/${appUser.id}/profiles/`, { token, body: { name: 'Home' } })).body;
    const topic = (await server.request('POST', `/app/profiles/${profile.id}/topics/`, { token, body: { name: 'T', topic_type: 3 } })).body;
    const write = (i: number): Promise<TestResponse> => {
      switch (i % 4) {
        case 0:
          return server.request('POST', `/app/users/${appUser.id}/profiles/`, { token, body: { name: `P${i}` } });
        case 1:
          return server.request('POST', `/app/topics/${topic.id}/items/`, {
            token,
            body: { name: `L${i}`, list_content: { entries: [{ text: 'a' }, { text: 'b' }] } },
          });
        case 2:
          return server.request('POST', `/app/users/${appUser.id}/emergency-contacts/`, {
            token,
            body: { name: `C${i}`, phone_number: '123456789' },
          });
        default:
          return upload(server, token, appUser.id, { name: `F${i}.png`, file: png(i) });
      }
    };

    const before = Array.from({ length: 12 }, (_, i) => write(i));
    const deletion = remove(token);
    const during = Array.from({ length: 12 }, (_, i) => write(i + 12));
    const deleted = await deletion;
    const writes = await Promise.all([...before, ...during]);

    assert.equal(deleted.status, 204, deleted.text);
    const seen = statuses(writes);
    assert.ok(
      seen.every((status) => status === 201 || status === 401 || status === 404),
      `each write was made before the deletion (201) or refused after it (401, 404): ${seen.join(' ')}`,
    );
    await assertGone(account);
    const held = await server.server.ctx.db.kysely.selectFrom('app_users').select('id').where('account_id', '=', account.id).execute();
    assert.deepEqual(held, []);
    await waitForMail(sink, account.email, DELETED_SUBJECT);
    await outboxDrained(server);
    assert.equal(mailsTo(sink, account.email, DELETED_SUBJECT).length, 1);
  });

  test('PostgreSQL: the deletion waits for a write holding the app user without holding the account row', {
    skip: !onPostgres && 'PostgreSQL only: SQLite runs one write transaction at a time',
  }, async () => {
    const { server } = mailed;
    const db = server.server.ctx.db;
    const account = await registerVerified(mailed);
    const appUser = (await server.request('POST', '/app/users/', { token: account.token, body: { name: 'Me' } })).body;

    // A personal-data write in progress, as owned-write.ts makes it: the app user's data
    // version bumped first, so its row is held until this transaction ends.
    const writer = new pg.Client({ connectionString: server.server.ctx.config.databaseUrl });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query('update app_users set data_version = data_version + 1 where id = $1', [appUser.id]);
      const writerPid = (await writer.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;

      const deletion = remove(account.token);
      // Until the deletion waits for a lock: the one the writer holds.
      for (;;) {
        const { rows } = await sql<{ pid: number }>`
            select pid from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and pid <> ${writerPid}`.execute(db.kysely);
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The write's insert will check its foreign key against the account row (a key-share
      // lock): the waiting deletion must not hold that row, or the two wait on each other.
      await db.kysely.transaction().execute(async (trx) => {
        await sql`select id from accounts where id = ${account.id} for key share nowait`.execute(trx);
      });
      await writer.query("insert into profiles (account_id, app_user_id, name, is_default) values ($1, $2, 'Late', 0)", [
        account.id,
        appUser.id,
      ]);
      await writer.query('commit');

      const answer = await deletion;
      assert.equal(answer.status, 204, answer.text);
      await assertGone(account);
    } finally {
      await writer.end();
    }
  });
});
