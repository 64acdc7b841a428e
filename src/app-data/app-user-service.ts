// Creating, changing and deleting app users. One app user per account: the unique index on
// app_users.account_id decides when two creates race, and its violation is the same 400.
import type { AppContext } from '../context.ts';
import { nonFieldError, notFound } from '../http/errors.ts';
import {
  accountFirstName, accountHasAppUser, deleteAppUser, findAppUser, insertAppUser, mediaStorageKeys, updateAppUser,
} from './app-user-queries.ts';
import type { AppUserInput, AppUserRow } from './app-user-schemas.ts';
import { isUniqueViolation } from './constraint-errors.ts';
import { startChange, writeAppData } from './write-transaction.ts';

const ONE_APP_USER = 'This account already has an app user; an account may have only one.';

export async function createAppUser(ctx: AppContext, accountId: number, input: AppUserInput): Promise<AppUserRow> {
  const db = ctx.db.kysely;
  if (await accountHasAppUser(db, accountId)) throw nonFieldError(ONE_APP_USER);
  const name = input.name ?? await accountFirstName(db, accountId);
  try {
    return await insertAppUser(db, { accountId, name, quote: input.quote ?? null, now: ctx.clock.now() });
  } catch (error) {
    if (isUniqueViolation(error, 'app_users_account_key', 'app_users.account_id')) throw nonFieldError(ONE_APP_USER);
    throw error;
  }
}

export async function changeAppUser(ctx: AppContext, accountId: number, id: number, changes: AppUserInput): Promise<AppUserRow> {
  return writeAppData(ctx, async (trx) => {
    const appUser = await findAppUser(trx, accountId, id);
    if (!appUser) throw notFound();
    await startChange(trx, id);
    const values = {
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.quote !== undefined && { quote: changes.quote }),
    };
    if (Object.keys(values).length === 0) return appUser;
    const updated = await updateAppUser(trx, accountId, id, values);
    if (!updated) throw notFound();
    return updated;
  });
}

/**
 * Deletes the app user and, through the foreign keys, everything it holds. Returns the storage
 * keys of its media files, whose rows went with it, so the caller can remove the files.
 */
export async function removeAppUser(ctx: AppContext, accountId: number, id: number): Promise<string[]> {
  return writeAppData(ctx, async (trx) => {
    const storageKeys = await mediaStorageKeys(trx, accountId, id);
    if (!await deleteAppUser(trx, accountId, id)) throw notFound();
    return storageKeys;
  });
}
