// The token check under concurrency: on PostgreSQL the lookups of requests arriving together
// go out as one query, on SQLite found tokens are kept in memory; either way each request must
// get its own caller, and a revoked or unknown token none.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('token check', () => {
  let server: TestServer;
  let accounts: TestAccount[];

  before(async () => {
    server = await startTestServer({ OUTBOX_POLL_INTERVAL: '1h' });
    accounts = [];
    for (let i = 0; i < 8; i++) accounts.push(await createAccount(server, { firstName: `Caller${i}` }));
  });
  after(() => server.close());

  const whoAmI = (token: string) => server.request('GET', '/account/profile/', { token });

  test('concurrent requests with different tokens each get their own caller; revoked and unknown tokens get 401', async () => {
    const revoked = accounts.slice(6);
    for (const account of revoked) {
      assert.equal((await whoAmI(account.token)).status, 200);
      assert.equal((await server.request('POST', '/auth/logout/', { token: account.token })).status, 204);
    }
    const unknown = 'a'.repeat(43);
    for (let round = 0; round < 5; round++) {
      const tokens = [...accounts, ...accounts].map((account) => account.token).concat(unknown);
      // Shuffled, so that each round sends them in another order.
      tokens.sort(() => Math.random() - 0.5);
      const responses = await Promise.all(tokens.map(async (token) => ({ token, response: await whoAmI(token) })));
      for (const { token, response } of responses) {
        const account = accounts.find((candidate) => candidate.token === token);
        if (!account || revoked.includes(account)) {
          assert.equal(response.status, 401, `round ${round}`);
          continue;
        }
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body.id, account.id);
        assert.equal(response.body.first_name, account.firstName);
      }
    }
  });

  test('the same token twice in one burst: both answered', async () => {
    const [first, second] = await Promise.all([whoAmI(accounts[0]!.token), whoAmI(accounts[0]!.token)]);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(first.body.id, second.body.id);
  });
});
