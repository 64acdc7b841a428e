import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { CHANGE_COLUMNS, changeLogTriggers, createRowTriggers, type LoggedTable, logUpsert, NOW_MS, withId } from './helpers.ts';

// The change log (docs/offline-and-live.md): one row per change to something an app user holds, written by
// triggers in the transaction of the change itself, so no write can forget it, whatever writes
// it (the API, the gathered list-item function, a cascade, the seeder). Rows are numbered by the
// database: per app user that number is commit order, because every write to an app user's data
// first bumps its data version (src/app-data/kernel/owned-write.ts), which holds the app user's row
// until commit, and the rows are written after that. The number is the cursor of
// GET /app/users/{id}/changes/ and the event id of the live stream.
//
// - An upsert names the object only; its data is read when the changes are (src/sync/). So the
//   triggers cost one small insert per written row, and no column copies anything personal.
// - A delete is a tombstone, with the profile it was under and whether that profile was
//   private then, so that accessors without private access are not told of it. A profile's
//   upsert keeps whether the profile was hidden from them just before (private, or not yet
//   there): so they are told a profile went private only if they had seen it. A tombstone is
//   written only when what held the row is still there: a delete that cascades from its parent
//   is the parent's tombstone alone (a delete removes what the object holds).
// - A profile that stops being private logs an upsert for everything under it: an accessor
//   without private access must now be sent all of it.
// - A media resource renamed changes the items and emergency items that show it.
// - The app user itself: its creation and changes of name or quote. Its rows go with it
//   (ON DELETE CASCADE).
//
// `changes_horizon` holds the highest id the retention sweep has deleted: a cursor below it may
// have lost changes (410).
//
// PostgreSQL also announces every committed write on the channel `profile_data` (the owner's
// account id), and every change of a token or an accessor on `profile_access` (the account
// concerned): the live streams of every instance wake on them.

const LOGGED: LoggedTable[] = [
  { table: 'app_users', type: 'app_user', updateOf: ['name', 'quote'], deleteFrom: null, profile: 'NULL', private: 'NULL' },
  {
    table: 'profiles',
    type: 'profile',
    updateOf: ['name', 'is_default', 'is_private'],
    deleteFrom: 'app_users a WHERE a.id = OLD.app_user_id',
    profile: 'OLD.id',
    private: 'OLD.is_private',
  },
  {
    table: 'topics',
    type: 'topic',
    updateOf: ['name', 'topic_type'],
    deleteFrom: 'app_users a JOIN profiles p ON p.id = OLD.profile_id WHERE a.account_id = OLD.account_id',
    profile: 'p.id',
    private: 'p.is_private',
  },
  {
    table: 'items',
    type: 'item',
    updateOf: ['name'],
    deleteFrom:
      'app_users a JOIN topics t ON t.id = OLD.topic_id JOIN profiles p ON p.id = t.profile_id WHERE a.account_id = OLD.account_id',
    profile: 'p.id',
    private: 'p.is_private',
  },
  {
    table: 'list_entries',
    type: 'list_entry',
    updateOf: ['text'],
    deleteFrom: `app_users a JOIN list_contents lc ON lc.id = OLD.list_content_id JOIN items i ON i.id = lc.item_id
      JOIN topics t ON t.id = i.topic_id JOIN profiles p ON p.id = t.profile_id WHERE a.account_id = OLD.account_id`,
    profile: 'p.id',
    private: 'p.is_private',
  },
  ...['emergency_items:emergency_item', 'emergency_contacts:emergency_contact', 'media_resources:media_resource'].map((pair) => {
    const [table, type] = pair.split(':') as [string, string];
    return {
      table,
      type,
      updateOf: table === 'media_resources' ? ['name'] : null,
      deleteFrom: 'app_users a WHERE a.id = OLD.app_user_id',
      profile: 'NULL',
      private: 'NULL',
    };
  }),
];

