// Before a change that adds a way into the account (a passkey, a linked sign-in provider), its
// owner proves again to be there, so that a stolen token alone cannot add a way in that
// outlives it: the password — or, for an account without one (made by another provider), a
// fresh sign-in: the session asking was opened within the last 5 minutes.
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import { sessionOpenedAt } from '../../auth/token-queries.ts';
import type { AppContext } from '../../context.ts';
import { fieldError, type Message, nonFieldError } from '../../errors.ts';
import { hasPassword } from '../core/ways-in.ts';

/** How recent a sign-in stands in for the password of an account without one. */
export const FRESH_SIGN_IN_MS = 5 * 60_000;

/** What the refusals say, in the words of the change asked for. */
export interface ConfirmationSentences {
  /** 400 under `password`: the account has one and none was sent. */
  passwordNeeded: Message;
  /** 400 (non-field): no password, and the session is older than 5 minutes. */
  signInAgain: Message;
}

/**
 * Throws 400 unless the caller proved to be the owner: the password (a wrong one is 400 under
 * `password`, counted per account by `passwordChecks`), or, without one, a fresh session.
 */
export async function confirmOwner(
  ctx: AppContext,
  passwordChecks: PasswordCheckThrottle,
  caller: { accountId: number; tokenId: number },
  account: { id: number; password_hash: string },
  password: string | undefined,
  sentences: ConfirmationSentences,
): Promise<void> {
  if (hasPassword(account)) {
    if (password === undefined) throw fieldError('password', sentences.passwordNeeded);
    await (await passwordChecks.checkPassword(account, password)).succeeded();
    return;
  }
  const openedAt = await sessionOpenedAt(ctx.db.kysely, caller.accountId, caller.tokenId);
  if (openedAt === undefined || ctx.clock.now() - openedAt > FRESH_SIGN_IN_MS) throw nonFieldError(sentences.signInAgain);
}
