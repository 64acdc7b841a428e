// Whether a live stream may go on: its token still there, and the caller's access to the app
// user what it was when the stream began.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface StreamHolder {
  tokenId: number;
  callerAccountId: number;
  appUserId: number;
  /** The accessor the stream runs under, with its rights then; null for the owner. */
  grant: { accessorId: number; canWrite: boolean; privateAccess: boolean } | null;
}

export async function streamStillAllowed(db: Kysely<Database>, holder: StreamHolder): Promise<boolean> {
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
  const accessor = await db
    .selectFrom('accessors')
    .select(['can_write', 'has_private_profile_access'])
    .where('id', '=', holder.grant.accessorId)
    .where('user_with_access_id', '=', holder.callerAccountId)
    .where('app_user_id', '=', holder.appUserId)
    .where('accepted_at', 'is not', null)
    .executeTakeFirst();
  return (
    accessor !== undefined &&
    (accessor.can_write === 1) === holder.grant.canWrite &&
    (accessor.has_private_profile_access === 1) === holder.grant.privateAccess
  );
}
