// docs/operators.md across instances: an operator disables an account through one instance, and
// its token is refused by another from the next request, its sign-ins too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ACCOUNT_DISABLED as ACCOUNT_DISABLED_KEY } from '../../src/accounts/sessions/sign-in-token.ts';
import { PASSWORD, registerVerified, startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';
import { registerOperator } from '../admin/admin-flows.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { english } from '../helpers/english.ts';

const ACCOUNT_DISABLED = english(ACCOUNT_DISABLED_KEY);

const skip = !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)';

describe('operators on two instances of one PostgreSQL database', { skip }, () => {
  let first: MailedServer;
  let second: TestServer;
  before(async () => {
    first = await startMailedServer();
    second = await startTestServer({ DATABASE_URL: first.server.server.ctx.config.databaseUrl, SMTP_URL: first.sink.url });
  });
  after(async () => {
    await second.close();
    await first.close();
  });

  test('disabled on A: the token is refused on B at once, and so is signing in there', async () => {
    const operator = await registerOperator(first);
    const person = await registerVerified(first, uniqueEmail('person'));
    assert.equal((await second.request('GET', '/account/profile/', { token: person.token })).status, 200);
    const disabled = await first.server.request('POST', `/admin/accounts/${person.id}/disable/`, { token: operator.token, body: {} });
    assert.equal(disabled.status, 200, disabled.text);
    assert.equal((await second.request('GET', '/account/profile/', { token: person.token })).status, 401);
    const login = await second.request('POST', '/auth/login/', { body: { username: person.email, password: PASSWORD } });
    assert.deepEqual([login.status, login.body], [400, { non_field_errors: [ACCOUNT_DISABLED] }]);
    // And the operators' API itself is the same on B.
    const seen = await second.request('GET', `/admin/accounts/${person.id}/`, { token: operator.token });
    assert.equal(seen.body.disabled, true);
  });
});
