// The record of key e-mails sent (table email_sends, migration 0007), which the per-address and
// per-account limits on them count.
import type { Kysely } from 'kysely';
import type { Database, EmailSendKind } from '../db/schema.ts';

export async function recordEmailSend(
  trx: Kysely<Database>,
  send: { email: string; accountId: number; kind: EmailSendKind; now: number },
): Promise<void> {
  await trx
    .insertInto('email_sends')
    .values({
      email_lower: send.email.toLowerCase(),
      account_id: send.accountId,
      kind: send.kind,
      created_at: send.now,
    })
    .execute();
}

/** When e-mails of `kind` went to the address since `since`, oldest first, whichever account held it. */
export async function sendTimesToAddress(db: Kysely<Database>, email: string, kind: EmailSendKind, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('email_sends')
    .select('created_at')
    .where('email_lower', '=', email.toLowerCase())
    .where('kind', '=', kind)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.created_at);
}

/** When the account caused e-mails of `kind` since `since`, oldest first, to any address. */
export async function sendTimesForAccount(db: Kysely<Database>, accountId: number, kind: EmailSendKind, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('email_sends')
    .select('created_at')
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.created_at);
}

export async function deleteEmailSendsBefore(db: Kysely<Database>, before: number): Promise<number> {
  const result = await db.deleteFrom('email_sends').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
