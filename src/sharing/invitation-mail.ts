// The e-mails of sharing (docs/sharing.md), queued in the transaction of the change through the
// outbox, and the limits that keep invitations from being a way to mail strangers (docs/api-conventions.md#limits):
//
// - per address (RATE_LIMIT_INVITATION_EMAILS_PER_ADDRESS, default 3 a day, whoever invites):
//   past it the invitation is made but not mailed. The person invited loses nothing: the page
//   the earlier e-mail linked to lists every invitation waiting for them. Nor does the owner
//   learn that someone else invited the address lately. So deleting and inviting again, by one
//   owner or several, cannot mail an address more than that.
// - per account (RATE_LIMIT_INVITATION_EMAILS_PER_ACCOUNT, default 50 a day): past it an
//   invitation is refused with 429, so one account cannot mail stranger after stranger.
//
// Both count invitation e-mails recorded in email_sends, whose rows outlive the accessor (and a
// deleted address). Their own count, apart from verification and reset e-mails: an invitation
// never holds back the e-mail a person asks for themselves.
import type { Kysely } from 'kysely';
import type { RateLimit } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { rateLimitedFor } from '../errors.ts';
import { queueEmail } from '../mail/email-delivery.ts';
import { invitationAcceptedMessage, invitationMessage } from '../mail/messages.ts';
import { recipientLanguage } from '../mail/recipient-language.ts';
import type { Language } from '../i18n/languages.ts';
import { accountWithAddress, findInviter, invitationTimes, recordInvitationSent } from './invitation-queries.ts';

/** Milliseconds until `limit` allows one more, given the times inside its window (oldest first); 0 = now. */
function waitFor(limit: RateLimit, recentTimes: number[], now: number): number {
  if (recentTimes.length < limit.max) return 0;
  return recentTimes[recentTimes.length - limit.max]! + limit.windowMs - now;
}

/** Throws 429 when the account has sent as many invitation e-mails as it may for now. */
export async function checkInvitationsPerAccount(ctx: AppContext, db: Kysely<Database>, accountId: number): Promise<void> {
  const { enabled, invitationEmailsPerAccount: limit } = ctx.config.rateLimits;
  if (!enabled) return;
  const now = ctx.clock.now();
  const wait = waitFor(limit, await invitationTimes(db, { accountId }, now - limit.windowMs), now);
  if (wait > 0) throw rateLimitedFor(wait, 'sharing.tooManyInvitations');
}

async function addressAllows(ctx: AppContext, db: Kysely<Database>, email: string): Promise<boolean> {
  const { enabled, invitationEmailsPerAddress: limit } = ctx.config.rateLimits;
  if (!enabled) return true;
  const now = ctx.clock.now();
  return waitFor(limit, await invitationTimes(db, { email }, now - limit.windowMs), now) === 0;
}

/**
 * An invitation is written in the language of the account that has the address invited, if one
 * has it (verified or not); to an address without an account, in the inviter's.
 */
async function invitationLanguage(ctx: AppContext, trx: Kysely<Database>, invitation: Invitation): Promise<Language> {
  const holder = await accountWithAddress(trx, invitation.email);
  return recipientLanguage(ctx.config, trx, holder ?? invitation.ownerAccountId);
}

export interface Invitation {
  ownerAccountId: number;
  email: string;
  appUserName: string;
  canWrite: boolean;
  /** The share's end date (ms), said in the invitation; null or absent: none. */
  expiresAt?: number | null;
  /** Whether the share shows only some of the profiles, said in the invitation. */
  someProfiles?: boolean;
}

/**
 * Queues the invitation e-mail in the caller's transaction, unless the address has had as many
 * as its limit allows lately. It carries the owner's name and address: deleting the owner's
 * account deletes it if it is still unsent.
 */
export async function queueInvitation(ctx: AppContext, trx: Kysely<Database>, invitation: Invitation): Promise<boolean> {
  if (!(await addressAllows(ctx, trx, invitation.email))) return false;
  const inviter = await findInviter(trx, invitation.ownerAccountId);
  if (!inviter) return false;
  await recordInvitationSent(trx, { email: invitation.email, accountId: invitation.ownerAccountId, now: ctx.clock.now() });
  const message = invitationMessage(ctx.config.publicUrl, await invitationLanguage(ctx, trx, invitation), invitation.email, {
    inviter,
    appUserName: invitation.appUserName,
    canWrite: invitation.canWrite,
    expiresAt: invitation.expiresAt ?? null,
    someProfiles: invitation.someProfiles ?? false,
  });
  await queueEmail(ctx, trx, message, invitation.ownerAccountId);
  return true;
}

/** The owner's notice that an invitation was accepted, to their primary address. */
export async function queueAcceptedNotice(ctx: AppContext, trx: Kysely<Database>, invitation: Invitation): Promise<void> {
  const owner = await findInviter(trx, invitation.ownerAccountId);
  if (!owner) return;
  const language = await recipientLanguage(ctx.config, trx, invitation.ownerAccountId);
  const message = invitationAcceptedMessage(language, owner.email, {
    invitedEmail: invitation.email,
    appUserName: invitation.appUserName,
    canWrite: invitation.canWrite,
  });
  await queueEmail(ctx, trx, message, invitation.ownerAccountId);
}
