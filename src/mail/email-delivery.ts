// The outbox handler for e-mail, and the one way code queues an e-mail.
import { type Kysely, sql } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import type { DeliveryHandler } from '../outbox/worker.ts';
import type { MailMessage, MailTransport } from './transport.ts';

/**
 * Queue inside the transaction of the change; call ctx.outbox.wake() after it commits.
 * `accountId`: the account the e-mail is about (deleting it deletes the e-mail if unsent).
 */
export async function queueEmail(ctx: AppContext, trx: Kysely<Database>, message: MailMessage, accountId: number | null): Promise<void> {
  if (await relayTakesNoMail(trx, message.to)) return;
  await ctx.outbox.enqueue(trx, 'email', message, ctx.clock.now(), accountId === null ? {} : { accountId });
}

/**
 * Apple said this relay address (an identity's, docs/sign-in-providers.md) forwards no mail for now
 * (email-disabled): nothing is queued for it until it says email-enabled.
 */
async function relayTakesNoMail(db: Kysely<Database>, to: string): Promise<boolean> {
  const off = await db
    .selectFrom('identities')
    .select('id')
    .where(sql`lower(email)`, '=', to.toLowerCase())
    .where('mail_disabled', '=', 1)
    .executeTakeFirst();
  return off !== undefined;
}

export function emailDelivery(transport: MailTransport, publicUrl: string): DeliveryHandler {
  const domain = new URL(publicUrl).hostname || 'localhost';
  return {
    // The Message-ID comes from the outbox row, so a retried delivery is recognisably the same message.
    deliver: (message: MailMessage, outboxId: number) => transport.send(message, `<outbox-${outboxId}@${domain}>`),
    // Once sent, the body (which may hold a key) is dropped; who and what stay for the operator,
    // unless the recipient is to be forgotten (a deleted account's last notice).
    redact: (message: MailMessage) =>
      message.forgetRecipient ? { subject: message.subject } : { to: message.to, subject: message.subject },
  };
}
