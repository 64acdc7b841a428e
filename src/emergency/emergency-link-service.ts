// Emergency links as their owner keeps them (docs/emergency-links.md): list, create (the one answer with
// the link in it), change the label, expiry or PIN, revoke, and list the views. Only the owner
// reaches these (the routes ask access.ts for 'owner'); every query filters on the owner's
// account, so anyone else's request is 404.
import type { Kysely } from 'kysely';
import { ownedAppUser, writeOwned } from '../app-data/kernel/owned-write.ts';
import type { WriteTerms } from '../app-data/kernel/write-terms.ts';
import { enforceQuota } from '../app-data/kernel/quotas.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { AppContext } from '../context.ts';
import { requireAppUser, type Access } from '../app-data/kernel/access.ts';
import type { Database } from '../db/schema.ts';
import { fieldError, notFound, message } from '../errors.ts';
import {
  countEmergencyLinks,
  deleteEmergencyLink,
  findEmergencyLink,
  insertEmergencyLink,
  listEmergencyLinks,
  listLinkViews,
  setLinkChoices,
  updateEmergencyLink,
  type LinkChoices,
  type OwnedEmergencyLinkRow,
} from './emergency-link-queries.ts';
import {
  publicLink,
  toEmergencyLink,
  toLinkView,
  type CreatedEmergencyLink,
  type EmergencyLink,
  type EmergencyLinkChanges,
  type EmergencyLinkInput,
  type LinkView,
} from './emergency-link-schemas.ts';
import { linkTokenHash, newLinkToken } from './link-token.ts';
import { forgetWrongPins } from './pin-lockout.ts';
import { recordActivity, type ActivityChanges, type RequestVia } from '../activity/activity-events.ts';
import { changedAny, countOf, endOf } from '../activity/activity-changes.ts';
import { sameChosen } from '../db/chosen-ids.ts';
import { foreignIds } from '../app-data/kernel/foreign-ids.ts';

/** A link's life in its app user's activity log (docs/activity.md): the owner's own act on it. */
function linkEvent(
  ctx: AppContext,
  trx: Kysely<Database>,
  accountId: number,
  link: { id: number; app_user_id: number; label: string },
  action: 'created' | 'changed' | 'revoked',
  via: RequestVia,
  changes?: ActivityChanges,
): Promise<void> {
  return recordActivity(trx, {
    accountId,
    appUserId: link.app_user_id,
    at: ctx.clock.now(),
    actor: { kind: 'owner', id: accountId },
    action,
    object: { type: 'emergency_link', id: link.id, name: link.label, ...(changes && { changes }) },
    via,
  });
}

/** What a change of a link changed, for its event; `pinNamed`: the change set or removed the PIN. */
function linkChanges(before: OwnedEmergencyLinkRow, after: OwnedEmergencyLinkRow, pinNamed: boolean): ActivityChanges | undefined {
  return changedAny({
    ...(after.label !== before.label && { label: after.label }),
    ...(after.expires_at !== before.expires_at && { expires_at: endOf(after.expires_at) }),
    ...(pinNamed && { pin: after.has_pin }),
    ...(!sameChosen(before.emergency_items, after.emergency_items) && { emergency_items: countOf(after.emergency_items) }),
    ...(!sameChosen(before.emergency_contacts, after.emergency_contacts) && { emergency_contacts: countOf(after.emergency_contacts) }),
  });
}

/** A link made without `expires_at` works this long. */
export const DEFAULT_LINK_LIFETIME_MS = 365 * 86_400_000;

/** Views are kept this long (swept by accounts/account-sweeper.ts, and never listed past it). */
export const VIEW_RETENTION_MS = 90 * 86_400_000;

/** The newest views a list shows at most (`views` on the link counts them all). */
export const VIEWS_LISTED = 1000;

export const EXPIRY_IN_PAST = 'emergency.expiryInPast';
const EXPIRY_TOO_FAR = 'emergency.expiryTooFar';
const LATEST_EXPIRY = Date.UTC(10_000, 0, 1);

export async function listUserEmergencyLinks(ctx: AppContext, access: Access, appUserId: number): Promise<EmergencyLink[]> {
  const { accountId } = access;
  requireAppUser(access, appUserId);
  const rows = await listEmergencyLinks(ctx.db.kysely, accountId, appUserId);
  return rows.map((row) => toEmergencyLink(ctx, row));
}

export async function getEmergencyLink(ctx: AppContext, access: Access, id: number): Promise<EmergencyLink> {
  const { accountId } = access;
  return toEmergencyLink(ctx, await reload(ctx.db.kysely, accountId, id));
}

