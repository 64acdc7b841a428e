// App users (docs/app-data.md, docs/sharing.md). One app user per account: the unique index on
// app_users.account_id decides when two creates race, and its violation is the same 400. The
// caller's list holds their own app user first, then those shared with them.
import type { Caller } from '../auth/token-auth.ts';
import type { AppContext } from '../context.ts';
import type { UniqueIndex } from '../db/database.ts';
import { nonFieldError, notFound } from '../errors.ts';
import { queueMediaRemoval } from '../media/media-removal.ts';
import type { Access } from './kernel/access.ts';
import {
  accountFirstName,
  accountHasAppUser,
  deleteAppUser,
  findAppUser,
  findAppUsersByIds,
  insertAppUser,
  listAppUsers,
  mediaStorageKeys,
  updateAppUser,
} from './app-user-queries.ts';
import {
  OWNED,
  toAppUser,
  toAppUserDetail,
  type AppUser,
  type AppUserDetail,
  type AppUserInput,
  type AppUserRow,
} from './app-user-schemas.ts';
import { claimKey } from './kernel/idempotent-create.ts';
import { ownedAppUser, writeOwned } from './kernel/owned-write.ts';
import type { WriteTerms } from './kernel/write-terms.ts';
import { listProfiles } from './profile-queries.ts';
import { toProfile } from './profile-schemas.ts';

const ONE_APP_USER = 'appData.oneAppUser';

const APP_USER_PER_ACCOUNT: UniqueIndex = { name: 'app_users_account_key', columns: 'app_users.account_id' };

async function detail(ctx: AppContext, access: Access, row: AppUserRow): Promise<AppUserDetail> {
  const profiles = await listProfiles(ctx.db.kysely, access.accountId, row.id, access.seesPrivate, access.profiles);
  return toAppUserDetail(
    ctx,
    row,
    access,
    profiles.map((profile) => toProfile(ctx, profile)),
  );
}

/** The caller's own app user, then those shared with them, by id. */
export async function listCallerAppUsers(ctx: AppContext, caller: Caller): Promise<AppUser[]> {
  const own = await listAppUsers(ctx.db.kysely, caller.accountId);
  const list = own.map((row) => toAppUser(ctx, row, OWNED));
  const grants = await caller.grants();
  if (grants.length === 0) return list;
  const shared = await findAppUsersByIds(
    ctx.db.kysely,
    grants.map((g) => g.appUserId),
  );
  for (const row of shared) {
    const grant = grants.find((g) => g.appUserId === row.id);
    if (grant) list.push(toAppUser(ctx, row, { grant }));
  }
  return list;
}

export async function getAppUser(ctx: AppContext, access: Access, id: number): Promise<AppUserDetail> {
  const row = await findAppUser(ctx.db.kysely, access.accountId, id);
  if (!row) throw notFound();
  return detail(ctx, access, row);
}

/** The one write with nothing above it to bump: the new row starts its data version. */
export async function createAppUser(ctx: AppContext, accountId: number, input: AppUserInput, terms: WriteTerms): Promise<AppUser> {
  const db = ctx.db.kysely;
  if (await accountHasAppUser(db, accountId)) throw nonFieldError(ONE_APP_USER);
  const name = input.name ?? (await accountFirstName(db, accountId));
  try {
    const row = await ctx.db.writeTransaction(async (trx) => {
      await claimKey(ctx, trx, terms.idempotencyKey);
      return insertAppUser(trx, { accountId, name, quote: input.quote ?? null, now: ctx.clock.now() });
    });
    return toAppUser(ctx, row, OWNED);
  } catch (error) {
    if (ctx.db.isUniqueViolation(error, APP_USER_PER_ACCOUNT)) throw nonFieldError(ONE_APP_USER);
    throw error;
  }
}

/** Owner only (the route asks for it). */
export async function changeAppUser(
  ctx: AppContext,
  access: Access,
  id: number,
  changes: AppUserInput,
  terms: WriteTerms,
): Promise<AppUserDetail> {
  const { accountId } = access;
  const row = await writeOwned(ctx, terms, ownedAppUser(access, id), async (trx) => {
    const values = {
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.quote !== undefined && { quote: changes.quote }),
    };
    return Object.keys(values).length === 0 ? findAppUser(trx, accountId, id) : updateAppUser(trx, accountId, id, values);
  });
  if (!row) throw notFound();
  return detail(ctx, access, row);
}

/** Deletes the app user and, through the foreign keys, everything it holds; then its media files. Owner only. */
export async function removeAppUser(ctx: AppContext, access: Access, id: number, terms: WriteTerms): Promise<void> {
  const { accountId } = access;
  await writeOwned(ctx, terms, ownedAppUser(access, id), async (trx) => {
    const keys = await mediaStorageKeys(trx, accountId, id);
    if (!(await deleteAppUser(trx, accountId, id))) throw notFound();
    // Durable: the removal commits with the delete, and survives a crash right after it.
    await queueMediaRemoval(ctx, trx, keys);
  });
  ctx.outbox.wake();
}
