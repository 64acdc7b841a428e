// SQLite: a write that finds the database still locked by another connection after
// busy_timeout is answered 503 + Retry-After (try again shortly), not 500; once the lock is
// gone, writes succeed again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SqliteDriver from 'better-sqlite3';
import { createOwner } from '../app-data/fixtures.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('SQLite locked by another connection', { skip: onPostgres && 'SQLite only' }, () => {
  let server: TestServer;
  let other: SqliteDriver.Database;
  before(async () => {
    server = await startTestServer();
    other = new SqliteDriver(server.server.ctx.config.databaseUrl.slice('sqlite:'.length));
  });
  after(async () => {
    other?.close();
    await server?.close();
  });

  test('a write still locked out after busy_timeout: 503 with Retry-After; then 201', async () => {
    const owner = await createOwner(server);
    const path = `/app/users/${owner.appUserId}/profiles/`;
    other.exec('begin immediate');
    let response;
    try {
      response = await server.request('POST', path, { token: owner.token, body: { name: 'Locked out' } });
    } finally {
      other.exec('rollback');
    }
    assert.equal(response.status, 503, response.text);
    assert.ok(Number(response.headers.get('retry-after')) > 0);
    assert.deepEqual(response.body, { detail: 'The database is unavailable; try again shortly.' });

    const retried = await server.request('POST', path, { token: owner.token, body: { name: 'Let in' } });
    assert.equal(retried.status, 201, retried.text);
  });
});
