// ID tokens apps signed in with, so that each works once (a replayed one is refused), kept by
// the hash of their signed part (identity-sign-in.ts) until they expire, when they could not be
// used anyway.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** False when the token was used before; of two requests with one token, one records it. */
export async function recordUsedToken(db: Kysely<Database>, tokenHash: string, expiresAt: number): Promise<boolean> {
  const result = await db
    .insertInto('oidc_used_tokens')
    .values({ token_hash: tokenHash, expires_at: expiresAt })
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