export async function createEmergencyLink(
  ctx: AppContext,
  access: Access,
  appUserId: number,
  input: EmergencyLinkInput,
  terms: WriteTerms,
): Promise<CreatedEmergencyLink> {
  const { accountId } = access;
  const now = ctx.clock.now();
  const expiresAt = input.expires_at === undefined ? now + DEFAULT_LINK_LIFETIME_MS : expiryAt(input.expires_at, now);
  // Hashed before the write: the write transaction waits for no hash.
  const pinHash = input.pin ? await hashPassword(input.pin) : null;
  const token = newLinkToken();
  const row = await writeOwned(ctx, terms, ownedAppUser(access, appUserId), async (trx) => {
    enforceQuota(
      await countEmergencyLinks(trx, accountId, appUserId),
      1,
      ctx.config.quotas.emergencyLinksPerUser,
      'quotas.emergencyLinksPerUser',
    );
    const choices = await checkChoices(trx, accountId, appUserId, input);
    const id = await insertEmergencyLink(trx, {
      accountId,
      appUserId,
      tokenHash: linkTokenHash(token),
      label: input.label ?? '',
      pinHash,
      now,
      expiresAt,
    });
    await setLinkChoices(trx, id, choices);
    const created = await reload(trx, accountId, id);
    await linkEvent(ctx, trx, accountId, created, 'created', access.via);
    return created;
  });
  return { ...toEmergencyLink(ctx, row), link: publicLink(ctx, token) };
}

/**
 * A new PIN (or the same one again), or none, also lifts a lock-out and starts the lock-outs
 * in a row from none: the owner has acted (pin-lockout.ts).
 */
export async function changeEmergencyLink(
  ctx: AppContext,
  access: Access,
  id: number,
  changes: EmergencyLinkChanges,
  terms: WriteTerms,
): Promise<EmergencyLink> {
  const { accountId } = access;
  const values = {
    ...(changes.label !== undefined && { label: changes.label }),
    // A new end date: its expiry is recorded again when it comes.
    ...(changes.expires_at !== undefined && { expires_at: expiryAt(changes.expires_at, ctx.clock.now()), expiry_recorded_at: null }),
    ...(changes.pin !== undefined && {
      pin_hash: changes.pin === null ? null : await hashPassword(changes.pin),
      pin_locked_until: null,
      pin_lockouts: 0 as const,
    }),
  };
  const row = await writeOwned(
    ctx,
    terms,
    (trx) => findEmergencyLink(trx, accountId, id),
    async (trx) => {
      const link = await reload(trx, accountId, id);
      const choices = await checkChoices(trx, accountId, link.app_user_id, changes);
      if (Object.keys(values).length > 0) await updateEmergencyLink(trx, accountId, id, values);
      await setLinkChoices(trx, id, choices);
      const changed = await reload(trx, accountId, id);
      // A PATCH that names nothing to change changes nothing: no event.
      const named = Object.keys(values).length > 0 || choices.items !== undefined || choices.contacts !== undefined;
      if (named)
        await linkEvent(ctx, trx, accountId, changed, 'changed', access.via, linkChanges(link, changed, changes.pin !== undefined));
      return changed;
    },
  );
  if (changes.pin !== undefined) await forgetWrongPins(ctx, id);
  return toEmergencyLink(ctx, row);
}

/** Revokes the link: from the next request it is 404, like a token nobody has. Its views go with it. */
export async function removeEmergencyLink(ctx: AppContext, access: Access, id: number, terms: WriteTerms): Promise<void> {
  const { accountId } = access;
  await writeOwned(
    ctx,
    terms,
    (trx) => findEmergencyLink(trx, accountId, id),
    async (trx, link) => {
      await linkEvent(ctx, trx, accountId, link, 'revoked', access.via);
      await deleteEmergencyLink(trx, accountId, id);
    },
  );
}

export async function listEmergencyLinkViews(ctx: AppContext, access: Access, id: number): Promise<LinkView[]> {
  const { accountId } = access;
  await reload(ctx.db.kysely, accountId, id);
  const rows = await listLinkViews(ctx.db.kysely, accountId, id, ctx.clock.now() - VIEW_RETENTION_MS, VIEWS_LISTED);
  return rows.map(toLinkView);
}

/**
 * The items and contacts a body chooses (undefined: left as they are; null: every one), each
 * without repeats; an id that is not the app user's is 400 under its field.
 */
async function checkChoices(
  trx: Kysely<Database>,
  accountId: number,
  appUserId: number,
  body: { emergency_items?: number[] | null; emergency_contacts?: number[] | null },
): Promise<Partial<LinkChoices>> {
  const items = body.emergency_items && [...new Set(body.emergency_items)];
  const contacts = body.emergency_contacts && [...new Set(body.emergency_contacts)];
  const badItems = items ? await foreignIds(trx, 'emergency_items', accountId, appUserId, items) : [];
  const badContacts = contacts ? await foreignIds(trx, 'emergency_contacts', accountId, appUserId, contacts) : [];
  if (badItems.length > 0) throw fieldError('emergency_items', message('emergency.notThisAppUsersItems', { ids: badItems.join(', ') }));
  if (badContacts.length > 0)
    throw fieldError('emergency_contacts', message('emergency.notThisAppUsersContacts', { ids: badContacts.join(', ') }));
  return { items, contacts };
}

/** `expires_at` as written (a time, or null for never): a past time is 400. */
function expiryAt(value: string | null, now: number): number | null {
  if (value === null) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw fieldError('expires_at', 'validation.dateTime');
  if (at <= now) throw fieldError('expires_at', EXPIRY_IN_PAST);
  if (at >= LATEST_EXPIRY) throw fieldError('expires_at', EXPIRY_TOO_FAR);
  return at;
}

async function reload(db: Kysely<Database>, accountId: number, id: number): Promise<OwnedEmergencyLinkRow> {
  const link = await findEmergencyLink(db, accountId, id);
  if (!link) throw notFound();
  return link;
}
