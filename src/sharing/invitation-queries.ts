// What the invitation e-mails need: who the owner is, and the record of invitation e-mails sent
// (table email_sends, kind 'invitation', beside the key e-mails the account rooms record there),
// which the limits on them count and the account sweeper clears once no limit counts them.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Inviter } from '../mail/messages.ts';

/** The owner's names and primary address, as the e-mails name them. */
export async function findInviter(db: Kysely<Database>, accountId: number): Promise<Inviter | undefined> {
  const row = await db
    .selectFrom('accounts')
    .innerJoin('email_addresses', (join) =>
      join.onRef('email_addresses.account_id', '=', 'accounts.id').on('email_addresses.is_primary', '=', 1),
    )
    .select(['accounts.first_name', 'accounts.last_name', 'email_addresses.email'])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
  return row && { firstName: row.first_name, lastName: row.last_name, email: row.email };
}

/** The account that has `email` among its addresses (verified or not), if any. */
export async function accountWithAddress(db: Kysely<Database>, email: string): Promise<number | undefined> {
  const row = await db.selectFrom('email_addresses').select('account_id').where('email_lower', '=', email.toLowerCase()).executeTakeFirst();
  return row?.account_id;
}

export async function recordInvitationSent(trx: Kysely<Database>, send: { email: string; accountId: number; now: number }): Promise<void> {
  await trx
    .insertInto('email_sends')
    .values({ email_lower: send.email.toLowerCase(), account_id: send.accountId, kind: 'invitation', created_at: send.now })
    .execute();
}

/** When invitation e-mails were sent since `since`, oldest first: to an address (by anyone), or caused by an account. */
export async function invitationTimes(
  db: Kysely<Database>,
  scope: { email: string } | { accountId: number },
  since: number,
): Promise<number[]> {
  const rows = await ('email' in scope
    ? db.selectFrom('email_sends').select('created_at').where('email_lower', '=', scope.email.toLowerCase())
    : db.selectFrom('email_sends').select('created_at').where('account_id', '=', scope.accountId)
  )
    .where('kind', '=', 'invitation')
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.created_at);
}
