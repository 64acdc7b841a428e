// docs/messaging-and-sync.md: an SMTP outage never fails the request and loses nothing; the e-mail goes out
// once the server is back, exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../helpers/free-port.ts';
import { SmtpSink } from '../helpers/smtp-sink.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, VERIFY_SUBJECT, mailsTo, register, uniqueEmail, waitForMail } from './account-flows.ts';

async function outboxStates(server: TestServer): Promise<Array<{ state: string; last_error: string | null }>> {
  return server.server.ctx.db.kysely.selectFrom('outbox').select(['state', 'last_error']).where('kind', '=', 'email').execute();
}

describe('SMTP down at registration, then up', () => {
  let server: TestServer;
  let sink: SmtpSink | undefined;
  let port: number;
  before(async () => {
    port = await freePort();
    server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  after(async () => {
    await server.close();
    await sink?.close();
  });

  test('register answers 201 at once; the verification e-mail arrives once SMTP is up, exactly once', async () => {
    const email = uniqueEmail('outage');
    const response = await register(server, email);
    assert.equal(response.status, 201);

    // The worker tries, fails (connection refused) and schedules a retry.
    const deadline = Date.now() + 5000;
    while (!(await outboxStates(server)).some((row) => row.last_error !== null)) {
      assert.ok(Date.now() < deadline, 'the worker never tried to deliver');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok((await outboxStates(server)).every((row) => row.state === 'pending'));

    sink = new SmtpSink();
    await sink.listen(port);
    // Retries are scheduled on the service's clock: move it past the back-off.
    server.clock.advance(3_600_000);
    const mail = await waitForMail(sink, email, VERIFY_SUBJECT);
    const key = SmtpSink.keyIn(mail);

    // The row is marked sent right after SMTP accepted it; until then it holds a lease, and
    // moving the clock past the lease would rightly deliver it again.
    while ((await outboxStates(server)).some((row) => row.state !== 'sent')) {
      assert.ok(Date.now() < deadline + 30_000, 'the delivered e-mail was never marked sent');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await server.server.worker.runOnce();
    server.clock.advance(3_600_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(mailsTo(sink, email).length, 1, 'delivered exactly once');
    assert.deepEqual(
      (await outboxStates(server)).map((row) => row.state),
      ['sent'],
    );

    const verified = await server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } });
    assert.equal(verified.status, 200);
  });
});
