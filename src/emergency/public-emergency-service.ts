// The public side of an emergency link (docs/emergency-links.md): anyone with the link reads the
// emergency information, without an account; with a PIN, after giving it. Each request reads
// the link from the database, so a revocation or an expiry holds from the next request on
// every instance. Unknown, expired and revoked tokens are one and the same 404.
import { verifyPassword } from '../auth/passwords.ts';
import { findAppUser } from '../app-data/app-user-queries.ts';
import { listEmergencyContacts } from '../app-data/emergency-contact-queries.ts';
import { listEmergencyItems } from '../app-data/emergency-item-queries.ts';
import type { AppContext } from '../context.ts';
import { fieldError, notFound, pinRequired } from '../errors.ts';
import { storedUserAgent } from '../http/user-agent.ts';
import { queueEmail } from '../mail/email-delivery.ts';
import { recipientLanguage } from '../mail/recipient-language.ts';
import { emergencyLinkLockedMessage, emergencyLinkViewedMessage } from '../mail/messages.ts';
import {
  clearLinkLockouts,
  countLinkLockout,
  findLinkByTokenHash,
  insertView,
  linkChoices,
  lockLinkPin,
  ownerAddress,
  type PublicLinkRow,
} from './emergency-link-queries.ts';
import { isLinkToken, linkTokenHash } from './link-token.ts';
import { recordActivity, type RequestVia } from '../activity/activity-events.ts';
import { beginPinAttempt, forgetWrongPins, lockDurationMs, refuseWhileLocked, stopped } from './pin-lockout.ts';
import { toPublicEmergencyInfo, type PublicEmergencyInfo } from './public-emergency-schemas.ts';

export const PIN_NEEDED = 'emergency.pinNeeded';
export const WRONG_PIN = 'emergency.wrongPin';

/** The owner hears of a view at most this often per link. */
export const VIEW_NOTICE_INTERVAL_MS = 3_600_000;

/** Who opened the link: recorded with the view. */
export interface Viewer {
  /** As seen under TRUST_PROXY. */
  ip: string;
  userAgent: string | undefined;
  /** `web`: the link's page this service serves; `api`: an app or a script reading the link. */
  via: RequestVia;
}

/** GET: the information, or 401 when the link has a PIN (429 while it is locked). */
export async function openLink(ctx: AppContext, token: string, viewer: Viewer): Promise<PublicEmergencyInfo> {
  const link = await liveLink(ctx, token);
  if (link.pin_hash !== null) {
    refuseWhileLocked(ctx, link);
    throw pinRequired(PIN_NEEDED);
  }
  return show(ctx, link, viewer);
}

/** POST {pin}: the information for the right PIN; a wrong one is 400 under `pin`. A link without a PIN ignores it. */
export async function unlockLink(ctx: AppContext, token: string, pin: string, viewer: Viewer): Promise<PublicEmergencyInfo> {
  const link = await liveLink(ctx, token);
  if (link.pin_hash === null) return show(ctx, link, viewer);
  refuseWhileLocked(ctx, link);
  const attempt = await beginPinAttempt(ctx, link.id);
  if (!(await verifyPassword(link.pin_hash, pin))) {
    if (attempt.locks) await lock(ctx, link);
    throw fieldError('pin', WRONG_PIN);
  }
  await attempt.succeeded();
  if (link.pin_lockouts > 0) await ctx.db.writeTransaction((trx) => clearLinkLockouts(trx, link.id));
  return show(ctx, link, viewer);
}

async function liveLink(ctx: AppContext, token: string): Promise<PublicLinkRow> {
  if (!isLinkToken(token)) throw notFound();
  const link = await findLinkByTokenHash(ctx.db.kysely, linkTokenHash(token));
  if (!link || (link.expires_at !== null && link.expires_at <= ctx.clock.now())) throw notFound();
  return link;
}

/** Reads what the link shows, then records the view: a link revoked meanwhile is 404. */
async function show(ctx: AppContext, link: PublicLinkRow, viewer: Viewer): Promise<PublicEmergencyInfo> {
  const db = ctx.db.kysely;
  const [appUser, allItems, allContacts, choices] = await Promise.all([
    findAppUser(db, link.account_id, link.app_user_id),
    listEmergencyItems(db, link.account_id, link.app_user_id),
    listEmergencyContacts(db, link.account_id, link.app_user_id),
    linkChoices(db, link),
  ]);
  // Only what the link chose, if it chose: in the owner's order, as the lists are.
  const items = chosen(allItems, choices.items);
  const contacts = chosen(allContacts, choices.contacts);
  if (!appUser) throw notFound();
  const now = ctx.clock.now();
  const view = { now, ipAddress: viewer.ip || null, userAgent: storedUserAgent(viewer.userAgent) };
  // A view is not a change to the app user's data (nothing it shows moves): no data version bump.
  const { recorded, noticeDue } = await ctx.db.writeTransaction(async (trx) => {
    const result = await insertView(trx, { id: link.id, accountId: link.account_id }, view, VIEW_NOTICE_INTERVAL_MS);
    if (result.recorded) {
      await recordActivity(trx, {
        accountId: link.account_id,
        appUserId: link.app_user_id,
        at: now,
        actor: { kind: 'emergency_link', id: link.id, name: link.label },
        action: 'viewed',
        via: viewer.via,
        ipAddress: view.ipAddress,
        userAgent: view.userAgent,
      });
    }
    const to = result.noticeDue ? await ownerAddress(trx, link.account_id) : undefined;
    if (to) {
      const message = emergencyLinkViewedMessage(await recipientLanguage(ctx.config, trx, link.account_id), to, link.label, {
        at: now,
        ipAddress: view.ipAddress,
        userAgent: view.userAgent,
      });
      await queueEmail(ctx, trx, message, link.account_id);
    }
    return result;
  });
  if (!recorded) throw notFound();
  if (noticeDue) ctx.outbox.wake();
  return toPublicEmergencyInfo(ctx, appUser.name, items, contacts, now, link.language);
}

function chosen<T extends { id: number }>(all: T[], ids: number[] | null): T[] {
  if (ids === null) return all;
  const wanted = new Set(ids);
  return all.filter((row) => wanted.has(row.id));
}

/**
 * Too many wrong PINs: the link answers 429 for longer than the last time, or, its lock-outs
 * in a row enough, until its owner sets the PIN again; the owner is told either way.
 */
async function lock(ctx: AppContext, link: PublicLinkRow): Promise<void> {
  await ctx.db.writeTransaction(async (trx) => {
    const lockouts = await countLinkLockout(trx, link.id);
    if (lockouts === undefined) return;
    const lockMs = stopped(lockouts) ? null : lockDurationMs(ctx.config.rateLimits.emergencyPinFailures.windowMs, lockouts);
    if (lockMs !== null) await lockLinkPin(trx, link.id, ctx.clock.now() + lockMs);
    const to = await ownerAddress(trx, link.account_id);
    if (to)
      await queueEmail(
        ctx,
        trx,
        emergencyLinkLockedMessage(await recipientLanguage(ctx.config, trx, link.account_id), to, link.label, lockMs),
        link.account_id,
      );
  });
  ctx.outbox.wake();
  await forgetWrongPins(ctx, link.id);
}
