// An emergency link past its `expires_at` answers the public 404 from that moment, compared with
// the clock on every request; nothing here is needed for that. This pass records the expiry in
// the owner's activity log (docs/activity.md), once: it claims each expired link by setting
// `expiry_recorded_at` where it is still null, in the transaction that records the event, so of
// several instances exactly one records it. A later `expires_at` (PATCH) clears the claim.
import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/activity-events.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { PollingLoop } from '../polling-loop.ts';

/** How often the pass runs: it bounds how late an expiry appears in the log (its time is the end date). */
export const LINK_EXPIRY_INTERVAL_MS = 60_000;

/** Links claimed per pass at most (the next pass takes the rest). */
const BATCH = 200;

function dueLinks(db: Kysely<Database>, now: number): Promise<{ id: number }[]> {
  return db
    .selectFrom('emergency_links')
    .select('id')
    .where('expires_at', '<=', now)
    .where('expiry_recorded_at', 'is', null)
    .orderBy('expires_at')
    .limit(BATCH)
    .execute();
}

/** Claims and records one link's expiry; false when another pass did, or it was given a later end or revoked meanwhile. */
async function recordExpiry(trx: Kysely<Database>, id: number, now: number): Promise<boolean> {
  const claimed = await trx
    .updateTable('emergency_links')
    .set({ expiry_recorded_at: now })
    .where('id', '=', id)
    .where('expires_at', '<=', now)
    .where('expiry_recorded_at', 'is', null)
    .returning(['id', 'account_id', 'app_user_id', 'label', 'expires_at'])
    .executeTakeFirst();
  if (!claimed) return false;
  // The service ended it (no actor), at the end date rather than when this pass noticed.
  await recordActivity(trx, {
    accountId: claimed.account_id,
    appUserId: claimed.app_user_id,
    at: claimed.expires_at ?? now,
    actor: null,
    action: 'expired',
    object: { type: 'emergency_link', id: claimed.id, name: claimed.label },
    via: null,
  });
  return true;
}

export class LinkExpiry {
  readonly #ctx: AppContext;
  readonly #loop: PollingLoop;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
    this.#loop = new PollingLoop(
      () =>
        this.runOnce().then(
          () => undefined,
          (error: unknown) => ctx.log.warn({ err: error }, 'emergency link expiry pass failed'),
        ),
      LINK_EXPIRY_INTERVAL_MS,
    );
  }

  /** Runs now, then LINK_EXPIRY_INTERVAL_MS after each pass. */
  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One pass; how many expiries this instance recorded. */
  async runOnce(): Promise<number> {
    const ctx = this.#ctx;
    const now = ctx.clock.now();
    let recorded = 0;
    for (const { id } of await dueLinks(ctx.db.kysely, now)) {
      if (await ctx.db.writeTransaction((trx) => recordExpiry(trx, id, now))) recorded += 1;
    }
    return recorded;
  }
}
