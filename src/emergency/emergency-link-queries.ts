// Queries on emergency links and their views. Those of the owner take the owner's account id;
// the public route finds a link by its token's hash alone (the token is the credential).
import type { Language } from '../i18n/languages.ts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { EmergencyLinkRow, LinkViewRow } from './emergency-link-schemas.ts';

type Db = Kysely<Database>;

export interface OwnedEmergencyLinkRow extends EmergencyLinkRow {
  app_user_id: number;
}

/** What a link shows: null for every one, or the ids it chose, in the owner's order (by id). */
export interface LinkChoices {
  items: number[] | null;
  contacts: number[] | null;
}

/** What the public route needs of a link. */
export interface PublicLinkRow {
  id: number;
  account_id: number;
  app_user_id: number;
  label: string;
  pin_hash: string | null;
  pin_locked_until: number | null;
  pin_lockouts: number;
  expires_at: number | null;
  items_chosen: number;
  contacts_chosen: number;
  /** The owner account's language: the one the person wrote in. */
  language: Language;
}

function selectLinks(db: Db, accountId: number) {
  return db
    .selectFrom('emergency_links')
    .select([
      'id',
      'app_user_id',
      'label',
      'created_at',
      'expires_at',
      sql<boolean>`pin_hash is not null`.as('has_pin'),
      'view_count',
      'last_viewed_at',
      'items_chosen',
      'contacts_chosen',
    ])
    .where('account_id', '=', accountId);
}

type SelectedRow = Awaited<ReturnType<ReturnType<typeof selectLinks>['execute']>>[number];

/**
 * The items and contacts the links chose, by link, each in the owner's order (by id): one query
 * each, and none for links that chose neither.
 */
async function choicesOf(
  db: Db,
  rows: readonly { id: number; items_chosen: number; contacts_chosen: number }[],
): Promise<Map<number, LinkChoices>> {
  const itemLinks = rows.filter((r) => r.items_chosen === 1).map((r) => r.id);
  const contactLinks = rows.filter((r) => r.contacts_chosen === 1).map((r) => r.id);
  const [items, contacts] = await Promise.all([
    itemLinks.length === 0
      ? []
      : db
          .selectFrom('emergency_link_items')
          .select(['link_id', 'emergency_item_id as id'])
          .where('link_id', 'in', itemLinks)
          .orderBy('emergency_item_id')
          .execute(),
    contactLinks.length === 0
      ? []
      : db
          .selectFrom('emergency_link_contacts')
          .select(['link_id', 'emergency_contact_id as id'])
          .where('link_id', 'in', contactLinks)
          .orderBy('emergency_contact_id')
          .execute(),
  ]);
  const choices = new Map<number, LinkChoices>();
  for (const row of rows) {
    choices.set(row.id, { items: row.items_chosen === 1 ? [] : null, contacts: row.contacts_chosen === 1 ? [] : null });
  }
  for (const { link_id, id } of items) choices.get(link_id)?.items?.push(id);
  for (const { link_id, id } of contacts) choices.get(link_id)?.contacts?.push(id);
  return choices;
}

// `pin_hash is not null` is a boolean on PostgreSQL, 0 or 1 on SQLite.
function toRow({ has_pin, items_chosen: _i, contacts_chosen: _c, ...row }: SelectedRow, choices: LinkChoices): OwnedEmergencyLinkRow {
  return { ...row, has_pin: Boolean(has_pin), emergency_items: choices.items, emergency_contacts: choices.contacts };
}

async function toRows(db: Db, rows: SelectedRow[]): Promise<OwnedEmergencyLinkRow[]> {
  const choices = await choicesOf(db, rows);
  return rows.map((row) => toRow(row, choices.get(row.id)!));
}

export async function listEmergencyLinks(db: Db, accountId: number, appUserId: number): Promise<OwnedEmergencyLinkRow[]> {
  return toRows(db, await selectLinks(db, accountId).where('app_user_id', '=', appUserId).orderBy('id').execute());
}

export async function findEmergencyLink(db: Db, accountId: number, id: number): Promise<OwnedEmergencyLinkRow | undefined> {
  const row = await selectLinks(db, accountId).where('id', '=', id).executeTakeFirst();
  return row && (await toRows(db, [row]))[0];
}

/** What the public view of a link shows: its choices (null: every one). */
export async function linkChoices(db: Db, link: PublicLinkRow): Promise<LinkChoices> {
  const choices = await choicesOf(db, [link]);
  return choices.get(link.id)!;
}

/** Sets what the link shows: null for every one, or these ids (already checked to be the app user's). */
export async function setLinkChoices(trx: Db, linkId: number, choices: Partial<LinkChoices>): Promise<void> {
  if (choices.items !== undefined) {
    await trx.deleteFrom('emergency_link_items').where('link_id', '=', linkId).execute();
    await trx
      .updateTable('emergency_links')
      .set({ items_chosen: choices.items === null ? 0 : 1 })
      .where('id', '=', linkId)
      .execute();
    if (choices.items && choices.items.length > 0) {
      await trx
        .insertInto('emergency_link_items')
        .values(choices.items.map((id) => ({ link_id: linkId, emergency_item_id: id })))
        .execute();
    }
  }
  if (choices.contacts !== undefined) {
    await trx.deleteFrom('emergency_link_contacts').where('link_id', '=', linkId).execute();
    await trx
      .updateTable('emergency_links')
      .set({ contacts_chosen: choices.contacts === null ? 0 : 1 })
      .where('id', '=', linkId)
      .execute();
    if (choices.contacts && choices.contacts.length > 0) {
      await trx
        .insertInto('emergency_link_contacts')
        .values(choices.contacts.map((id) => ({ link_id: linkId, emergency_contact_id: id })))
        .execute();
    }
  }
}

