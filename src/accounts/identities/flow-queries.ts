// The web flows under way (docs/sign-in-providers.md), in the database so that any instance can take the
// provider's answer to a flow another began (docs/production.md). Each is spent by deleting it.
import type { Kysely, Selectable } from 'kysely';
import type { Database, OidcFlowsTable } from '../../db/schema.ts';

export type FlowRow = Selectable<OidcFlowsTable>;

export async function insertFlow(db: Kysely<Database>, values: Omit<FlowRow, 'id'>): Promise<void> {
  await db.insertInto('oidc_flows').values(values).execute();
}

/**
 * Deletes and returns the provider's flow with this state, when it has not expired at `now`
 * and belongs to this browser (the hash of its cookie); another browser's attempt leaves it be.
 */
export async function spendFlow(
  db: Kysely<Database>,
  provider: string,
  state: string,
  browserHash: string,
  now: number,
): Promise<FlowRow | undefined> {
  const row = await db
    .deleteFrom('oidc_flows')
    .where('state', '=', state)
    .where('provider', '=', provider)
    .where('browser_hash', '=', browserHash)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  return row && { ...row, expires_at: Number(row.expires_at) };
}

export async function deleteOidcLeftoversBefore(db: Kysely<Database>, time: number): Promise<number> {
  const flows = await db.deleteFrom('oidc_flows').where('expires_at', '<', time).executeTakeFirst();
  const codes = await db.deleteFrom('login_codes').where('expires_at', '<', time).executeTakeFirst();
  const used = await db.deleteFrom('oidc_used_tokens').where('expires_at', '<', time).executeTakeFirst();
  return Number(flows.numDeletedRows) + Number(codes.numDeletedRows) + Number(used.numDeletedRows);
}
