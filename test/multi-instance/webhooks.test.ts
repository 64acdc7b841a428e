// docs/webhooks.md across instances: two servers on one PostgreSQL database claim webhook
// deliveries side by side, and the receiver gets each event exactly once, each account's in order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';
import { registerOperator, type Operator } from '../admin/admin-flows.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const skip = !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)';

describe('webhooks on two instances of one PostgreSQL database', { skip }, () => {
  let first: MailedServer;
  let second: TestServer;
  let operator: Operator;
  let receiver: WebhookReceiver;
  before(async () => {
    first = await startMailedServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    second = await startTestServer({
      DATABASE_URL: first.server.server.ctx.config.databaseUrl,
      SMTP_URL: first.sink.url,
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    operator = await registerOperator(first);
    receiver = new WebhookReceiver();
    await receiver.listen();
  });
  after(async () => {
    await second.close();
    await first.close();
    await receiver.close();
  });

  test('every event is delivered exactly once, whichever instance claims it', async () => {
    const created = await first.server.request('POST', '/admin/webhooks/', {
      token: operator.token,
      body: { url: receiver.url, events: ['account.created', 'account.disabled', 'account.enabled'] },
    });
    assert.equal(created.status, 201, created.text);
    receiver.secrets = [created.body.secret];
    // The two workers stopped: the events wait, then both instances' passes race for them.
    await first.server.server.webhooks.stop();
    await second.server.webhooks.stop();
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) {
      const server = i % 2 === 0 ? first.server : second;
      const answer = await register(server, uniqueEmail(`twice-${i}`));
      assert.equal(answer.status, 201, answer.text);
      ids.push(answer.body.id);
    }
    for (const id of ids.slice(0, 10)) {
      assert.equal((await second.request('POST', `/admin/accounts/${id}/disable/`, { token: operator.token, body: {} })).status, 200);
      assert.equal((await first.server.request('POST', `/admin/accounts/${id}/enable/`, { token: operator.token, body: {} })).status, 200);
    }
    const expected = ids.length + 20;
    for (let pass = 0; pass < 100 && receiver.received.length < expected; pass++) {
      await Promise.all([first.server.server.webhooks.runOnce(), second.server.webhooks.runOnce()]);
    }
    assert.equal(receiver.received.length, expected);
    assert.equal(new Set(receiver.received.map((r) => r.id)).size, expected, 'no event twice');
    assert.ok(receiver.received.every((r) => r.verifiedWith.get(created.body.secret)));
    for (const id of ids.slice(0, 10)) {
      assert.deepEqual(
        receiver.about(id).map((r) => r.payload.type),
        ['account.created', 'account.disabled', 'account.enabled'],
      );
    }
    // Nothing is left to send.
    await Promise.all([first.server.server.webhooks.runOnce(), second.server.webhooks.runOnce()]);
    assert.equal(receiver.received.length, expected);
  });
});
