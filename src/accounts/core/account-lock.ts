import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';

/**
 * Serialises changes to one account's addresses, keys and password: on PostgreSQL by locking
 * the account row until the transaction ends. SQLite runs one write transaction at a time
 * already. Without it, two concurrent primary changes could both clear the old primary and
 * then collide on the one-primary index, and two key requests could both pass the cooldown.
 */
export async function lockAccount(ctx: AppContext, trx: Kysely<Database>, accountId: number): Promise<void> {
  await ctx.db.lockRows(trx.selectFrom('accounts').select('id').where('id', '=', accountId)).execute();
}
