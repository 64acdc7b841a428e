// docs/accounts.md, deleting the account: the password, then nothing of the account is left in any
// table — every table the database's own catalogue lists, so a table added later is checked
// too — its media files leave storage, its tokens and file links stop working, a last notice
// reaches its primary address, and its addresses can register again at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { WRONG_PASSWORD as WRONG_PASSWORD_KEY } from '../../src/auth/password-check-throttle.ts';
import { subscriberHash } from '../../src/mailchimp/mailchimp-client.ts';
import { MailchimpStandIn } from '../mailchimp/mailchimp-stand-in.ts';
import { freshCode, turnOnTotp } from './mfa-flows.ts';
import { download, png, storedFiles, upload } from '../media/media-fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import {
  PASSWORD,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  waitForMail,
  type MailedServer,
  type RegisteredAccount,
} from './account-flows.ts';
import { english } from '../helpers/english.ts';

const WRONG_PASSWORD = english(WRONG_PASSWORD_KEY);

const DELETED_SUBJECT = 'Your account has been deleted';

/** Every table of the schema, from the database's own catalogue. */
async function allTables(server: TestServer): Promise<string[]> {
  const db = server.server.ctx.db;
  const query =
    db.dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
  return (await query.execute(db.kysely)).rows.map((row) => row.name).sort();
}

/** The columns that name an account: account_id, *_account_id, and an accessor's user_with_access_id. */
const ACCOUNT_COLUMNS = /^(?:\w+_)?account_id$|^user_with_access_id$/;

/** Rows of any table that refer to the account (a column of ACCOUNT_COLUMNS, or accounts.id) or hold one of its addresses. */
async function traces(server: TestServer, accountId: number, addresses: string[]): Promise<string[]> {
  const found: string[] = [];
  const lowered = addresses.map((address) => address.toLowerCase());
  for (const table of await allTables(server)) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(server.server.ctx.db.kysely)).rows;
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        const refers = (ACCOUNT_COLUMNS.test(column) || (table === 'accounts' && column === 'id')) && Number(value) === accountId;
        const holds = typeof value === 'string' && lowered.some((address) => value.toLowerCase().includes(address));
        if (refers || holds) found.push(`${table}.${column}: ${String(value).slice(0, 120)}`);
      }
    }
  }
  return found;
}

