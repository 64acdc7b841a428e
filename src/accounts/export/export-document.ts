// account.json of the data export, read in one consistent snapshot (Db.readSnapshot: it holds
// back no other request) and written as it is read into a spool file: profiles one by one,
// their topics and items in pages (app-data/views/paged-tree.ts), yielding to other requests between
// pages. Every object goes through the API's own mapper, less its links: what others share with
// the account (`shared_with_me`, its accepted accessors) at the top, and under its app user whom
// it shares it with (`accessors`). An account has one app
// user at most (app_users_account_key), so the document ends with that app user's media
// resources: written last, by `tail()`, once the archive knows which of their files were still
// there.
import type { Kysely } from 'kysely';
import { listAppUsers } from '../../app-data/app-user-queries.ts';
import { OWNED, toAppUser } from '../../app-data/app-user-schemas.ts';
import { listEmergencyContacts } from '../../app-data/emergency-contact-queries.ts';
import { toEmergencyContact } from '../../app-data/emergency-contact-schemas.ts';
import { listEmergencyItems } from '../../app-data/emergency-item-queries.ts';
import { toEmergencyItem } from '../../app-data/emergency-item-schemas.ts';
import { exportedEmergencyLinks } from '../../emergency/emergency-link-export.ts';
import { listMedia } from '../../app-data/gallery-queries.ts';
import { writeTopics, type PagedOutput } from '../../app-data/views/paged-tree.ts';
import { listProfiles } from '../../app-data/profile-queries.ts';
import { toProfileDetail } from '../../app-data/profile-schemas.ts';
import { listAccountTokens } from '../../auth/token-queries.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { OWNER_URLS, toMediaResource, type MediaRow } from '../../media/media-view.ts';
import { type Access, ownerAccess } from '../../app-data/kernel/access.ts';
import type { Caller } from '../../auth/token-auth.ts';
import { listAccessors, listAccessorsSharedWith } from '../../sharing/accessor-queries.ts';
import { toAccessor } from '../../sharing/accessor-schemas.ts';
import { extensionOf } from '../../storage/storage-keys.ts';
import { findAccount } from '../core/account-queries.ts';
import { listAddresses } from '../emails/email-address-queries.ts';
import { toEmailAddress } from '../emails/email-address-view.ts';
import { JsonWriter } from '../../spool/json-writer.ts';
import { SpoolFile } from '../../spool/spool-file.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, withoutLinks, type ExportedMedia } from './export-schemas.ts';
import { toAccount } from '../core/profile-schemas.ts';
import { toSession } from '../sessions/session-schemas.ts';
import { listPasskeys } from '../passkeys/passkey-queries.ts';
import { toPasskey } from '../passkeys/passkey-schemas.ts';
import { listIdentities } from '../identities/identity-queries.ts';
import { toIdentity } from '../identities/identity-schemas.ts';
import { listActivity, toActivityEvent } from '../../activity/activity-events.ts';

/** A media file to put in the archive at `path`, and its entry in the document (whose `path` is nulled if the file is gone). */
export interface ExportFile {
  storageKey: string;
  path: string;
  entry: ExportedMedia;
}

export interface ExportSnapshot {
  exportedAt: string;
  /** account.json up to its app user's media resources. */
  spool: SpoolFile;
  files: ExportFile[];
  /** The rest of account.json: the media resources as `files` now say, and the closing brackets. */
  tail(): string;
}