export async function countEmergencyLinks(db: Db, accountId: number, appUserId: number): Promise<number> {
  const row = await db
    .selectFrom('emergency_links')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('app_user_id', '=', appUserId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertEmergencyLink(
  trx: Db,
  values: {
    accountId: number;
    appUserId: number;
    tokenHash: string;
    label: string;
    pinHash: string | null;
    now: number;
    expiresAt: number | null;
  },
): Promise<number> {
  const row = await trx
    .insertInto('emergency_links')
    .values({
      account_id: values.accountId,
      app_user_id: values.appUserId,
      token_hash: values.tokenHash,
      label: values.label,
      pin_hash: values.pinHash,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEmergencyLink(
  trx: Db,
  accountId: number,
  id: number,
  changes: { label?: string; expires_at?: number | null; pin_hash?: string | null; pin_locked_until?: null; pin_lockouts?: 0 },
): Promise<void> {
  await trx.updateTable('emergency_links').set(changes).where('id', '=', id).where('account_id', '=', accountId).execute();
}

export async function deleteEmergencyLink(trx: Db, accountId: number, id: number): Promise<void> {
  await trx.deleteFrom('emergency_links').where('id', '=', id).where('account_id', '=', accountId).execute();
}

/** The link's views within the retention, newest first (at most `limit`). */
export function listLinkViews(db: Db, accountId: number, linkId: number, since: number, limit: number): Promise<LinkViewRow[]> {
  return db
    .selectFrom('emergency_link_views')
    .select(['viewed_at', 'ip_address', 'user_agent'])
    .where('link_id', '=', linkId)
    .where('account_id', '=', accountId)
    .where('viewed_at', '>', since)
    .orderBy('viewed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function findLinkByTokenHash(db: Db, tokenHash: string): Promise<PublicLinkRow | undefined> {
  return db
    .selectFrom('emergency_links')
    .innerJoin('accounts', 'accounts.id', 'emergency_links.account_id')
    .select([
      'emergency_links.id',
      'emergency_links.account_id',
      'emergency_links.app_user_id',
      'emergency_links.label',
      'emergency_links.pin_hash',
      'emergency_links.pin_locked_until',
      'emergency_links.pin_lockouts',
      'emergency_links.expires_at',
      'emergency_links.items_chosen',
      'emergency_links.contacts_chosen',
      'accounts.language',
    ])
    .where('emergency_links.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Counts one more lock-out of the link's PIN; its lock-outs in a row so far, undefined when the link is gone. */
export async function countLinkLockout(db: Db, linkId: number): Promise<number | undefined> {
  const row = await db
    .updateTable('emergency_links')
    .set((eb) => ({ pin_lockouts: eb('pin_lockouts', '+', 1) }))
    .where('id', '=', linkId)
    .returning('pin_lockouts')
    .executeTakeFirst();
  return row?.pin_lockouts;
}

/** Locks the link's PIN until `until` (too many wrong PINs). */
export async function lockLinkPin(db: Db, linkId: number, until: number): Promise<void> {
  await db.updateTable('emergency_links').set({ pin_locked_until: until }).where('id', '=', linkId).execute();
}

/** A right PIN: the lock-outs in a row start again from none. */
export async function clearLinkLockouts(db: Db, linkId: number): Promise<void> {
  await db.updateTable('emergency_links').set({ pin_lockouts: 0 }).where('id', '=', linkId).where('pin_lockouts', '>', 0).execute();
}

/**
 * Records a view and counts it on the link; false when the link is gone (revoked since it was
 * read). The owner is due a notice when none went out in the last `noticeIntervalMs`: the
 * update that claims it is one statement, so instances recording views together claim it once.
 */
export async function insertView(
  trx: Db,
  link: { id: number; accountId: number },
  view: { now: number; ipAddress: string | null; userAgent: string | null },
  noticeIntervalMs: number,
): Promise<{ recorded: boolean; noticeDue: boolean }> {
  const counted = await trx
    .updateTable('emergency_links')
    .set({ view_count: sql`view_count + 1`, last_viewed_at: view.now })
    .where('id', '=', link.id)
    .where('account_id', '=', link.accountId)
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) === 0) return { recorded: false, noticeDue: false };
  await trx
    .insertInto('emergency_link_views')
    .values({ link_id: link.id, account_id: link.accountId, viewed_at: view.now, ip_address: view.ipAddress, user_agent: view.userAgent })
    .execute();
  const claimed = await trx
    .updateTable('emergency_links')
    .set({ notified_at: view.now })
    .where('id', '=', link.id)
    .where((eb) => eb.or([eb('notified_at', 'is', null), eb('notified_at', '<=', view.now - noticeIntervalMs)]))
    .executeTakeFirst();
  return { recorded: true, noticeDue: Number(claimed.numUpdatedRows) > 0 };
}

/** The primary address of the account: where its notices go. */
export async function ownerAddress(db: Db, accountId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('email_addresses')
    .select('email')
    .where('account_id', '=', accountId)
    .where('is_primary', '=', 1)
    .executeTakeFirst();
  return row?.email;
}

/** Forgets the views recorded before `before` (the 90 days' retention). */
export async function deleteViewsBefore(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('emergency_link_views').where('viewed_at', '<=', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
