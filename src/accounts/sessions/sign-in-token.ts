// The token a way in (password, the second step, a passkey) gives: never to a disabled account
// (docs/operators.md). The check and the token are one transaction holding the account's row
// (lockAccount), as disabling holds it while it deletes the account's tokens: whichever comes
// second sees the other, so no token outlives the account's disabling.
import type { Kysely } from 'kysely';
import { issueToken } from '../../auth/token-queries.ts';
import type { AppContext } from '../../context.ts';
import type { Database, SignInMethod } from '../../db/schema.ts';
import { nonFieldError, type DomainError } from '../../errors.ts';
import { lockAccount } from '../core/account-lock.ts';
import type { SessionOrigin } from './session-origin.ts';
import { recordSecurityEvent } from '../../activity/activity-events.ts';

export const ACCOUNT_DISABLED = 'login.accountDisabled';

export function accountDisabled(): DomainError {
  return nonFieldError(ACCOUNT_DISABLED);
}

/**
 * A new session token for the account, inside the caller's transaction, recording how the
 * session was opened; 400 when the account is disabled.
 */
export async function issueSignInToken(
  ctx: AppContext,
  trx: Kysely<Database>,
  accountId: number,
  method: SignInMethod,
  origin: SessionOrigin,
  identityId?: number,
): Promise<string> {
  await lockAccount(ctx, trx, accountId);
  const now = ctx.clock.now();
  const updated = await trx
    .updateTable('accounts')
    .set({ last_sign_in_at: now })
    .where('id', '=', accountId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    // Gone accounts answer as their routes say (gone-account.ts): only a disabled one is refused here.
    const row = await trx.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (row) throw accountDisabled();
  }
  const token = await issueToken(trx, accountId, now, method, origin);
  // In the account's security log: the method (a provider by its name) and the session's origin.
  const provider =
    identityId === undefined
      ? undefined
      : await trx.selectFrom('identities').select('provider').where('id', '=', identityId).executeTakeFirst();
  const how = provider ? method.replace('provider', provider.provider) : method;
  await recordSecurityEvent(trx, accountId, now, 'signed_in', origin.via, {
    object: { type: 'session', id: null, name: how },
    ipAddress: origin.ipAddress ?? null,
    userAgent: origin.userAgent ?? null,
  });
  return token;
}
