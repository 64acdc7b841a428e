import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { GroupCommitter } from '../../src/db/group-commit.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

describe('group commit (SQLite)', () => {
  let path: string;
  let db: Db;

  before(async () => {
    path = join(mkdtempSync(join(tmpdir(), 'group-commit-')), 'test.db');
    db = openDatabase(`sqlite:${path}`);
    await migrateToLatest(db);
  });
  after(() => db.close());

  const insertAccount = (trx: Db['kysely'], firstName: string) => trx.insertInto('accounts')
    .values({ first_name: firstName, last_name: '', password_hash: 'x', created_at: 0 })
    .returning('id').executeTakeFirstOrThrow();

  test('concurrent writes share commits; a failing one is rolled back alone; all answer after their commit', async () => {
    const committer = new GroupCommitter(db.kysely);
    const names = Array.from({ length: 40 }, (_, i) => `writer-${i}`);
    const results = await Promise.allSettled(names.map((name, i) => committer.run(async (trx) => {
      const row = await insertAccount(trx, name);
      if (i % 7 === 3) throw new Error(`refused ${name}`);
      return row.id;
    })));
    const refused = names.filter((_, i) => i % 7 === 3);
    assert.equal(results.filter((r) => r.status === 'rejected').length, refused.length);
    for (const [i, result] of results.entries()) {
      if (i % 7 === 3) assert.match(String((result as PromiseRejectedResult).reason), /refused/);
      else assert.equal(typeof (result as PromiseFulfilledResult<number>).value, 'number');
    }

    // What a second connection sees: every acknowledged write, none of the refused ones.
    const reader = openDatabase(`sqlite:${path}`);
    try {
      const stored = (await reader.kysely.selectFrom('accounts').select('first_name').where('first_name', 'like', 'writer-%').execute()).map((r) => r.first_name);
      assert.deepEqual(stored.sort(), names.filter((n) => !refused.includes(n)).sort());
    } finally {
      await reader.close();
    }
  });

  test('a write that breaks a constraint fails alone, with the database error', async () => {
    const committer = new GroupCommitter(db.kysely);
    const account = await committer.run((trx) => insertAccount(trx, 'owner'));
    const now = 0;
    const address = (email: string) => committer.run((trx) => trx.insertInto('email_addresses').values({
      account_id: account.id, email, email_lower: email, verified: 0, is_primary: 0, verified_action: 1, created_at: now, last_key_sent_at: null,
    }).execute());
    const outcomes = await Promise.allSettled([address('a@example.com'), address('a@example.com'), address('b@example.com')]);
    assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'fulfilled']);
    const stored = await db.kysely.selectFrom('email_addresses').select('email').where('account_id', '=', account.id).orderBy('email').execute();
    assert.deepEqual(stored.map((r) => r.email), ['a@example.com', 'b@example.com']);
  });
});