describe('DELETE /account/', () => {
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

  const remove = (token: string, body: unknown) => mailed.server.request('DELETE', '/account/', { token, body });

  /**
   * An account holding a second address, a second session, a personal-data tree, two media
   * files, an emergency link that was opened, and MFA on (secret, recovery codes, a login
   * waiting for its code).
   */
  async function fullAccount(): Promise<{
    account: RegisteredAccount;
    second: string;
    otherToken: string;
    fileUrls: string[];
    secret: string;
  }> {
    const { server, sink } = mailed;
    const account = await registerVerified(mailed);
    const second = uniqueEmail('second');
    const added = await server.request('POST', '/account/emails/', { token: account.token, body: { email: second } });
    assert.equal(added.status, 201, added.text);
    const key = await verificationKey(sink, second);
    assert.equal((await server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } })).status, 200);
    const login = await server.request('POST', '/auth/login/', { body: { username: second, password: PASSWORD } });
    const appUser = (await server.request('POST', '/app/users/', { token: account.token, body: { name: 'Me' } })).body;
    const fileUrls: string[] = [];
    for (const name of ['one.png', 'two.png']) {
      const media = await upload(server, account.token, appUser.id, { name, file: png() });
      assert.equal(media.status, 201, media.text);
      fileUrls.push(media.body.file);
    }
    const profile = (await server.request('POST', `/app/users/${appUser.id}/profiles/`, { token: account.token, body: { name: 'Home' } }))
      .body;
    const topic = (
      await server.request('POST', `/app/profiles/${profile.id}/topics/`, { token: account.token, body: { name: 'T', topic_type: 3 } })
    ).body;
    const item = await server.request('POST', `/app/topics/${topic.id}/items/`, {
      token: account.token,
      body: { name: 'L', list_content: { entries: [{ text: `mail ${account.email}` }] } },
    });
    assert.equal(item.status, 201, item.text);
    await server.request('POST', `/app/users/${appUser.id}/emergency-contacts/`, {
      token: account.token,
      body: { name: 'Me again', phone_number: '123456789', email: account.email },
    });
    // An emergency link, opened once: a link row and a view row of the account.
    const link = await server.request('POST', `/app/users/${appUser.id}/emergency-links/`, { token: account.token, body: {} });
    assert.equal(link.status, 201, link.text);
    assert.equal((await server.request('GET', new URL(link.body.link).pathname.replace('/emergency/', '/public/emergency/'))).status, 200);
    const { secret } = await turnOnTotp(server, account);
    const pending = await server.request('POST', '/auth/login/', { body: { username: second, password: PASSWORD } });
    assert.equal(pending.body.mfa_required, true);
    return { account, second, otherToken: login.body.token, fileUrls, secret };
  }

  test('a wrong or missing password: 400 under password, and nothing is deleted', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const wrong = await remove(account.token, { password: 'not-the-password-1' });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, { password: [WRONG_PASSWORD] });
    const missing = await remove(account.token, {});
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.body), ['password']);
    assert.equal((await server.request('GET', '/account/profile/', { token: account.token })).status, 200);
    assert.equal((await remove('', { password: PASSWORD })).status, 401);
  });

  test('204; nothing of the account is left in any table; tokens and file links stop working; files leave storage; a last notice', async () => {
    const { server, sink } = mailed;
    const { account, second, otherToken, fileUrls, secret } = await fullAccount();
    const stranger = await registerVerified(mailed);
    const filesBefore = await storedFiles(server);
    assert.ok(filesBefore.length >= 2);
    for (const url of fileUrls) assert.equal((await download(server, url)).status, 200);

    const before = new Set((await traces(server, account.id, [account.email, second])).map((trace) => trace.split(':')[0]));
    for (const column of [
      'totp_secrets.account_id',
      'recovery_codes.account_id',
      'mfa_challenges.account_id',
      'media_resources.account_id',
    ]) {
      assert.ok(before.has(column), `the account has rows to delete in ${column}`);
    }

    const response = await remove(account.token, { password: PASSWORD, code: freshCode(server, secret) });
    assert.equal(response.status, 204, response.text);

    for (const token of [account.token, otherToken]) assert.equal((await server.request('GET', '/auth/sessions/', { token })).status, 401);
    for (const url of fileUrls) assert.equal((await download(server, url)).status, 404);
    const notice = await waitForMail(sink, account.email, DELETED_SUBJECT);
    assert.match(notice.decoded, /everything it held/);
    const deletionPath = `/lists/list1/members/${subscriberHash(account.email)}/actions/delete-permanent`;
    const isDeletion = (r: { method: string; path: string }) => r.method === 'POST' && r.path === deletionPath;
    while (!mailchimp.requests.some(isDeletion)) await mailchimp.waitForRequests(mailchimp.requests.length + 1);
    // The outbox delivers the file removal, the notice and the list deletion: wait until it has.
    const deadline = Date.now() + 15_000;
    while (
      (await server.server.ctx.db.kysely.selectFrom('outbox').select('id').where('state', '=', 'pending').execute()).length > 0 ||
      (await storedFiles(server)).some((file) => filesBefore.slice(0, 2).includes(file))
    ) {
      assert.ok(Date.now() < deadline, 'the outbox did not finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const tables = await allTables(server);
    const expected = ['accounts', 'email_addresses', 'auth_tokens', 'app_users', 'media_resources', 'outbox', 'email_sends'];
    for (const table of [...expected, 'totp_secrets', 'recovery_codes', 'mfa_challenges']) {
      assert.ok(tables.includes(table), `${table} is in the catalogue: ${tables.join(', ')}`);
    }
    assert.deepEqual(await traces(server, account.id, [account.email, second]), []);
    // The stranger is untouched.
    assert.equal((await server.request('GET', '/account/profile/', { token: stranger.token })).status, 200);
    assert.ok((await traces(server, stranger.id, [stranger.email])).length > 0, 'the check finds what is there');

    // Both addresses can register again at once.
    for (const email of [account.email, second]) {
      const again = await server.request('POST', '/auth/register/', { body: { email, password: PASSWORD } });
      assert.equal(again.status, 201, again.text);
    }
  });

  test('a large account (its entries go in batches first): a wrong code removes nothing, the right one everything', async () => {
    const { server, sink } = mailed;
    const { account, secret, second } = await fullAccount();
    const [topic] = await server.server.ctx.db.kysely.selectFrom('topics').select('id').where('account_id', '=', account.id).execute();
    const entries = Array.from({ length: 1000 }, (_, i) => ({ text: `entry ${i}` }));
    for (let i = 0; i < 6; i++) {
      const created = await server.request('POST', `/app/topics/${topic!.id}/items/`, {
        token: account.token,
        body: { name: `L${i}`, list_content: { entries } },
      });
      assert.equal(created.status, 201, created.text);
    }
    const held = () => server.server.ctx.db.kysely.selectFrom('list_entries').select('id').where('account_id', '=', account.id).execute();
    assert.equal((await held()).length, 6001);

    const wrong = await remove(account.token, { password: PASSWORD, code: '000000' });
    assert.equal(wrong.status, 400, wrong.text);
    assert.deepEqual(Object.keys(wrong.body), ['code']);
    assert.equal((await held()).length, 6001);

    const response = await remove(account.token, { password: PASSWORD, code: freshCode(server, secret) });
    assert.equal(response.status, 204, response.text);
    await waitForMail(sink, account.email, DELETED_SUBJECT);
    for (const table of ['list_entries', 'items', 'topics', 'app_users', 'accounts'] as const) {
      const column = table === 'accounts' ? 'id' : 'account_id';
      const rows = await sql`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${account.id}`.execute(
        server.server.ctx.db.kysely,
      );
      assert.equal(Number((rows.rows[0] as { n: unknown }).n), 0, table);
    }
    const again = await server.request('POST', '/auth/register/', { body: { email: second, password: PASSWORD } });
    assert.equal(again.status, 201, again.text);
  });

  test("wrong passwords count with change-password's per account: after the limit, 429 even with the right one", async () => {
    const limited = await startMailedServer({
      RATE_LIMITS: 'on',
      RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT: '2/1h',
      RATE_LIMIT_REGISTER: '100/1h',
    });
    try {
      const account = await registerVerified(limited);
      const del = (password: string) => limited.server.request('DELETE', '/account/', { token: account.token, body: { password } });
      const change = await limited.server.request('POST', '/account/change-password/', {
        token: account.token,
        body: { old_password: 'wrong-password-9', new_password: 'amber-falcon-88-river' },
      });
      assert.equal(change.status, 400);
      assert.equal((await del('wrong-password-9')).status, 400);
      const blocked = await del(PASSWORD);
      assert.equal(blocked.status, 429);
      assert.match(blocked.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.equal((await limited.server.request('GET', '/account/profile/', { token: account.token })).status, 200);
    } finally {
      await limited.close();
    }
  });
});
