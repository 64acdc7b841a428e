// A signed-in person's identities at other providers (docs/sign-in-providers.md): listing, and unlinking
// one — refused (409) when it is the last way into the account: no password, no other
// identity, no passkey. Unlinking Apple's revokes its refresh token there, through the outbox.
import type { AppContext } from '../../context.ts';
import { conflict, notFound } from '../../errors.ts';
import { lockAccount } from '../core/account-lock.ts';
import { isLastWayIn, waysIn } from '../core/ways-in.ts';
import { deleteIdentity, findIdentity, type IdentityRow, listIdentities } from './identity-queries.ts';
import { queueRefreshTokenRevocations } from './refresh-token-revocation.ts';
import { recordSecurityEvent, type Via } from '../../activity/activity-events.ts';

export const LAST_IDENTITY = 'identity.lastWayIn';

export function identitiesOf(ctx: AppContext, accountId: number): Promise<IdentityRow[]> {
  return listIdentities(ctx.db.kysely, accountId);
}

export async function identityOf(ctx: AppContext, accountId: number, id: number): Promise<IdentityRow> {
  const identity = await findIdentity(ctx.db.kysely, accountId, id);
  if (!identity) throw notFound();
  return identity;
}

export async function unlinkIdentity(ctx: AppContext, accountId: number, id: number, via: Via): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    const identity = await findIdentity(trx, accountId, id);
    if (!identity) throw notFound();
    const ways = await waysIn(trx, accountId);
    if (!ways) throw notFound();
    if (isLastWayIn(ways, 'identity')) throw conflict(LAST_IDENTITY);
    await queueRefreshTokenRevocations(ctx, trx, accountId, id);
    await deleteIdentity(trx, accountId, id);
    await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'identity_removed', via, {
      object: { type: 'identity', id, name: identity.provider },
    });
  });
  ctx.outbox.wake();
}
