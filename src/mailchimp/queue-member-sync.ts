// Mailing-list sync (docs/messaging-and-sync.md): on registration, a change of name and a change of
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

/** A deleted account's member is removed from the list for good (docs/accounts.md). */
export interface MemberDeletion {
  deletePermanently: string;
}

export type MailchimpJob = MemberSync | MemberDeletion;

/** The account's jobs are delivered in order: a later job waits while an earlier one is retried. */
export async function queueMemberSync(ctx: AppContext, trx: Kysely<Database>, accountId: number, member: MemberSync): Promise<void> {
  if (!ctx.config.mailchimp) return;
  await ctx.outbox.enqueue(trx, 'mailchimp', member, ctx.clock.now(), { orderingKey: `mailchimp:account:${accountId}`, accountId });
}

/** Queued in the account deletion's transaction; it outlives the account, attributed to none. */
export async function queueMemberDeletion(ctx: AppContext, trx: Kysely<Database>, email: string): Promise<void> {
  if (!ctx.config.mailchimp) return;
  await ctx.outbox.enqueue(trx, 'mailchimp', { deletePermanently: email } satisfies MemberDeletion, ctx.clock.now());
}
