// Sharing flows through the HTTP API, for the tests of accessors: invite, add and verify an
// address through the real e-mails, and wait for the outbox to have delivered everything.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { mailsTo, PASSWORD, VERIFY_SUBJECT, verificationKey, type MailedServer } from '../accounts/account-flows.ts';
import type { TestResponse, TestServer } from '../helpers/server.ts';
import { WAIT_MS } from '../helpers/wait.ts';

export const INVITATION_SUBJECT = 'You are invited to see shared information';
export const ACCEPTED_SUBJECT = 'Your invitation was accepted';

export function invite(server: TestServer, token: string, appUserId: number, body: object): Promise<TestResponse> {
  return server.request('POST', `/app/users/${appUserId}/accessors/`, { token, body });
}

/** An invitation that must be made (201); its accessor. */
export async function invited(server: TestServer, token: string, appUserId: number, body: object): Promise<any> {
  const response = await invite(server, token, appUserId, body);
  assert.equal(response.status, 201, `invite: ${response.status} ${response.text}`);
  return response.body;
}

export async function accept(server: TestServer, token: string, accessorId: number): Promise<TestResponse> {
  return server.request('POST', `/app/accessors/${accessorId}/accept/`, { token });
}

export async function pendingOf(server: TestServer, token: string): Promise<any[]> {
  const response = await server.request('GET', '/app/accessors/pending/', { token });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** Adds `email` to the account through the API; verified with the key e-mailed to it unless `verify` is false. Returns its id. */
export async function addAddress(
  mailed: MailedServer,
  account: { token: string; password?: string },
  email: string,
  verify = true,
): Promise<number> {
  const keysBefore = mailsTo(mailed.sink, email, VERIFY_SUBJECT).length;
  const added = await mailed.server.request('POST', '/account/emails/', { token: account.token, body: { email } });
  assert.equal(added.status, 201, added.text);
  if (verify) {
    const key = await verificationKey(mailed.sink, email, keysBefore + 1);
    const verified = await mailed.server.request('POST', '/account/verify-email/', {
      body: { key, password: account.password ?? PASSWORD },
    });
    assert.equal(verified.status, 200, verified.text);
  }
  return added.body.id;
}

/** Waits until the outbox has delivered every message written so far (none pending). */
export async function outboxDelivered(server: TestServer): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  const db = server.server.ctx.db.kysely;
  for (;;) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from outbox where state = 'pending'`.execute(db);
    if (Number(rows[0]!.n) === 0) return;
    if (Date.now() > deadline) throw new Error('the outbox still has pending messages');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