function statements(dialect: Dialect) {
  const triggers = LOGGED.flatMap((t) => changeLogTriggers(dialect, t));
  // An image content is part of its item: its change is the item's.
  triggers.push({
    name: 'log_image_contents_update',
    on: 'AFTER UPDATE ON image_contents',
    body: logUpsert(dialect, 'item', 'NEW.item_id', 'app_users a WHERE a.account_id = NEW.account_id'),
  });
  triggers.push({
    name: 'log_media_resources_rename',
    on: 'AFTER UPDATE OF name ON media_resources',
    body: [
      logUpsert(
        dialect,
        'item',
        'ic.item_id',
        `app_users a JOIN image_contents ic ON ic.account_id = a.account_id
          AND (ic.image_resource_id = NEW.id OR ic.media_resource_id = NEW.id) WHERE a.id = NEW.app_user_id`,
      ),
      logUpsert(
        dialect,
        'emergency_item',
        'ei.id',
        'app_users a JOIN emergency_items ei ON ei.app_user_id = a.id AND ei.media_resource_id = NEW.id WHERE a.id = NEW.app_user_id',
      ),
    ].join('\n'),
  });
  // A profile no longer private: everything under it, for those who could not see it.
  triggers.push({
    name: 'log_profiles_opened',
    on: 'AFTER UPDATE OF is_private ON profiles',
    when: 'OLD.is_private = 1 AND NEW.is_private = 0',
    body: [
      logUpsert(dialect, 'topic', 't.id', 'app_users a JOIN topics t ON t.profile_id = NEW.id WHERE a.id = NEW.app_user_id'),
      logUpsert(
        dialect,
        'item',
        'i.id',
        'app_users a JOIN topics t ON t.profile_id = NEW.id JOIN items i ON i.topic_id = t.id WHERE a.id = NEW.app_user_id',
      ),
      logUpsert(
        dialect,
        'list_entry',
        'e.id',
        `app_users a JOIN topics t ON t.profile_id = NEW.id JOIN items i ON i.topic_id = t.id
          JOIN list_contents lc ON lc.item_id = i.id JOIN list_entries e ON e.list_content_id = lc.id WHERE a.id = NEW.app_user_id`,
      ),
    ].join('\n'),
  });
  return triggers;
}

export function changesMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('changes'), dialect)
        .addColumn('app_user_id', 'integer', (c) => c.notNull().references('app_users.id').onDelete('cascade'))
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('type', 'varchar(20)', (c) => c.notNull())
        .addColumn('object_id', 'integer', (c) => c.notNull())
        .addColumn('op', 'varchar(6)', (c) => c.notNull())
        .addColumn('profile_id', 'integer')
        .addColumn('in_private', 'smallint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('changes_app_user').on('changes').columns(['app_user_id', 'id']).execute();
      await db.schema
        .createTable('changes_horizon')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('swept_through', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('changes_horizon').values({ id: 1, swept_through: 0 }).execute();
      // What exists already is the state every client starts from: one upsert per app user
      // gives each a cursor.
      await sql
        .raw(
          `INSERT INTO changes (${CHANGE_COLUMNS}) SELECT id, account_id, 'app_user', id, 'upsert', NULL, NULL, ${NOW_MS[dialect]} FROM app_users`,
        )
        .execute(db);

      await createRowTriggers(db, dialect, statements(dialect));
      if (dialect === 'postgres') await notifications(db);
    },
  };
}

/** PostgreSQL: what wakes the live streams of every instance, sent at commit. */
async function notifications(db: Kysely<any>): Promise<void> {
  await sql`CREATE FUNCTION notify_profile_data() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('profile_data', NEW.account_id::text); RETURN NULL; END $$`.execute(db);
  await sql`CREATE TRIGGER notify_profile_data AFTER INSERT OR UPDATE OF data_version ON app_users
    FOR EACH ROW EXECUTE FUNCTION notify_profile_data()`.execute(db);
  await sql`CREATE FUNCTION notify_token_access() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('profile_access', OLD.account_id::text); RETURN NULL; END $$`.execute(db);
  await sql`CREATE TRIGGER notify_token_access AFTER DELETE ON auth_tokens
    FOR EACH ROW EXECUTE FUNCTION notify_token_access()`.execute(db);
  await sql`CREATE FUNCTION notify_accessor_access() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.user_with_access_id IS NOT NULL THEN
        PERFORM pg_notify('profile_access', OLD.user_with_access_id::text);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER notify_accessor_access AFTER UPDATE OR DELETE ON accessors
    FOR EACH ROW EXECUTE FUNCTION notify_accessor_access()`.execute(db);
}
