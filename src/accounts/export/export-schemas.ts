// The data export (docs/accounts.md): account.json, version 1 (docs/export-format.md). Every object
// is what the API's own mapper returns for it, less its links (`url`, `*_url`, and a media
// resource's signed `file`): they lead back to this service, stop working once the account is
// deleted, and `file` expires within the hour. Ids stay, so each object still names its URL.
import { Type, type Static } from 'typebox';
import type { AppUser } from '../../app-data/app-user-schemas.ts';
import type { EmergencyContact } from '../../app-data/emergency-contact-schemas.ts';
import type { EmergencyItem } from '../../app-data/emergency-item-schemas.ts';
import type { ProfileDetail } from '../../app-data/profile-schemas.ts';
import type { SyncedType } from '../../db/synced-types.ts';
import type { ExportedEmergencyLink } from '../../emergency/emergency-link-export.ts';
import type { MediaResource } from '../../media/media-view.ts';
import type { Accessor } from '../../sharing/accessor-schemas.ts';
import type { EmailAddressSchema } from '../emails/email-schemas.ts';
import type { Account } from '../core/profile-schemas.ts';
import type { Session } from '../sessions/session-schemas.ts';
import type { Passkey } from '../passkeys/passkey-schemas.ts';
import type { Identity } from '../identities/identity-schemas.ts';
import type { ActivityEvent } from '../../activity/activity-events.ts';

export const EXPORT_FORMAT = 'profile-service-export';
export const EXPORT_VERSION = 1;

export const ExportArchiveResponse = Type.String({
  format: 'binary',
  description:
    'A ZIP archive: account.json (everything the account holds, docs/export-format.md) and each media file at the `path` its media resource names',
});

type LinkKey = 'url' | 'file' | `${string}_url`;

/** The object without its link fields, at every depth. */
export type WithoutLinks<T> = T extends readonly (infer E)[]
  ? WithoutLinks<E>[]
  : T extends object
    ? { [K in keyof T as K extends LinkKey ? never : K]: WithoutLinks<T[K]> }
    : T;

const isLink = (key: string) => key === 'url' || key === 'file' || key.endsWith('_url');

export function withoutLinks<T>(value: T): WithoutLinks<T> {
  if (Array.isArray(value)) return value.map(withoutLinks) as WithoutLinks<T>;
  if (value === null || typeof value !== 'object') return value as WithoutLinks<T>;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !isLink(key))
      .map(([key, member]) => [key, withoutLinks(member)]),
  ) as WithoutLinks<T>;
}

/** A gallery entry with where its file is in the archive (null: the file was gone when its turn came). */
export type ExportedMedia = WithoutLinks<MediaResource> & { path: string | null };

export type ExportedAppUser = WithoutLinks<AppUser> & {
  profiles: WithoutLinks<ProfileDetail>[];
  emergency_items: WithoutLinks<EmergencyItem>[];
  emergency_contacts: WithoutLinks<EmergencyContact>[];
  /** Whom the app user's data is shared with, or who is invited. */
  accessors: WithoutLinks<Accessor>[];
  emergency_links: WithoutLinks<ExportedEmergencyLink>[];
  /** Its activity log (docs/activity.md), newest first. */
  activity: ActivityEvent[];
  media_resources: ExportedMedia[];
};

const topicsOf = (appUser: ExportedAppUser) => appUser.profiles.flatMap((profile) => profile.topics);
const itemsOf = (appUser: ExportedAppUser) => topicsOf(appUser).flatMap((topic) => topic.items);

/** Where an exported app user holds the objects of each synced type: all the change log can name is exported. */
export const EXPORTED: Record<SyncedType, (appUser: ExportedAppUser) => readonly { id: number }[]> = {
  app_user: (appUser) => [appUser],
  profile: (appUser) => appUser.profiles,
  topic: topicsOf,
  item: itemsOf,
  list_entry: (appUser) => itemsOf(appUser).flatMap((item) => item.list_content?.entries ?? []),
  emergency_item: (appUser) => appUser.emergency_items,
  emergency_contact: (appUser) => appUser.emergency_contacts,
  media_resource: (appUser) => appUser.media_resources,
};

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exported_at: string;
  account: Account;
  email_addresses: WithoutLinks<Static<typeof EmailAddressSchema>>[];
  sessions: Session[];
  /** The account's passkeys: names, dates and whether backed up, never key material. */
  passkeys: WithoutLinks<Passkey>[];
  /** The providers it signs in with (docs/sign-in-providers.md) and when each was last used; never their tokens. */
  identities: WithoutLinks<Identity>[];
  /** What others share with the account: the accessors it accepted (accessor objects only, none of their data). */
  shared_with_me: WithoutLinks<Accessor>[];
  /** The account's security log (docs/activity.md), newest first. */
  account_activity: ActivityEvent[];
  app_users: ExportedAppUser[];
}
