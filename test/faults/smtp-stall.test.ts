// An SMTP server that accepts the connection and then says nothing (a stall, not a refusal):
// the delivery attempt gives up after SMTP_TIMEOUT instead of holding the outbox worker, the
// request that queued the e-mail is not held up, and once the server answers again the e-mail
// goes out exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SmtpSink } from '../helpers/smtp-sink.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { mailsTo, register, uniqueEmail, VERIFY_SUBJECT, waitForMail } from '../accounts/account-flows.ts';

async function outboxRows(server: TestServer) {
  return server.server.ctx.db.kysely.selectFrom('outbox').select(['state', 'attempts', 'last_error']).where('kind', '=', 'email').execute();
}

describe('SMTP server stalls, then answers again', () => {
  let sink: SmtpSink;
  let proxy: TcpProxy;
  let server: TestServer;
  before(async () => {
    sink = new SmtpSink();
    await sink.listen();
    proxy = new TcpProxy('127.0.0.1', sink.port);
    await proxy.listen();
    server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${proxy.port}`, SMTP_TIMEOUT: '1s' });
  });
  after(async () => {
    await server?.close();
    await proxy?.close();
    await sink?.close();
  });

  test('the attempt times out and is retried; after restore the e-mail arrives exactly once', async () => {
    proxy.stall();
    const email = uniqueEmail('stall');
    const response = await register(server, email);
    assert.equal(response.status, 201);

    // The worker tries, gets no greeting, gives up and schedules a retry (no hang: the bound is generous).
    const deadline = Date.now() + 30_000;
    while (!(await outboxRows(server)).some((row) => row.last_error !== null)) {
      assert.ok(Date.now() < deadline, 'the stalled delivery attempt never ended');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [row] = await outboxRows(server);
    assert.equal(row!.state, 'pending');
    assert.match(row!.last_error!, /greeting|timeout/i);
    assert.equal(mailsTo(sink, email).length, 0);

    proxy.restore();
    // Retries are scheduled on the service's clock: move it past the back-off.
    server.clock.advance(3_600_000);
    await waitForMail(sink, email, VERIFY_SUBJECT);
    // Recorded as sent (until then the row is under its lease, which moving the clock would end).
    while ((await outboxRows(server))[0]!.state !== 'sent') {
      assert.ok(Date.now() < deadline + 30_000, 'the delivered e-mail was never marked sent');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // More passes, and time, do not send it again.
    await server.server.worker.runOnce();
    server.clock.advance(3_600_000);
    await server.server.worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(mailsTo(sink, email).length, 1, 'delivered exactly once');
    assert.deepEqual(
      (await outboxRows(server)).map((r) => r.state),
      ['sent'],
    );
  });
});
