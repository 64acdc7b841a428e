// kill -9 while registrations are being written, then restart on the same database: every
// registration that was answered 201 is there, with its password and its queued verification e-mail.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/open-database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { startServiceProcess as startService, type ServiceProcess as Service } from '../helpers/service-process.ts';
import { PASSWORD, uniqueEmail } from './account-flows.ts';
import { tempDir } from '../helpers/temp-dir.ts';

function post(url: string, path: string, body: unknown): Promise<Response> {
  return fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('kill -9 during registrations, then restart', () => {
  let database: TestDatabase;
  let dataDir: string;
  let service: Service | undefined;
  before(async () => {
    database = await createTestDatabase();
    dataDir = tempDir('profile-service-crash-');
  });
  after(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await database.drop();
  });

  test('every account answered 201 before the kill exists after the restart, with its verification e-mail', async () => {
    service = await startService(database.url, dataDir);
    const emails = Array.from({ length: 40 }, () => uniqueEmail('crash'));
    const acknowledged: string[] = [];
    let killed = false;
    const first = service;
    await Promise.all(
      emails.map(async (email, index) => {
        // Staggered, so some are still being written when the process dies.
        await new Promise((done) => setTimeout(done, index * 15));
        if (killed) return;
        try {
          const response = await post(first.url, '/auth/register/', { email, password: PASSWORD });
          if (response.status === 201) acknowledged.push(email);
          else assert.fail(`register answered ${response.status}: ${await response.text()}`);
        } catch (error) {
          if (!killed) throw error;
          return;
        }
        if (acknowledged.length === 15 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }),
    );
    await first.exited;
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.ok(acknowledged.length >= 15);

    service = await startService(database.url, dataDir);
    for (const email of acknowledged) {
      // The right password on an unverified address is told to verify first; an unknown
      // address (or a lost password) would be "Invalid credentials".
      const response = await post(service.url, '/auth/login/', { username: email, password: PASSWORD });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { non_field_errors: string[] };
      assert.match(body.non_field_errors[0]!, /not verified/, email);
      const again = await post(service.url, '/auth/register/', { email, password: PASSWORD });
      assert.equal(again.status, 400, 'the address is taken');
    }

    // The verification e-mails were committed with the accounts: each has its outbox row
    // (pending, or sent by either process; a row the killed process had claimed waits for its
    // lease to run out and is then sent by the new one).
    const db = openDatabase(database.url);
    try {
      const rows = await db.kysely.selectFrom('outbox').select(['payload', 'state']).where('kind', '=', 'email').execute();
      const recipients = rows.map((row) => JSON.parse(row.payload) as { to: string; subject: string });
      for (const email of acknowledged) {
        assert.equal(recipients.filter((r) => r.to === email && r.subject === 'Confirm your e-mail address').length, 1, email);
      }
    } finally {
      await db.close();
    }
  });
});
