// SQLite keeps tokens and data versions in memory (src/db/change-feed.ts, row-cache.ts): a copy
// must never outlive its row, whoever changes the row — this process or another one.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import SqliteDriver from 'better-sqlite3';
import { hashSecret } from '../../src/auth/token-hash.ts';
import type { Db } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { RowCache } from '../../src/db/row-cache.ts';
import { createListItem, createOwner, createProfile, createTopic, type Owner } from '../app-data/fixtures.ts';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('row cache and change feed (SQLite)', { skip: onPostgres && 'SQLite only: PostgreSQL asks the database every time' }, () => {
  let path: string;
  let db: Db;
  let accountId: number;
  let otherAccountId: number;

  before(async () => {
    path = join(tempDir('change-feed-'), 'test.db');
    db = openDatabase(`sqlite:${path}`);
    await migrateToLatest(db);
    db.changes!.start();
    const newAccount = async (name: string) => {
      const account = await db.kysely
        .insertInto('accounts')
        .values({ first_name: name, last_name: '', password_hash: 'x', created_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.kysely.insertInto('app_users').values({ account_id: account.id, name, quote: null, created_at: 0 }).execute();
      return account.id;
    };
    accountId = await newAccount('a');
    otherAccountId = await newAccount('b');
  });
  after(() => db.close());

  const bump = (id: number) =>
    db.kysely
      .updateTable('app_users')
      .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
      .where('account_id', '=', id)
      .execute();
  const version = async (id: number) =>
    (await db.kysely.selectFrom('app_users').select('data_version').where('account_id', '=', id).executeTakeFirst())?.data_version;

  /** A cache.get whose load reads the real row and counts its calls. */
  function counted(cache: RowCache<number>, id: number) {
    const loads = { count: 0 };
    const get = (key = `k${id}`) =>
      cache.get(key, async () => {
        loads.count++;
        const value = await version(id);
        return value === undefined ? undefined : { accountId: id, value };
      });
    return { loads, get };
  }

  test('a found value is kept until its row changes; a change to another row keeps it', async () => {
    const cache = new RowCache<number>(db.changes!, 'app_user', 100);
    const { loads, get } = counted(cache, accountId);
    const first = (await get())!;
    assert.equal(await get(), first);
    assert.equal(loads.count, 1);
    await bump(otherAccountId);
    assert.equal(await get(), first);
    assert.equal(loads.count, 1);
    await bump(accountId);
    assert.equal(await get(), first + 1);
    assert.equal(loads.count, 2);
  });

  test('each cache watches its own rows: tokens (updated, deleted) or the app user (added, deleted, data version moved)', async () => {
    const versions = counted(new RowCache<number>(db.changes!, 'app_user', 100), accountId);
    const tokens = counted(new RowCache<number>(db.changes!, 'tokens', 100), accountId);
    const token = await db.kysely
      .insertInto('auth_tokens')
      .values({ account_id: accountId, token_hash: 'f'.repeat(64), created_at: 0, last_used_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const changes: [string, () => Promise<unknown>, typeof versions][] = [
      ['token updated', () => db.kysely.updateTable('auth_tokens').set({ last_used_at: 1 }).where('id', '=', token.id).execute(), tokens],
      ['token deleted', () => db.kysely.deleteFrom('auth_tokens').where('id', '=', token.id).execute(), tokens],
      ['data version moved', () => bump(accountId), versions],
      ['app user deleted', () => db.kysely.deleteFrom('app_users').where('account_id', '=', accountId).execute(), versions],
      [
        'app user added',
        () => db.kysely.insertInto('app_users').values({ account_id: accountId, name: 'a', quote: null, created_at: 0 }).execute(),
        versions,
      ],
    ];
    await versions.get();
    await tokens.get();
    for (const [what, change, dropped] of changes) {
      const before = { versions: versions.loads.count, tokens: tokens.loads.count };
      await change();
      await versions.get();
      await tokens.get();
      assert.equal(versions.loads.count, before.versions + (dropped === versions ? 1 : 0), `${what}: data versions`);
      assert.equal(tokens.loads.count, before.tokens + (dropped === tokens ? 1 : 0), `${what}: tokens`);
    }
  });

  test('a change inside a transaction that rolls back only costs a reload', async () => {
    const cache = new RowCache<number>(db.changes!, 'app_user', 100);
    const { loads, get } = counted(cache, accountId);
    const first = await get();
    await db.kysely
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('app_users').set({ data_version: 999 }).where('account_id', '=', accountId).execute();
        throw new Error('rolled back');
      })
      .catch(() => {});
    assert.equal(await get(), first);
    assert.equal(loads.count, 2);
  });

  test('a load that overlapped a change is returned but not kept (it may have read the old row)', async () => {
    const cache = new RowCache<number>(db.changes!, 'app_user', 100);
    const stale = (await cache.get('k', async () => {
      const value = (await version(accountId))!;
      await bump(accountId);
      return { accountId, value };
    }))!;
    const { loads, get } = counted(cache, accountId);
    assert.equal(await get('k'), stale + 1);
    assert.equal(loads.count, 1);
  });

  test('a value another statement read is kept, unless its row changed since that statement began', async () => {
    const cache = new RowCache<number>(db.changes!, 'app_user', 100);
    const { loads, get } = counted(cache, accountId);
    const keep = cache.reading(`k${accountId}`);
    const read = (await version(accountId))!;
    keep({ accountId, value: read });
    assert.equal(await get(), read);
    assert.equal(loads.count, 0);

    // A change between the statement and the keeping: what it read may be the old row.
    await bump(accountId);
    const late = cache.reading(`k${accountId}`);
    const before = (await version(accountId))!;
    await bump(accountId);
    late({ accountId, value: before });
    assert.equal(await get(), before + 1);
    assert.equal(loads.count, 1);

    // A change to another app user's row counts too (as for a load: the cache does not tell whose).
    await bump(accountId);
    const other = cache.reading(`k${accountId}`);
    const now = (await version(accountId))!;
    await bump(otherAccountId);
    other({ accountId, value: now });
    assert.equal(await get(), now);
    assert.equal(loads.count, 2);

    // What is kept already stays.
    cache.reading(`k${accountId}`)({ accountId, value: -1 });
    assert.equal(await get(), now);
    assert.equal(loads.count, 2);
  });

  test('nothing found is not kept; the oldest entry goes when the cache is full', async () => {
    const cache = new RowCache<number>(db.changes!, 'app_user', 2);
    let loads = 0;
    const missing = () =>
      cache.get('missing', async () => {
        loads++;
        return undefined;
      });
    assert.equal(await missing(), undefined);
    assert.equal(await missing(), undefined);
    assert.equal(loads, 2);
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => ({ accountId, value: 1 }));
    assert.equal(cache.size, 2);
    assert.equal(await cache.get('a', async () => ({ accountId, value: 2 })), 2);
  });

  test('a commit by another connection (another process) drops everything', async () => {
    const cache = new RowCache<number>(db.changes!, 'app_user', 100);
    const { loads, get } = counted(cache, accountId);
    await get();
    await nextTurn();
    await get();
    assert.equal(loads.count, 1);
    // Not even the watched table: the feed cannot tell what another connection changed.
    const other = new SqliteDriver(path);
    other.prepare('UPDATE accounts SET first_name = ? WHERE id = 1').run('changed elsewhere');
    other.close();
    await nextTurn();
    await get();
    assert.equal(loads.count, 2);
  });
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('tokens and cached views changed by another process (SQLite)', { skip: onPostgres && 'SQLite only' }, () => {
  let server: TestServer;
  let owner: Owner;
  let profileId: number;

  before(async () => {
    server = await startTestServer({ OUTBOX_POLL_INTERVAL: '1h' });
    owner = await createOwner(server);
    profileId = (await createProfile(server, owner)).id;
    await createListItem(server, owner, (await createTopic(server, owner, profileId)).id, ['milk']);
  });
  after(() => server.close());

  const withOtherConnection = (work: (other: SqliteDriver.Database) => void) => {
    const other = new SqliteDriver(server.server.ctx.config.databaseUrl.slice('sqlite:'.length));
    try {
      work(other);
    } finally {
      other.close();
    }
  };
  const readProfile = () => server.request('GET', `/app/profiles/${profileId}/`, { token: owner.token });

  test('data changed by hand (with its data version moved) shows in the next read', async () => {
    assert.equal((await readProfile()).status, 200);
    withOtherConnection((other) => {
      other.prepare('UPDATE list_entries SET text = ? WHERE account_id = ?').run('oat milk', owner.id);
      other.prepare('UPDATE app_users SET data_version = data_version + 1 WHERE account_id = ?').run(owner.id);
    });
    await nextTurn();
    const response = await readProfile();
    assert.equal(response.status, 200);
    assert.equal(response.body.topics[0].items[0].list_content.entries[0].text, 'oat milk');
  });

  test('a token deleted by hand is refused at once', async () => {
    assert.equal((await readProfile()).status, 200);
    withOtherConnection((other) => {
      other.prepare('DELETE FROM auth_tokens WHERE token_hash = ?').run(hashSecret(owner.token));
    });
    await nextTurn();
    assert.equal((await readProfile()).status, 401);
  });
});
