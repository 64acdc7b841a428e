import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { queueMemberSync } from '../../mailchimp/queue-member-sync.ts';
import { findAccount, updateAccountLanguage, updateAccountNames } from './account-queries.ts';
import { toAccountWithRole, type AccountWithRole, type ProfileChanges } from './profile-schemas.ts';

export async function getProfile(ctx: AppContext, accountId: number): Promise<AccountWithRole> {
  const account = await findAccount(ctx.db.kysely, accountId);
  if (!account) throw notFound();
  return toAccountWithRole(account);
}

/** Changes the names and the language; a real change of names is synced to the mailing list. */
export async function updateProfile(ctx: AppContext, accountId: number, changes: ProfileChanges): Promise<AccountWithRole> {
  const profile = await ctx.db.transaction(async (trx) => {
    const account = await findAccount(trx, accountId);
    if (!account) throw notFound();
    const names = { first_name: changes.first_name ?? account.first_name, last_name: changes.last_name ?? account.last_name };
    if (names.first_name !== account.first_name || names.last_name !== account.last_name) {
      await updateAccountNames(trx, accountId, names);
      await queueMemberSync(ctx, trx, accountId, {
        previousEmail: account.email,
        email: account.email,
        firstName: names.first_name,
        lastName: names.last_name,
      });
    }
    const language = changes.language ?? account.language;
    if (language !== account.language) await updateAccountLanguage(trx, accountId, language);
    return toAccountWithRole({ ...account, ...names, language });
  });
  ctx.outbox.wake();
  return profile;
}
