// account.json of the data export: everything the account holds, read in one read-only
// transaction (a consistent snapshot on PostgreSQL; SQLite's one connection serves nothing else
// meanwhile) with a fixed number of queries whatever the amount, every one filtered on the
// account, then nested in memory through the API's own mappers. Media files are not read here.
import type { Kysely } from 'kysely';
import { listAppUsers } from '../app-data/app-user-queries.ts';
import { toAppUser } from '../app-data/app-user-schemas.ts';
import { toEmergencyContact } from '../app-data/emergency-contact-schemas.ts';
import { listAccountEmergencyItems } from '../app-data/emergency-item-queries.ts';
import { toEmergencyItem } from '../app-data/emergency-item-schemas.ts';
import { loadItemsByTopic } from '../app-data/profile-detail.ts';
import { toProfileDetail } from '../app-data/profile-schemas.ts';
import { toTopic } from '../app-data/topic-schemas.ts';
import { listAccountTokens } from '../auth/token-queries.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { toMediaResource, type MediaRow } from '../media/media-view.ts';
import { extensionOf } from '../storage/storage-keys.ts';
import { findAccount } from './account-queries.ts';
import { listAddresses } from './email-address-queries.ts';
import { toEmailAddress } from './email-address-view.ts';
import { listAccountEmergencyContacts, listAccountMedia, listAccountProfiles, listAccountTopics } from './export-queries.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, withoutLinks, type ExportDocument, type ExportedMedia } from './export-schemas.ts';
import { toAccount } from './profile-schemas.ts';
import { toSession } from './session-schemas.ts';

/** A media file to put in the archive at `path`, and its entry in the document (whose `path` is nulled if the file is gone). */
export interface ExportFile {
  storageKey: string;
  path: string;
  entry: ExportedMedia;
}

export interface ExportSnapshot {
  document: ExportDocument;
  files: ExportFile[];
}

/** 11 queries. `tokenId`: the caller's session, marked `current`. */
export async function readExportSnapshot(ctx: AppContext, accountId: number, tokenId: number): Promise<ExportSnapshot> {
  return ctx.db.kysely
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const account = await findAccount(trx, accountId);
      // Deleted since its token was checked.
      if (!account) throw notFound();
      const document: ExportDocument = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exported_at: new Date(ctx.clock.now()).toISOString(),
        account: toAccount(account),
        email_addresses: (await listAddresses(trx, accountId)).map((row) => withoutLinks(toEmailAddress(ctx, row))),
        sessions: (await listAccountTokens(trx, accountId)).map((row) => toSession(row, tokenId)),
        app_users: [],
      };
      const files: ExportFile[] = [];
      const held = await readAppUserData(ctx, trx, accountId);
      for (const appUser of await listAppUsers(trx, accountId)) {
        const media = (held.media.get(appUser.id) ?? []).map((row) => {
          const path = archivePath(row);
          const entry: ExportedMedia = { ...withoutLinks(toMediaResource(ctx, row)), path };
          files.push({ storageKey: row.storage_key, path, entry });
          return entry;
        });
        document.app_users.push({
          ...withoutLinks(toAppUser(ctx, appUser)),
          profiles: held.profiles.get(appUser.id) ?? [],
          emergency_items: held.emergencyItems.get(appUser.id) ?? [],
          emergency_contacts: held.emergencyContacts.get(appUser.id) ?? [],
          media_resources: media,
        });
      }
      return { document, files };
    });
}

/** Everything below the account's app users, each by its app user's id (7 queries). */
async function readAppUserData(ctx: AppContext, trx: Kysely<Database>, accountId: number) {
  const items = await loadItemsByTopic(ctx, trx, accountId, 'account');
  const topics = Map.groupBy(await listAccountTopics(trx, accountId), (row) => row.profile_id);
  const topicsOf = (profileId: number) => (topics.get(profileId) ?? []).map((row) => toTopic(ctx, row, items.get(row.id) ?? []));
  return {
    profiles: byAppUser(await listAccountProfiles(trx, accountId), (row) => withoutLinks(toProfileDetail(ctx, row, topicsOf(row.id)))),
    emergencyItems: byAppUser(await listAccountEmergencyItems(trx, accountId), (row) => withoutLinks(toEmergencyItem(ctx, row))),
    emergencyContacts: byAppUser(await listAccountEmergencyContacts(trx, accountId), (row) => withoutLinks(toEmergencyContact(ctx, row))),
    media: byAppUser(await listAccountMedia(trx, accountId), (row) => row),
  };
}

function byAppUser<R extends { app_user_id: number }, T>(rows: R[], map: (row: R) => T): Map<number, T[]> {
  return new Map([...Map.groupBy(rows, (row) => row.app_user_id)].map(([id, group]) => [id, group.map(map)]));
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
