// Apple's refresh tokens (docs/sign-in-providers.md): kept sealed with the identity, and revoked at the
// provider when the account is deleted. The revocation is an outbox message written in the
// deletion's transaction, attributed to no account so that it outlives it; the token stays
// sealed in the message and is opened only to send it, to the revocation_endpoint that
// discovery names. A delivered message keeps nothing of the token.
import type { Kysely } from 'kysely';
import { ResponseBodyError } from 'openid-client';
import type { OidcProviders } from '../../auth/oidc-relying-party.ts';
import type { SecretBox } from '../../auth/secret-box.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { PermanentDeliveryError } from '../../outbox/outbox.ts';
import type { DeliveryHandler } from '../../outbox/worker.ts';

export interface RefreshTokenRevocation {
  provider: string;
  issuer: string;
  subject: string;
  clientId: string;
  /** The refresh token as the identity kept it: sealed. */
  sealed: string;
}

/** What a refresh token is sealed for: its identity, so that a value copied elsewhere does not open. */
export function refreshTokenContext(identity: { issuer: string; subject: string }): string {
  return `identity-refresh-token:${identity.issuer}:${identity.subject}`;
}

/**
 * In the transaction that removes them: the account's identities (its deletion), or one of
 * them (`identityId`: unlinking it).
 */
export async function queueRefreshTokenRevocations(
  ctx: AppContext,
  trx: Kysely<Database>,
  accountId: number,
  identityId?: number,
): Promise<void> {
  let query = trx
    .selectFrom('identities')
    .select(['provider', 'issuer', 'subject', 'client_id', 'refresh_token'])
    .where('account_id', '=', accountId)
    .where('refresh_token', 'is not', null);
  if (identityId !== undefined) query = query.where('id', '=', identityId);
  const identities = await query.execute();
  for (const identity of identities) {
    if (identity.refresh_token === null || identity.client_id === null) continue;
    const job: RefreshTokenRevocation = {
      provider: identity.provider,
      issuer: identity.issuer,
      subject: identity.subject,
      clientId: identity.client_id,
      sealed: identity.refresh_token,
    };
    await ctx.outbox.enqueue(trx, 'oidc-revocation', job, ctx.clock.now());
  }
}

export function oidcRevocationDelivery(providers: OidcProviders, box: SecretBox): DeliveryHandler {
  return {
    redact: (job: RefreshTokenRevocation) => ({ provider: job.provider, revoked: true }),
    async deliver(job: RefreshTokenRevocation) {
      const provider = providers.find(job.provider);
      if (!provider) throw new PermanentDeliveryError(`the sign-in provider "${job.provider}" is no longer configured`);
      const token = box.open(job.sealed, refreshTokenContext(job));
      try {
        await provider.revoke(token, job.clientId);
      } catch (error) {
        // The provider's answer that the request itself is wrong: retrying cannot change it.
        if (error instanceof ResponseBodyError && error.status < 500) throw new PermanentDeliveryError(error.message);
        throw error;
      }
    },
  };
}
