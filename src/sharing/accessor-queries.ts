// Queries on accessors. An accessor is the owner's (owner_account_id) and, once accepted, also
// the accepting account's (user_with_access_id); before that, it is seen by whoever has its
// address verified. Every query takes the account it answers for.
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database, Flag } from '../db/schema.ts';
import { chosenProfiles } from '../auth/grants.ts';
import type { AccessorRow } from './accessor-schemas.ts';

type AccessorsAs = Database & { a: Database['accessors'] };

/** The accessor with what its read shape needs: its app user's name, the accepting account's names. */
function accessorView(db: Kysely<Database>) {
  return db
    .selectFrom('accessors as a')
    .innerJoin('app_users as u', 'u.id', 'a.app_user_id')
    .leftJoin('accounts as w', 'w.id', 'a.user_with_access_id')
    .select([
      'a.id',
      'a.app_user_id',
      'a.owner_account_id',
      'a.email',
      'a.user_with_access_id',
      'a.can_write',
      'a.has_private_profile_access',
      'a.expires_at',
      'a.profiles_chosen',
      'a.created_at',
      'u.name as app_user_name',
      'w.first_name as with_first_name',
      'w.last_name as with_last_name',
    ]);
}

type ViewRow = Omit<AccessorRow, 'profiles'> & { profiles_chosen: Flag };

/** The rows with the profiles each accessor chose (one query for all of them; none when none chose). */
async function withProfiles(db: Kysely<Database>, rows: ViewRow[]): Promise<AccessorRow[]> {
  const chosen = await chosenProfiles(
    db,
    rows.filter((row) => row.profiles_chosen === 1).map((row) => row.id),
  );
  return rows.map(({ profiles_chosen, ...row }) => ({ ...row, profiles: profiles_chosen === 1 ? (chosen.get(row.id) ?? []) : null }));
}

/** The accessor's address is a verified address of the account. */
function addressedTo(eb: ExpressionBuilder<AccessorsAs, 'a'>, accountId: number) {
  return eb.exists(
    eb
      .selectFrom('email_addresses as e')
      .select('e.id')
      .whereRef('e.email_lower', '=', 'a.email_lower')
      .where('e.account_id', '=', accountId)
      .where('e.verified', '=', 1),
  );
}

/**
 * Who the account is to the accessor: its owner, or the person invited — the account that
 * accepted it, or, while it is pending, any account that has its address verified.
 */
function seenBy(eb: ExpressionBuilder<AccessorsAs, 'a'>, accountId: number) {
  return eb.or([
    eb('a.owner_account_id', '=', accountId),
    eb('a.user_with_access_id', '=', accountId),
    eb.and([eb('a.user_with_access_id', 'is', null), addressedTo(eb, accountId)]),
  ]);
}

/** The app user's accessors, for its owner. */
export async function listAccessors(db: Kysely<Database>, ownerAccountId: number, appUserId: number): Promise<AccessorRow[]> {
  return withProfiles(
    db,
    await accessorView(db)
      .where('a.app_user_id', '=', appUserId)
      .where('a.owner_account_id', '=', ownerAccountId)
      .orderBy('a.id')
      .execute(),
  );
}

