// What an account may see of others' data (contract §12): its accepted accessors, read with
// every token check (token-finder.ts), so that a request for shared data needs no query of its
// own to know whether it may go on, and a revocation or a permission change counts from the
// next request on every instance.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** One app user shared with the caller, as the caller's accessor sees it. */
export interface Grant {
  accessorId: number;
  appUserId: number;
  ownerAccountId: number;
  canWrite: boolean;
  privateAccess: boolean;
  /** The shared app user's data version (null: gone): cached renderings of its data are stamped with it. */
  dataVersion(): Promise<number | null>;
}

export const NO_GRANTS: readonly Grant[] = Object.freeze([]);

/** A grant's columns as the queries below read them (flags as 0/1). */
export interface GrantRow {
  accessorId: number;
  appUserId: number;
  ownerAccountId: number;
  canWrite: number;
  privateAccess: number;
}

export const toGrant = (row: GrantRow, dataVersion: () => Promise<number | null>): Grant => ({
  accessorId: row.accessorId,
  appUserId: row.appUserId,
  ownerAccountId: row.ownerAccountId,
  canWrite: row.canWrite === 1,
  privateAccess: row.privateAccess === 1,
  dataVersion,
});

/** The accepted accessors of an account, by app user. */
export function grantRows(db: Kysely<Database>, accountId: number): Promise<GrantRow[]> {
  return db
    .selectFrom('accessors')
    .select([
      'id as accessorId',
      'app_user_id as appUserId',
      'owner_account_id as ownerAccountId',
      'can_write as canWrite',
      'has_private_profile_access as privateAccess',
    ])
    .where('user_with_access_id', '=', accountId)
    .orderBy('app_user_id')
    .execute();
}

/**
 * PostgreSQL's token lookup reads the grants in the same query, as one JSON array per token
 * (null: none), each with its app user's data version. For an account that shares nothing with
 * anyone it is one probe of an empty index range.
 */
export const GRANTS_SUBQUERY = `(select json_agg(json_build_array(g.id, g.app_user_id, g.owner_account_id, g.can_write,
    g.has_private_profile_access, u.data_version) order by g.app_user_id)
  from accessors g join app_users u on u.id = g.app_user_id where g.user_with_access_id = t.account_id)`;

/** The JSON of `GRANTS_SUBQUERY` as grants. */
export function grantsFromJson(json: [number, number, number, number, number, number][] | null): readonly Grant[] {
  if (json === null) return NO_GRANTS;
  return json.map(([accessorId, appUserId, ownerAccountId, canWrite, privateAccess, dataVersion]) => {
    const version = Promise.resolve(dataVersion);
    return toGrant({ accessorId, appUserId, ownerAccountId, canWrite, privateAccess }, () => version);
  });
}
