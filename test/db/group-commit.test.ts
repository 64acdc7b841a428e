import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { GroupCommitter } from '../../src/db/group-commit.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { WAIT_MS } from '../helpers/wait.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('group commit (SQLite)', () => {
  let path: string;
  let db: Db;

  before(async () => {
    path = join(tempDir('group-commit-'), 'test.db');
    db = openDatabase(`sqlite:${path}`);
    await migrateToLatest(db);
  });
  after(() => db.close());

  const insertAccount = (trx: Db['kysely'], firstName: string) =>
    trx
      .insertInto('accounts')
      .values({ first_name: firstName, last_name: '', password_hash: 'x', created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();

  test('concurrent writes share commits; a failing one is rolled back alone; all answer after their commit', async () => {
    const committer = new GroupCommitter(db.kysely);
    const names = Array.from({ length: 40 }, (_, i) => `writer-${i}`);
    const results = await Promise.allSettled(
      names.map((name, i) =>
        committer.run(async (trx) => {
          const row = await insertAccount(trx, name);
          if (i % 7 === 3) throw new Error(`refused ${name}`);
          return row.id;
        }),
      ),
    );
    const refused = names.filter((_, i) => i % 7 === 3);
    assert.equal(results.filter((r) => r.status === 'rejected').length, refused.length);
    for (const [i, result] of results.entries()) {
      if (i % 7 === 3) assert.match(String((result as PromiseRejectedResult).reason), /refused/);
      else assert.equal(typeof (result as PromiseFulfilledResult<number>).value, 'number');
    }

    // What a second connection sees: every acknowledged write, none of the refused ones.
    const reader = openDatabase(`sqlite:${path}`);
    try {
      const stored = (
        await reader.kysely.selectFrom('accounts').select('first_name').where('first_name', 'like', 'writer-%').execute()
      ).map((r) => r.first_name);
      assert.deepEqual(stored.sort(), names.filter((n) => !refused.includes(n)).sort());
    } finally {
      await reader.close();
    }
  });

  test('a write that breaks a constraint fails alone, with the database error', async () => {
    const committer = new GroupCommitter(db.kysely);
    const account = await committer.run((trx) => insertAccount(trx, 'owner'));
    const now = 0;
    const address = (email: string) =>
      committer.run((trx) =>
        trx
          .insertInto('email_addresses')
          .values({
            account_id: account.id,
            email,
            email_lower: email,
            verified: 0,
            is_primary: 0,
            verified_action: 1,
            created_at: now,
            last_key_sent_at: null,
          })
          .execute(),
      );
    const outcomes = await Promise.allSettled([address('a@example.com'), address('a@example.com'), address('b@example.com')]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    const stored = await db.kysely
      .selectFrom('email_addresses')
      .select('email')
      .where('account_id', '=', account.id)
      .orderBy('email')
      .execute();
    assert.deepEqual(
      stored.map((r) => r.email),
      ['a@example.com', 'b@example.com'],
    );
  });

  /** A WAL sync the test finishes by hand, one call at a time. */
  function heldSyncs() {
    const calls: { finish(error?: Error): void }[] = [];
    const syncWal = () =>
      new Promise<void>((resolve, reject) => {
        calls.push({ finish: (error) => (error ? reject(error) : resolve()) });
      });
    return { calls, syncWal };
  }
  const stored = async (firstName: string) => {
    const reader = openDatabase(`sqlite:${path}`);
    try {
      return (await reader.kysely.selectFrom('accounts').select('id').where('first_name', '=', firstName).execute()).length;
    } finally {
      await reader.close();
    }
  };
  const settled = async (promise: Promise<unknown>) => {
    let state = 'pending';
    promise.then(
      () => {
        state = 'fulfilled';
      },
      () => {
        state = 'rejected';
      },
    );
    await new Promise((resolve) => setImmediate(resolve));
    return state;
  };
  const waitFor = async (condition: () => boolean) => {
    for (let i = 0; i < WAIT_MS / 10 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(condition());
  };

  test('with a WAL sync: a write is committed, but answered only once the sync is done; the next batch does not wait', async () => {
    const { calls, syncWal } = heldSyncs();
    const committer = new GroupCommitter(db.kysely, { syncWal });
    const first = committer.run((trx) => insertAccount(trx, 'synced-1'));
    await waitFor(() => calls.length === 1);
    assert.equal(await stored('synced-1'), 1, 'committed before the sync');
    assert.equal(await settled(first), 'pending', 'not answered before the sync');

    const second = committer.run((trx) => insertAccount(trx, 'synced-2'));
    await waitFor(() => calls.length === 2);
    assert.equal(await stored('synced-2'), 1);
    calls[1]!.finish();
    assert.equal(await settled(second), 'fulfilled');
    assert.equal(await settled(first), 'pending');
    calls[0]!.finish();
    assert.equal(typeof (await first).id, 'number');
  });

  test('with a WAL sync: a failed sync fails the batch; the connection is back at synchronous=FULL for everything else', async () => {
    const { calls, syncWal } = heldSyncs();
    const committer = new GroupCommitter(db.kysely, { syncWal });
    const write = committer.run((trx) => insertAccount(trx, 'sync-failed'));
    await waitFor(() => calls.length === 1);
    const level = await sql<{ synchronous: number }>`pragma synchronous`.execute(db.kysely);
    assert.deepEqual(level.rows, [{ synchronous: 2 }]);
    calls[0]!.finish(new Error('EIO: the disk failed'));
    await assert.rejects(write, /EIO/);
  });
});
