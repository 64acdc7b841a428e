// Deleting the account (docs/accounts.md): the person's password — or, for an account without one
// (docs/sign-in-providers.md), a sign-in within the last 5 minutes — and an MFA code when MFA is on; then
// one transaction that removes the account and everything it holds, through the foreign keys (addresses, keys, sessions, e-mail records, MFA's
// secret, codes and challenges, the app user and all below it, media rows, and the accessors
// in both directions: those of its app user, those it sent, and those it accepted) and the
// outbox messages that carry its data. Invitations others sent to one of its addresses and
// that it never accepted refer to no account: they stay with their senders, and the address
// may register again. In that same transaction go the messages that outlive it: the
// removal of its media files (durable: a crash after the commit still removes them), the last
// notice to its primary address, the list member's permanent deletion when Mailchimp sync
// is on, and the revocation of its identities' refresh tokens at Apple. A repeat that finds the account already gone answers as the first did (204) and
// queues nothing.
import type { Kysely } from 'kysely';
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import type { Caller } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { queueEmail } from '../../mail/email-delivery.ts';
import { recipientLanguage } from '../../mail/recipient-language.ts';
import { accountDeletedMessage } from '../../mail/messages.ts';
import { queueMemberDeletion } from '../../mailchimp/queue-member-sync.ts';
import { queueMediaRemoval } from '../../media/media-removal.ts';
import { lockAccount } from '../core/account-lock.ts';
import { findAccount } from '../core/account-queries.ts';
import { requireSecondFactor } from '../mfa/mfa-check.ts';
import { hasPassword } from '../core/ways-in.ts';
import { sessionOpenedAt } from '../../auth/token-queries.ts';
import { fieldError, nonFieldError } from '../../errors.ts';
import { queueRefreshTokenRevocations } from '../identities/refresh-token-revocation.ts';
import { appUserHolding, BULK_THRESHOLD, removeInBatches } from '../../app-data/bulk-removal.ts';
import { queueAccountEvent } from '../../webhooks/webhook-events.ts';

export const PASSWORD_NEEDED = 'deletion.passwordNeeded';
export const SIGN_IN_AGAIN = 'deletion.signInAgain';
/** How recent a sign-in stands in for the password of an account without one. */
const FRESH_SIGN_IN_MS = 5 * 60_000;

function passwordOf(proof: { password?: string }): string {
  if (proof.password === undefined) throw fieldError('password', PASSWORD_NEEDED);
  return proof.password;
}

/** The caller's session was opened within the last 5 minutes; nothing to count then. */
async function freshSignIn(ctx: AppContext, caller: Caller): Promise<{ succeeded(): Promise<void> }> {
  const openedAt = await sessionOpenedAt(ctx.db.kysely, caller.accountId, caller.tokenId);
  if (openedAt === undefined || ctx.clock.now() - openedAt > FRESH_SIGN_IN_MS) throw nonFieldError(SIGN_IN_AGAIN);
  return { succeeded: async () => {} };
}

/** `code`: the MFA code, needed when MFA is on. `password`: absent for an account without one. */
export async function deleteAccount(
  ctx: AppContext,
  passwordChecks: PasswordCheckThrottle,
  caller: Caller,
  proof: { password?: string; code?: string },
): Promise<void> {
  const account = await findAccount(ctx.db.kysely, caller.accountId);
  // Deleted by a repeat of this request since its token was checked: done, as asked.
  if (!account) return;
  // Counted until both the password and the MFA code were right. An account without a password
  // (made by another provider, docs/sign-in-providers.md) proves it is its owner by a fresh sign-in instead.
  const attempt = hasPassword(account) ? await passwordChecks.checkPassword(account, passwordOf(proof)) : await freshSignIn(ctx, caller);
  await removeAccount(ctx, account, { proof: (trx) => requireSecondFactor(ctx, trx, account, proof.code, caller.via) });
  await attempt.succeeded();
}

export interface RemovalSteps {
  /** What must hold before anything is removed (the MFA code), in a transaction that removes nothing if it throws. */
  proof?: (trx: Kysely<Database>) => Promise<void>;
  /** Written in the transaction that removes the account (an operator's audit record). */
  alongside?: (trx: Kysely<Database>) => Promise<void>;
}

/**
 * Removes the account and everything it holds, with its notices (the deletion of docs/accounts.md):
 * the one way an account is deleted, by its owner or by an operator (docs/operators.md). False when
 * it was gone already, and then nothing is queued and `alongside` does not run.
 */
export async function removeAccount(ctx: AppContext, account: { id: number; email: string }, steps: RemovalSteps = {}): Promise<boolean> {
  const accountId = account.id;
  // A large app user's list entries and items go first, in batches, once the MFA code is
  // known right: no one transaction or statement then holds the writer (and, on SQLite, the
  // event loop) for the whole of them. Should the deletion stop after that, its repeat finishes it.
  const held = await appUserHolding(ctx.db.kysely, accountId);
  const inBatches = held !== undefined && held.item_count + held.entry_count > BULK_THRESHOLD;
  if (inBatches) {
    if (steps.proof) await ctx.db.transaction(steps.proof);
    await removeInBatches(ctx, accountId, held.id);
  }

  const deleted = await ctx.db.transaction(async (trx) => {
    await lockInWriteOrder(ctx, trx, accountId);
    if (!inBatches) await steps.proof?.(trx);
    const media = await trx.selectFrom('media_resources').select('storage_key').where('account_id', '=', accountId).execute();
    // Before the identities go with the account: Apple's refresh tokens are revoked there afterwards.
    await queueRefreshTokenRevocations(ctx, trx, accountId);
    await trx.deleteFrom('outbox').where('account_id', '=', accountId).execute();
    // The last notice is written in the account's language: read before the account goes.
    const language = await recipientLanguage(ctx.config, trx, accountId);
    const removed = await trx.deleteFrom('accounts').where('id', '=', accountId).executeTakeFirst();
    // A repeat of the request (a double click, a client retrying) that ran after another one
    // deleted the account: what it asked for is done, and the notices are already queued.
    if (Number(removed.numDeletedRows) === 0) return false;
    await queueMediaRemoval(
      ctx,
      trx,
      media.map((row) => row.storage_key),
    );
    await queueEmail(ctx, trx, accountDeletedMessage(language, account.email), null);
    await queueMemberDeletion(ctx, trx, account.email);
    await queueAccountEvent(ctx, trx, 'account.deleted', accountId);
    await steps.alongside?.(trx);
    return true;
  });
  if (deleted) ctx.outbox.wake();
  return deleted;
}

/**
 * Locks the account's app user, then the account: the order of every personal-data write,
 * which bumps the app user's data version first (owned-write.ts) and then, inserting, checks
 * its foreign key against the account row. The cascade alone takes them the other way round
 * (the account, then the app user), and on PostgreSQL deadlocked with such a write.
 */
async function lockInWriteOrder(ctx: AppContext, trx: Kysely<Database>, accountId: number): Promise<void> {
  await ctx.db.lockRows(trx.selectFrom('app_users').select('id').where('account_id', '=', accountId)).execute();
  await lockAccount(ctx, trx, accountId);
}
