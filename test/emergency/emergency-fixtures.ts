// Fixtures for the emergency link tests: links made through the API, the public routes, an
// accepted accessor (written as accepting an invitation leaves it), and the owner's notices.
import assert from 'node:assert/strict';
import type { TestResponse, TestServer } from '../helpers/server.ts';
import type { Owner } from '../app-data/fixtures.ts';
import { insertAccessor } from '../sharing/sharing-fixtures.ts';

export const VIEWED_SUBJECT = 'Your emergency link was opened';
export const LOCKED_SUBJECT = 'Wrong PINs were entered for your emergency link';

export interface CreatedLink {
  id: number;
  url: string;
  link: string;
  token: string;
  [field: string]: unknown;
}

/** POST /app/users/{id}/emergency-links/ that must answer 201. */
export async function createLink(server: TestServer, owner: Owner, body: object = {}): Promise<CreatedLink> {
  const response = await server.request('POST', `/app/users/${owner.appUserId}/emergency-links/`, { token: owner.token, body });
  assert.equal(response.status, 201, response.text);
  const token = /\/emergency\/([^/]+)$/.exec(response.body.link)?.[1];
  assert.ok(token, response.body.link);
  return { ...response.body, token };
}

export function readPublic(server: TestServer, token: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  return server.request('GET', `/public/emergency/${token}/`, { headers });
}

export function unlock(server: TestServer, token: string, pin: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
  return server.request('POST', `/public/emergency/${token}/`, { body: { pin }, headers });
}

/** `to` becomes an accepted accessor of the owner's app user. */
export async function share(server: TestServer, owner: Owner, to: { id: number }, canWrite = true): Promise<void> {
  await insertAccessor(server, owner, `${to.id}@example.com`, to.id, { canWrite, privateAccess: true });
}

/** E-mails queued to the account whose subject is `subject` (queued in the view's own transaction, so counted at once). */
export async function queuedNotices(server: TestServer, accountId: number, subject: string): Promise<number> {
  const rows = await server.server.ctx.db.kysely
    .selectFrom('outbox')
    .select('payload')
    .where('kind', '=', 'email')
    .where('account_id', '=', accountId)
    .execute();
  return rows.filter((row) => (JSON.parse(row.payload) as { subject?: string }).subject === subject).length;
}