/** The caller's account; its session (`tokenId`) is marked `current`. */
export async function readExportSnapshot(ctx: AppContext, caller: Pick<Caller, 'accountId' | 'tokenId' | 'via'>): Promise<ExportSnapshot> {
  const { accountId, tokenId } = caller;
  const exportedAt = new Date(ctx.clock.now()).toISOString();
  const spool = await SpoolFile.create(ctx.config.spoolDir);
  let write = (text: string) => spool.write(text);
  const json = new JsonWriter((text) => write(text), 2);
  const out: PagedOutput = { json, between: () => spool.betweenPages(), map: withoutLinks };
  try {
    const { hasAppUser, files } = await ctx.db.readSnapshot(async (db) => {
      const account = await findAccount(db, accountId);
      // Deleted since its token was checked.
      if (!account) throw notFound();
      json.openObject();
      json.value(EXPORT_FORMAT, 'format');
      json.value(EXPORT_VERSION, 'version');
      json.value(exportedAt, 'exported_at');
      json.value(toAccount(account), 'account');
      json.value(
        (await listAddresses(db, accountId)).map((row) => withoutLinks(toEmailAddress(ctx, row))),
        'email_addresses',
      );
      json.value(
        (await listAccountTokens(db, accountId)).map((row) => toSession(row, tokenId)),
        'sessions',
      );
      // Names and dates only: a passkey's key material is of no use outside this service.
      json.value(
        (await listPasskeys(db, accountId)).map((row) => withoutLinks(toPasskey(ctx, row))),
        'passkeys',
      );
      // The providers it signs in with, and when each was last used; never their tokens.
      json.value(
        (await listIdentities(db, accountId)).map((row) => withoutLinks(toIdentity(ctx, row))),
        'identities',
      );
      json.value(
        (await listAccessorsSharedWith(db, accountId)).map((row) => withoutLinks(toAccessor(ctx, row))),
        'shared_with_me',
      );
      await writeActivity(db, json, accountId, null, 'account_activity');
      json.openArray('app_users');
      const [appUser] = await listAppUsers(db, accountId);
      if (!appUser) return { hasAppUser: false, files: [] };
      json.openObject();
      // The owner's own data: what the caller may do with it (is_owned_by_current_user,
      // permissions) says nothing in an archive.
      const { is_owned_by_current_user: _owned, permissions: _permissions, ...exported } = toAppUser(ctx, appUser, OWNED);
      json.members(withoutLinks(exported), 'profiles');
      await writeProfiles(ctx, db, out, ownerAccess(accountId, caller.via, appUser.id), appUser.id);
      json.value(
        (await listEmergencyItems(db, accountId, appUser.id)).map((row) => withoutLinks(toEmergencyItem(ctx, OWNER_URLS, row))),
        'emergency_items',
      );
      json.value(
        (await listEmergencyContacts(db, accountId, appUser.id)).map((row) => withoutLinks(toEmergencyContact(ctx, row))),
        'emergency_contacts',
      );
      json.value(
        (await listAccessors(db, accountId, appUser.id)).map((row) => withoutLinks(toAccessor(ctx, row))),
        'accessors',
      );
      json.value(withoutLinks(await exportedEmergencyLinks(ctx, db, accountId, appUser.id)), 'emergency_links');
      await writeActivity(db, json, accountId, appUser.id, 'activity');
      // The owner's own export: every resource, private ones included.
      const media = await listMedia(db, accountId, appUser.id, { seesPrivate: true, profiles: null });
      return { hasAppUser: true, files: media.map((row) => exportFile(ctx, row)) };
    });
    await spool.finish();
    return {
      exportedAt,
      spool,
      files,
      tail() {
        let text = '';
        write = (piece) => {
          text += piece;
        };
        if (hasAppUser) {
          json.value(
            files.map((file) => file.entry),
            'media_resources',
          );
          json.close(); // the app user
        }
        json.close(); // app_users
        json.close(); // the document
        return `${text}\n`;
      },
    };
  } catch (error) {
    await spool.remove();
    throw error;
  }
}

/** Events read at once, newest first. */
const EVENTS_PER_PAGE = 1000;

/** A log (docs/activity.md), newest first, read a page at a time: the app user's, or the account's (`appUserId` null). */
async function writeActivity(
  db: Kysely<Database>,
  json: JsonWriter,
  accountId: number,
  appUserId: number | null,
  key: string,
): Promise<void> {
  json.openArray(key);
  let before: number | undefined;
  for (;;) {
    const rows = await listActivity(db, { accountId, appUserId, before }, EVENTS_PER_PAGE);
    for (const row of rows.slice(0, EVENTS_PER_PAGE)) json.value(toActivityEvent(row));
    if (rows.length <= EVENTS_PER_PAGE) break;
    before = rows[EVENTS_PER_PAGE - 1]!.id;
  }
  json.close();
}

/** The app user's profiles, each with its topics and their items. */
async function writeProfiles(ctx: AppContext, db: Kysely<Database>, out: PagedOutput, access: Access, appUserId: number): Promise<void> {
  const { accountId } = access;
  out.json.openArray('profiles');
  for (const profile of await listProfiles(db, accountId, appUserId)) {
    out.json.openObject();
    out.json.members(withoutLinks(toProfileDetail(ctx, profile, [])), 'topics');
    await writeTopics(ctx, access, db, out, profile.id, 'topics');
    out.json.close();
  }
  out.json.close();
}

function exportFile(ctx: AppContext, row: MediaRow): ExportFile {
  const path = archivePath(row);
  return { storageKey: row.storage_key, path, entry: { ...withoutLinks(toMediaResource(ctx, OWNER_URLS, row)), path } };
}

/** `media/<id>-<name>.<ext>`: unique by the id; the name kept to letters, digits, `.`, `-`, `_` and spaces. */
export function archivePath(row: MediaRow): string {
  const extension = extensionOf(row.storage_key);
  let name = row.name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}. _-]+/gu, '_')
    .replace(/^[\s._-]+|[\s._-]+$/g, '');
  if (name.toLowerCase().endsWith(`.${extension}`)) name = name.slice(0, -extension.length - 1);
  name = [...name].slice(0, 100).join('');
  return `media/${row.id}${name === '' ? '' : `-${name}`}.${extension}`;
}
