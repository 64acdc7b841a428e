// Mailing-list sync (contract §7): on registration, a change of name and a change of
// primary address, a job is queued in the outbox in the same transaction as the change.
// Nothing is queued when sync is off.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';

export interface MemberSync {
  /** The member's address as the list knows it: the primary address before the change. */
  previousEmail: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** The account's jobs are delivered in order: a later job waits while an earlier one is retried. */
export async function queueMemberSync(ctx: AppContext, trx: Kysely<Database>, accountId: number, member: MemberSync): Promise<void> {
  if (!ctx.config.mailchimp) return;
  await ctx.outbox.enqueue(trx, 'mailchimp', member, ctx.clock.now(), `mailchimp:account:${accountId}`);
}