/** Invitations not yet accepted nor past their end date at `now`, addressed to a verified address of the account, on others' app users. */
export async function listPendingAccessors(db: Kysely<Database>, accountId: number, now: number): Promise<AccessorRow[]> {
  const rows = await accessorView(db)
    .innerJoin('email_addresses as e', 'e.email_lower', 'a.email_lower')
    .where('e.account_id', '=', accountId)
    .where('e.verified', '=', 1)
    .where('a.user_with_access_id', 'is', null)
    .where('a.owner_account_id', '!=', accountId)
    .where((eb) => eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', now)]))
    .orderBy('a.id')
    .execute();
  return withProfiles(db, rows);
}

/** The accessors the account accepted: what others share with it. */
export async function listAccessorsSharedWith(db: Kysely<Database>, accountId: number): Promise<AccessorRow[]> {
  return withProfiles(db, await accessorView(db).where('a.user_with_access_id', '=', accountId).orderBy('a.id').execute());
}

/** The accessor, when the account is its owner or the person invited. */
export async function findAccessor(db: Kysely<Database>, accountId: number, id: number): Promise<AccessorRow | undefined> {
  const row = await accessorView(db)
    .where('a.id', '=', id)
    .where((eb) => seenBy(eb, accountId))
    .executeTakeFirst();
  return row && (await withProfiles(db, [row]))[0];
}

export interface AccessorHandle {
  id: number;
  app_user_id: number;
  owner_account_id: number;
  email: string;
  user_with_access_id: number | null;
  can_write: Flag;
  expires_at: number | null;
}

/** `findAccessor`'s row without its joins, locked until the transaction ends: what a change needs. */
export function lockAccessor(db: Db, trx: Kysely<Database>, accountId: number, id: number): Promise<AccessorHandle | undefined> {
  return db
    .lockRows(
      trx
        .selectFrom('accessors as a')
        .select(['a.id', 'a.app_user_id', 'a.owner_account_id', 'a.email', 'a.user_with_access_id', 'a.can_write', 'a.expires_at'])
        .where('a.id', '=', id)
        .where((eb) => seenBy(eb, accountId)),
    )
    .executeTakeFirst();
}

/**
 * The owner's app user, locked until the transaction ends: the changes to one app user's
 * accessors (a create and its counts, an accept and its one-per-person check) queue behind each
 * other, and behind the owner's deletion, which locks it first too.
 */
export function lockOwnedAppUser(
  db: Db,
  trx: Kysely<Database>,
  ownerAccountId: number,
  appUserId: number,
): Promise<{ id: number; name: string } | undefined> {
  return db
    .lockRows(trx.selectFrom('app_users').select(['id', 'name']).where('id', '=', appUserId).where('account_id', '=', ownerAccountId))
    .executeTakeFirst();
}

export async function countAccessors(db: Kysely<Database>, appUserId: number): Promise<number> {
  const row = await db
    .selectFrom('accessors')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('app_user_id', '=', appUserId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The address is one of the account's, verified or not. */
export async function isOwnAddress(db: Kysely<Database>, accountId: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('email_addresses')
    .select('id')
    .where('account_id', '=', accountId)
    .where('email_lower', '=', email.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export async function isInvited(db: Kysely<Database>, appUserId: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('accessors')
    .select('id')
    .where('app_user_id', '=', appUserId)
    .where('email_lower', '=', email.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** The account already has an accepted accessor on the app user (through another of its addresses). */
export async function hasAccepted(db: Kysely<Database>, accountId: number, appUserId: number): Promise<boolean> {
  const row = await db
    .selectFrom('accessors')
    .select('id')
    .where('app_user_id', '=', appUserId)
    .where('user_with_access_id', '=', accountId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertAccessor(
  trx: Kysely<Database>,
  values: {
    appUserId: number;
    ownerAccountId: number;
    email: string;
    canWrite: boolean;
    privateAccess: boolean;
    expiresAt: number | null;
    now: number;
  },
): Promise<number> {
  const row = await trx
    .insertInto('accessors')
    .values({
      app_user_id: values.appUserId,
      owner_account_id: values.ownerAccountId,
      email: values.email,
      email_lower: values.email.toLowerCase(),
      user_with_access_id: null,
      can_write: values.canWrite ? 1 : 0,
      has_private_profile_access: values.privateAccess ? 1 : 0,
      created_at: values.now,
      accepted_at: null,
      expires_at: values.expiresAt,
      expiry_told_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePermissions(
  trx: Kysely<Database>,
  ownerAccountId: number,
  id: number,
  changes: {
    can_write?: Flag;
    has_private_profile_access?: Flag;
    expires_at?: number | null;
    expiry_told_at?: null;
    profiles_chosen?: Flag;
  },
): Promise<void> {
  await trx.updateTable('accessors').set(changes).where('id', '=', id).where('owner_account_id', '=', ownerAccountId).execute();
}

/**
 * The profiles the accessor sees from now: `profiles` (ids of its app user's profiles, checked
 * by the caller), or all of them (null). Written with `profiles_chosen` on the accessor's own
 * row, so that what watches accessors (grants kept in memory) hears of it.
 */
export async function setAccessorProfiles(
  trx: Kysely<Database>,
  ownerAccountId: number,
  id: number,
  profiles: readonly number[] | null,
): Promise<void> {
  await trx.deleteFrom('accessor_profiles').where('accessor_id', '=', id).execute();
  if (profiles !== null && profiles.length > 0) {
    await trx
      .insertInto('accessor_profiles')
      .values(profiles.map((profile_id) => ({ accessor_id: id, profile_id })))
      .execute();
  }
  await updatePermissions(trx, ownerAccountId, id, { profiles_chosen: profiles === null ? 0 : 1 });
}

/** Binds a pending accessor to the account; false when it is no longer pending. */
export async function bindAccessor(trx: Kysely<Database>, id: number, accountId: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('accessors')
    .set({ user_with_access_id: accountId, accepted_at: now })
    .where('id', '=', id)
    .where('user_with_access_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteAccessor(trx: Kysely<Database>, id: number): Promise<void> {
  await trx.deleteFrom('accessors').where('id', '=', id).execute();
}
