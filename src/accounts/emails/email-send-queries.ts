// The record of key e-mails sent (table email_sends, migration 0007), which the per-address and
// per-account limits on them count.
import type { Kysely } from 'kysely';
import type { Database, EmailSendKind } from '../../db/schema.ts';

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

/** Whose sends to count: those to an address (whichever account held it), or those an account caused (to any address). */
export type SendScope = { email: string } | { accountId: number };

/** When e-mails of `kind` in the scope were sent since `since`, oldest first. */
export async function sendTimes(db: Kysely<Database>, scope: SendScope, kind: EmailSendKind, since: number): Promise<number[]> {
  const [column, value] =
    'email' in scope ? (['email_lower', scope.email.toLowerCase()] as const) : (['account_id', scope.accountId] as const);
  const rows = await db
    .selectFrom('email_sends')
    .select('created_at')
    .where(column, '=', value)
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
