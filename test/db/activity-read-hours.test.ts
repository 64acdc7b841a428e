// Migration 0044 over a database that already holds activity: the events, their ids and the id
// sequence are kept; the read-hour rule still holds between two instances' ledgers; an app
// user's events go with it through the (account, app user) foreign key, the security log stays.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Insertable } from 'kysely';
import { insertAccount } from '../../src/accounts/core/account-queries.ts';
import { ReadLedger } from '../../src/activity/read-ledger.ts';
import type { Db } from '../../src/db/database.ts';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import type { Database } from '../../src/db/schema.ts';
import { TestClock } from '../helpers/clock.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { appUserOf } from '../helpers/factories.ts';

const HOUR_MS = 3_600_000;

type Event = Omit<Insertable<Database['activity_events']>, 'at'>;

describe('activity events across migration 0044', () => {
  let database: TestDatabase;
  let db: Db;
  let owner: number;
  let ownerAppUser: number;
  let reader: number;
  let readerAppUser: number;
  const clock = new TestClock();

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateTo(db, '0043-item-rendered-versions');
    const now = clock.now();
    owner = await insertAccount(db.kysely, { firstName: 'Olive', lastName: 'Owner', passwordHash: 'unused', now });
    reader = await insertAccount(db.kysely, { firstName: 'Reed', lastName: 'Reader', passwordHash: 'unused', now });
    ownerAppUser = await appUserOf(db.kysely, owner, { now });
    readerAppUser = await appUserOf(db.kysely, reader, { now });
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  const insert = (event: Event) =>
    db.kysely
      .insertInto('activity_events')
      .values({ at: clock.now(), ...event })
      .returning('id')
      .executeTakeFirstOrThrow();
  /** An event in the owner's log by the reader, as an accessor. */
  const byReader = (event: Omit<Event, 'account_id' | 'app_user_id' | 'actor_kind' | 'actor_id'>) =>
    insert({ account_id: owner, app_user_id: ownerAppUser, actor_kind: 'accessor', actor_id: reader, ...event });
  /** A sign-in in the account's security log. */
  const signedIn = (accountId: number) =>
    insert({ account_id: accountId, app_user_id: null, action: 'signed_in', actor_kind: 'owner', actor_id: accountId });
  const rows = () => db.kysely.selectFrom('activity_events').selectAll().orderBy('id').execute();

  test('the events written before it are kept with their ids; a new id is past every id given before', async () => {
    const hour = Math.floor(clock.now() / HOUR_MS);
    await signedIn(owner);
    await byReader({ action: 'created', object_type: 'item', object_id: 7, object_name: 'Milk' });
    await byReader({ action: 'read', read_hour: hour });
    // The newest id given, then swept: the sequence, not the rows, says where ids go on.
    const swept = await signedIn(reader);
    await db.kysely.deleteFrom('activity_events').where('id', '=', swept.id).execute();
    const before = await rows();

    await migrateTo(db, '0044-activity-read-hours-apart');
    assert.deepEqual(await rows(), before);
    const next = await signedIn(reader);
    assert.ok(next.id > swept.id, `${next.id} after ${swept.id}`);
    // The tests below run on what the service runs.
    assert.ok((await migrateToLatest(db)).length > 0);
  });

  test("an event under an app user must name that app user's own account", async () => {
    await assert.rejects(insert({ account_id: reader, app_user_id: ownerAppUser, action: 'created' }), (error: unknown) =>
      db.isForeignKeyViolation(error),
    );
  });

  test("a read is recorded once an hour between two instances' ledgers, writes as often as they come", async () => {
    clock.advance(HOUR_MS);
    const of = { appUserId: ownerAppUser, ownerAccountId: owner };
    await new ReadLedger(db, clock).note(reader, of, 'web');
    await new ReadLedger(db, clock).note(reader, of, 'api');
    for (const name of ['Bread', 'Eggs']) {
      await byReader({ action: 'created', object_name: name });
    }
    const hour = Math.floor(clock.now() / HOUR_MS);
    const thisHour = (await rows()).filter((row) => row.action === 'read' && Number(row.read_hour) === hour);
    assert.equal(thisHour.length, 1);
    assert.equal(thisHour[0]!.via, 'web');
    assert.equal((await rows()).filter((row) => row.object_name === 'Bread' || row.object_name === 'Eggs').length, 2);
  });

  test("deleting an app user deletes its events; its account's security log and other logs stay", async () => {
    const countOf = async (accountId: number, appUserId: number | null) =>
      (await rows()).filter((row) => row.account_id === accountId && row.app_user_id === appUserId).length;
    assert.ok((await countOf(owner, ownerAppUser)) > 0);
    await insert({ account_id: reader, app_user_id: readerAppUser, action: 'created', actor_kind: 'accessor', actor_id: owner });
    await db.kysely.deleteFrom('app_users').where('id', '=', ownerAppUser).execute();
    assert.equal(await countOf(owner, ownerAppUser), 0);
    assert.equal(await countOf(owner, null), 1);
    assert.equal(await countOf(reader, readerAppUser), 1);
  });
});
