// App users (contract §5). One app user per account: the unique index on
// app_users.account_id decides when two creates race, and its violation is the same 400.
import type { AppContext } from '../context.ts';
import type { UniqueIndex } from '../db/database.ts';
import { nonFieldError, notFound } from '../errors.ts';
import { queueMediaRemoval } from '../media/media-removal.ts';
import {
  accountFirstName,
  accountHasAppUser,
  deleteAppUser,
  findAppUser,
  insertAppUser,
  listAppUsers,
  mediaStorageKeys,
  updateAppUser,
} from './app-user-queries.ts';
import { toAppUser, toAppUserDetail, type AppUser, type AppUserDetail, type AppUserInput, type AppUserRow } from './app-user-schemas.ts';
import { ownedAppUser, writeOwned } from './owned-write.ts';
import { listProfiles } from './profile-queries.ts';
import { toProfile } from './profile-schemas.ts';

const ONE_APP_USER = 'This account already has an app user; an account may have only one.';

const APP_USER_PER_ACCOUNT: UniqueIndex = { name: 'app_users_account_key', columns: 'app_users.account_id' };

async function detail(ctx: AppContext, accountId: number, row: AppUserRow): Promise<AppUserDetail> {
  const profiles = await listProfiles(ctx.db.kysely, accountId, row.id);
  return toAppUserDetail(
    ctx,
    row,
    profiles.map((profile) => toProfile(ctx, profile)),
  );
}

export async function listAccountAppUsers(ctx: AppContext, accountId: number): Promise<AppUser[]> {
  const rows = await listAppUsers(ctx.db.kysely, accountId);
  return rows.map((row) => toAppUser(ctx, row));
}

export async function getAppUser(ctx: AppContext, accountId: number, id: number): Promise<AppUserDetail> {
  const row = await findAppUser(ctx.db.kysely, accountId, id);
  if (!row) throw notFound();
  return detail(ctx, accountId, row);
}

/** The one write with nothing above it to bump: the new row starts its data version. */
export async function createAppUser(ctx: AppContext, accountId: number, input: AppUserInput): Promise<AppUser> {
  const db = ctx.db.kysely;
  if (await accountHasAppUser(db, accountId)) throw nonFieldError(ONE_APP_USER);
  const name = input.name ?? (await accountFirstName(db, accountId));
  try {
    return toAppUser(ctx, await insertAppUser(db, { accountId, name, quote: input.quote ?? null, now: ctx.clock.now() }));
  } catch (error) {
    if (ctx.db.isUniqueViolation(error, APP_USER_PER_ACCOUNT)) throw nonFieldError(ONE_APP_USER);
    throw error;
  }
}

export async function changeAppUser(ctx: AppContext, accountId: number, id: number, changes: AppUserInput): Promise<AppUserDetail> {
  const row = await writeOwned(ctx, ownedAppUser(accountId, id), async (trx) => {
    const values = {
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.quote !== undefined && { quote: changes.quote }),
    };
    return Object.keys(values).length === 0 ? findAppUser(trx, accountId, id) : updateAppUser(trx, accountId, id, values);
  });
  if (!row) throw notFound();
  return detail(ctx, accountId, row);
}

/** Deletes the app user and, through the foreign keys, everything it holds; then its media files. */
export async function removeAppUser(ctx: AppContext, accountId: number, id: number): Promise<void> {
  await writeOwned(ctx, ownedAppUser(accountId, id), async (trx) => {
    const keys = await mediaStorageKeys(trx, accountId, id);
    if (!(await deleteAppUser(trx, accountId, id))) throw notFound();
    // Durable: the removal commits with the delete, and survives a crash right after it.
    await queueMediaRemoval(ctx, trx, keys);
  });
  ctx.outbox.wake();
}
