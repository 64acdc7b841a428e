import assert from 'node:assert/strict';
import { mkdirSync, existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createAppUser, download, png, storedFiles, upload } from './media-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('stored files follow the database', () => {
  let server: TestServer;
  let account: TestAccount;
  let appUserId: number;

  before(async () => {
    server = await startTestServer();
    account = await createAccount(server);
    appUserId = await createAppUser(server, account);
  });
  after(() => server.close());

  const db = () => server.server.ctx.db.kysely;

  test('when the insert fails, the received file is removed and the error is a plain 500', async () => {
    const filesBefore = await storedFiles(server);
    if (onPostgres) {
      await sql`CREATE FUNCTION refuse_media() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$ LANGUAGE plpgsql`.execute(
        db(),
      );
      await sql`CREATE TRIGGER refuse_media_insert BEFORE INSERT ON media_resources FOR EACH ROW EXECUTE FUNCTION refuse_media()`.execute(
        db(),
      );
    } else {
      await sql`CREATE TRIGGER refuse_media_insert BEFORE INSERT ON media_resources BEGIN SELECT RAISE(ABORT, 'refused by test'); END`.execute(
        db(),
      );
    }
    try {
      const response = await upload(server, account.token, appUserId, { name: 'x', file: png() });
      assert.equal(response.status, 500);
      assert.deepEqual(response.body, { detail: 'Internal server error.' });
      assert.deepEqual(await storedFiles(server), filesBefore);
    } finally {
      await sql`DROP TRIGGER refuse_media_insert${onPostgres ? sql` ON media_resources` : sql``}`.execute(db());
    }
    const list = await server.request('GET', `/app/users/${appUserId}/gallery/`, { token: account.token });
    assert.deepEqual(list.body, []);
  });

  test('when the commit fails after the file was put in place, the file is removed (PostgreSQL)', {
    skip: !onPostgres && 'SQLite has no deferred triggers',
  }, async () => {
    const filesBefore = await storedFiles(server);
    await sql`CREATE OR REPLACE FUNCTION refuse_media() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused at commit by test'; END $$ LANGUAGE plpgsql`.execute(
      db(),
    );
    await sql`CREATE CONSTRAINT TRIGGER refuse_media_commit AFTER INSERT ON media_resources DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_media()`.execute(
      db(),
    );
    try {
      const response = await upload(server, account.token, appUserId, { name: 'x', file: png() });
      assert.equal(response.status, 500);
      assert.deepEqual(await storedFiles(server), filesBefore);
    } finally {
      await sql`DROP TRIGGER refuse_media_commit ON media_resources`.execute(db());
    }
  });

  test('a resource whose stored file has gone answers 404 on its URL, not 500', async () => {
    const created = await upload(server, account.token, appUserId, { name: 'vanishing', file: png() });
    assert.equal(created.status, 201);
    const key = new URL(created.body.file).pathname.split('/').pop()!;
    await server.server.ctx.media.remove(key);
    const response = await download(server, created.body.file);
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { detail: 'Not found.' });
    // Deleting the resource still works.
    assert.equal((await server.request('DELETE', `/app/media-resources/${created.body.id}/`, { token: account.token })).status, 204);
  });
});

describe('local-disk storage at start-up', () => {
  test('creates its directory and removes uploads abandoned more than a day ago', async () => {
    const root = join(tempDir('media-start-'), 'media');
    mkdirSync(join(root, '.incoming'), { recursive: true });
    const abandoned = join(root, '.incoming', 'abandoned');
    const recent = join(root, '.incoming', 'recent');
    writeFileSync(abandoned, 'x');
    writeFileSync(recent, 'x');
    const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000);
    utimesSync(abandoned, twoDaysAgo, twoDaysAgo);

    const server = await startTestServer({ MEDIA_STORAGE: `fs:${root}` });
    try {
      assert.ok(!existsSync(abandoned));
      assert.ok(existsSync(recent), 'an upload in progress (maybe by another instance) is left alone');
    } finally {
      await server.close();
    }

    const fresh = join(tempDir('media-start-'), 'new', 'media');
    const second = await startTestServer({ MEDIA_STORAGE: `fs:${fresh}` });
    try {
      assert.ok(existsSync(join(fresh, '.incoming')));
    } finally {
      await second.close();
    }
  });
});
