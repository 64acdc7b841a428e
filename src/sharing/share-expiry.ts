// Shares that end (docs/sharing.md): an accessor past its `expires_at` grants nothing from that
// moment, read against the clock wherever a grant is used (auth/grants.ts); nothing here is
// needed for that. This pass tells both sides by e-mail, once: it claims each expired accessor
// by setting `expiry_told_at` where it is still null, in the transaction that queues the
// e-mails through the outbox, so of several instances sweeping at once exactly one queues them.
// The claim is also a change to the accessor, which wakes the live streams of its account on
// every instance (they re-check and end). A later `expires_at` (PATCH) clears the claim; when it
// gives an accepted accessor back its lost access, the person is told that too (`tellRestored`).
import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/activity-events.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { queueEmail } from '../mail/email-delivery.ts';
import { recipientLanguage } from '../mail/recipient-language.ts';
import { shareExpiredAccessorMessage, shareExpiredOwnerMessage, shareRestoredMessage } from '../mail/messages.ts';
import { PollingLoop } from '../polling-loop.ts';
import { findInviter } from './invitation-queries.ts';

/** How often the pass runs. Access ends at expiry whatever it does; this bounds the e-mails' delay. */
export const EXPIRY_SWEEP_INTERVAL_MS = 60_000;

/** Accessors claimed per pass at most (the next pass takes the rest). */
const BATCH = 200;

/** The accessors past their expiry whose e-mails are not queued yet, oldest expiry first. */
function dueAccessors(db: Kysely<Database>, now: number): Promise<{ id: number }[]> {
  return db
    .selectFrom('accessors')
    .select('id')
    .where('expires_at', '<=', now)
    .where('expiry_told_at', 'is', null)
    .orderBy('expires_at')
    .limit(BATCH)
    .execute();
}

/** Claims the accessor's expiry (undefined: another pass did, or it was re-granted or deleted meanwhile). */
function claimExpiry(trx: Kysely<Database>, id: number, now: number) {
  return trx
    .updateTable('accessors')
    .set({ expiry_told_at: now })
    .where('id', '=', id)
    .where('expires_at', '<=', now)
    .where('expiry_told_at', 'is', null)
    .returning(['id', 'app_user_id', 'owner_account_id', 'user_with_access_id', 'email', 'expires_at'])
    .executeTakeFirst();
}

/** Queues the e-mails of one accessor's expiry: the owner's, and the accessor's when it was accepted. */
async function tellExpiry(ctx: AppContext, trx: Kysely<Database>, id: number, now: number): Promise<boolean> {
  const claimed = await claimExpiry(trx, id, now);
  if (!claimed) return false;
  // The service ended it (no actor), at the end date rather than when this pass noticed.
  await recordActivity(trx, {
    accountId: claimed.owner_account_id,
    appUserId: claimed.app_user_id,
    at: claimed.expires_at ?? now,
    actor: null,
    action: 'expired',
    object: { type: 'accessor', id: claimed.id, name: claimed.email },
    via: null,
  });
  const appUser = await trx.selectFrom('app_users').select('name').where('id', '=', claimed.app_user_id).executeTakeFirst();
  const owner = await findInviter(trx, claimed.owner_account_id);
  if (!appUser || !owner) return true;
  const ownerMessage = shareExpiredOwnerMessage(await recipientLanguage(ctx.config, trx, claimed.owner_account_id), owner.email, {
    invitedEmail: claimed.email,
    appUserName: appUser.name,
    accepted: claimed.user_with_access_id !== null,
  });
  await queueEmail(ctx, trx, ownerMessage, claimed.owner_account_id);
  if (claimed.user_with_access_id !== null) {
    const person = await findInviter(trx, claimed.user_with_access_id);
    if (person)
      await queueEmail(
        ctx,
        trx,
        shareExpiredAccessorMessage(await recipientLanguage(ctx.config, trx, claimed.user_with_access_id), person.email, {
          owner,
          appUserName: appUser.name,
        }),
        claimed.user_with_access_id,
      );
  }
  return true;
}

/**
 * Queues the e-mail to the person whose access had ended and is given back (a PATCH with a later
 * `expires_at`, or null), in the transaction of the change; the caller wakes the outbox after it.
 */
export async function tellRestored(
  ctx: AppContext,
  trx: Kysely<Database>,
  accessor: { app_user_id: number; owner_account_id: number; user_with_access_id: number; can_write: boolean; expires_at: number | null },
): Promise<void> {
  const appUser = await trx.selectFrom('app_users').select('name').where('id', '=', accessor.app_user_id).executeTakeFirst();
  const owner = await findInviter(trx, accessor.owner_account_id);
  const person = await findInviter(trx, accessor.user_with_access_id);
  if (!appUser || !owner || !person) return;
  const language = await recipientLanguage(ctx.config, trx, accessor.user_with_access_id);
  const message = shareRestoredMessage(ctx.config.publicUrl, language, person.email, {
    owner,
    appUserName: appUser.name,
    canWrite: accessor.can_write,
    expiresAt: accessor.expires_at,
  });
  await queueEmail(ctx, trx, message, accessor.user_with_access_id);
}

export class ShareExpiry {
  readonly #ctx: AppContext;
  readonly #loop: PollingLoop;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
    this.#loop = new PollingLoop(
      () =>
        this.runOnce().then(
          () => undefined,
          (error: unknown) => ctx.log.warn({ err: error }, 'share expiry pass failed'),
        ),
      EXPIRY_SWEEP_INTERVAL_MS,
    );
  }

  /** Runs now, then EXPIRY_SWEEP_INTERVAL_MS after each pass. */
  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One pass; how many expiries this instance told. */
  async runOnce(): Promise<number> {
    const ctx = this.#ctx;
    const now = ctx.clock.now();
    let told = 0;
    for (const { id } of await dueAccessors(ctx.db.kysely, now)) {
      if (await ctx.db.writeTransaction((trx) => tellExpiry(ctx, trx, id, now))) told += 1;
    }
    if (told > 0) ctx.outbox.wake();
    return told;
  }
}
