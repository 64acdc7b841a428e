// Whether a live stream may go on: its token still there, and the caller's access to the app
// user what it was when the stream began.
import type { Kysely } from 'kysely';
import { currentGrant, grantSees } from '../auth/grants.ts';
import { sameChosen } from '../db/chosen-ids.ts';
import type { Database } from '../db/schema.ts';

export interface StreamHolder {
  tokenId: number;
  callerAccountId: number;
  appUserId: number;
  /** The accessor the stream runs under, with its rights then; null for the owner. */
  grant: { accessorId: number; canWrite: boolean; privateAccess: boolean; profiles: readonly number[] | null } | null;
}

/** `now`: an accessor past its expiry ends the stream as a revocation does. */
export async function streamStillAllowed(db: Kysely<Database>, holder: StreamHolder, now: number): Promise<boolean> {
  const token = await db
    .selectFrom('auth_tokens')
    .select('id')
    .where('id', '=', holder.tokenId)
    .where('account_id', '=', holder.callerAccountId)
    .executeTakeFirst();
  if (!token) return false;
  if (!holder.grant) {
    const own = await db
      .selectFrom('app_users')
      .select('id')
      .where('id', '=', holder.appUserId)
      .where('account_id', '=', holder.callerAccountId)
      .executeTakeFirst();
    return own !== undefined;
  }
  // The app user itself is never private: the grant must still see it, held by the same
  // account, with the rights the stream began with (its cursors are sealed to them).
  const grant = await currentGrant(db, holder.grant.accessorId, now);
  return (
    grant !== undefined &&
    grant.accessorAccountId === holder.callerAccountId &&
    grantSees(grant, { app_user_id: holder.appUserId, in_private: 0, profile_id: null }) &&
    grant.canWrite === holder.grant.canWrite &&
    grant.privateAccess === holder.grant.privateAccess &&
    sameChosen(grant.profiles, holder.grant.profiles)
  );
}
