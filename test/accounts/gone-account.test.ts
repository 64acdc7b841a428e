// Requests acting for an account that is deleted while they run (docs/api-conventions.md, docs/accounts.md): each is
// answered as its flow answers an account that is not there, never 500. A login: the 400 of
// wrong credentials; an authenticated request: 401, as for a dead token; a reset request: the
// answer every address gets. Bursts beside DELETE /account/ on both databases, and on
// PostgreSQL the exact interleaving, made by holding the account row while it is deleted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { INVALID_CREDENTIALS as INVALID_CREDENTIALS_KEY } from '../../src/accounts/login/login-service.ts';
import { INVALID_TOKEN as INVALID_TOKEN_KEY } from '../../src/auth/token-auth.ts';
import { onPostgres } from '../helpers/database.ts';
import type { TestResponse } from '../helpers/server.ts';
import { PASSWORD, registerVerified, startMailedServer, type MailedServer } from './account-flows.ts';
import { english } from '../helpers/english.ts';

const INVALID_CREDENTIALS = english(INVALID_CREDENTIALS_KEY);
const INVALID_TOKEN = english(INVALID_TOKEN_KEY);

function describeAll(responses: TestResponse[]): string {
  return responses.map((response) => `${response.status} ${response.text}`).join('\n');
}

describe('requests for an account deleted while they run', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  const remove = (token: string) => mailed.server.request('DELETE', '/account/', { token, body: { password: PASSWORD } });
  const logIn = (email: string) => mailed.server.request('POST', '/auth/login/', { body: { username: email, password: PASSWORD } });
  const enrol = (token: string) => mailed.server.request('POST', '/account/mfa/totp/', { token, body: { password: PASSWORD } });
  const requestReset = (email: string) => mailed.server.request('POST', '/account/reset-password/', { body: { email } });

  function isDeadToken(response: TestResponse): boolean {
    return response.status === 401 && response.body?.detail === INVALID_TOKEN && response.headers.get('www-authenticate') === 'Token';
  }

  test("logins beside the account's deletion: a token, or the 400 of wrong credentials", async () => {
    const account = await registerVerified(mailed);
    // The deletion first: the logins find the address while it hashes the password, and most
    // issue their token after it committed.
    const deletion = remove(account.token);
    const logins = await Promise.all(Array.from({ length: 8 }, () => logIn(account.email)));
    assert.equal((await deletion).status, 204);
    for (const login of logins) {
      const refused = login.status === 400 && JSON.stringify(login.body) === JSON.stringify({ non_field_errors: [INVALID_CREDENTIALS] });
      assert.ok(login.status === 200 || refused, describeAll(logins));
    }
    for (const login of logins.filter((answer) => answer.status === 200)) {
      assert.ok(isDeadToken(await mailed.server.request('GET', '/account/profile/', { token: login.body.token })));
    }
  });

  test("two-step enrolments beside the account's deletion: 201, or 401 as for a dead token", async () => {
    const account = await registerVerified(mailed);
    const deletion = remove(account.token);
    const enrolments = await Promise.all(Array.from({ length: 8 }, () => enrol(account.token)));
    assert.equal((await deletion).status, 204);
    // 404: an enrolment that read the account after its deletion (it looks the account up first).
    assert.ok(
      enrolments.every((answer) => answer.status === 201 || answer.status === 404 || isDeadToken(answer)),
      describeAll(enrolments),
    );
  });

  describe('PostgreSQL: waiting for the account row while it is deleted', { skip: !onPostgres && 'PostgreSQL only' }, () => {
    /** Holds the account's row, runs `request` until it waits for it, deletes the account, and lets the request go on. */
    async function deletedUnder(accountId: number, request: () => Promise<TestResponse>): Promise<TestResponse> {
      const { server } = mailed;
      const holder = new pg.Client({ connectionString: server.server.ctx.config.databaseUrl });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select id from accounts where id = $1 for update', [accountId]);
        const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        const answer = request();
        for (;;) {
          const { rows } = await holder.query(
            `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> $1`,
            [holderPid],
          );
          if (rows.length > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await holder.query('delete from accounts where id = $1', [accountId]);
        await holder.query('commit');
        return await answer;
      } finally {
        await holder.end();
      }
    }

    test('a two-step enrolment: 401 as for a dead token', async () => {
      const account = await registerVerified(mailed);
      const answer = await deletedUnder(account.id, () => enrol(account.token));
      assert.ok(isDeadToken(answer), `${answer.status} ${answer.text}`);
    });

    test('a password reset request: the answer every address gets', async () => {
      const account = await registerVerified(mailed);
      const answer = await deletedUnder(account.id, () => requestReset(account.email));
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.body, { email: account.email });
    });
  });
});
