// Quotas (docs/app-data.md, docs/sharing.md): how much one app user, profile, topic or item may
// hold, and one account's addresses.
import { integer, size } from './parsers.ts';
import type { Settings, Values, Variables } from './variable.ts';

const count = integer(1);

export const QUOTAS = {
  profilesPerUser: { name: 'QUOTA_PROFILES_PER_USER', default: '100', parser: count, doc: 'profiles per app user' },
  topicsPerProfile: { name: 'QUOTA_TOPICS_PER_PROFILE', default: '200', parser: count, doc: 'topics per profile' },
  itemsPerTopic: { name: 'QUOTA_ITEMS_PER_TOPIC', default: '1000', parser: count, doc: 'items per topic' },
  entriesPerItem: { name: 'QUOTA_ENTRIES_PER_ITEM', default: '1000', parser: count, doc: 'list entries per item' },
  emergencyItemsPerUser: { name: 'QUOTA_EMERGENCY_ITEMS_PER_USER', default: '200', parser: count, doc: 'emergency items per app user' },
  emergencyContactsPerUser: {
    name: 'QUOTA_EMERGENCY_CONTACTS_PER_USER',
    default: '100',
    parser: count,
    doc: 'emergency contacts per app user',
  },
  emergencyLinksPerUser: { name: 'QUOTA_EMERGENCY_LINKS_PER_USER', default: '20', parser: count, doc: 'emergency links per app user' },
  mediaPerUser: { name: 'QUOTA_MEDIA_PER_USER', default: '1000', parser: count, doc: 'media resources per app user' },
  emailsPerAccount: { name: 'QUOTA_EMAILS_PER_ACCOUNT', default: '20', parser: count, doc: 'addresses per account' },
  /** Accessors (invitations, accepted or not) per app user (docs/sharing.md). */
  accessorsPerUser: { name: 'ACCESSOR_QUOTA', default: '50', parser: count, doc: 'people one app user is shared with or invites' },
  /** Account-wide bounds (docs/app-data.md): what one app user holds as a whole. */
  itemsPerAccount: { name: 'QUOTA_ITEMS_PER_ACCOUNT', default: '10000', parser: count, doc: 'items one app user holds in all' },
  entriesPerAccount: { name: 'QUOTA_ENTRIES_PER_ACCOUNT', default: '100000', parser: count, doc: 'list entries one app user holds in all' },
  mediaBytesPerAccount: {
    name: 'QUOTA_MEDIA_BYTES_PER_ACCOUNT',
    default: '1GiB',
    parser: size,
    doc: 'media bytes one app user holds in all',
  },
} satisfies Variables;

export interface QuotasConfig {
  quotas: Values<typeof QUOTAS>;
}

export function loadQuotas(settings: Settings): QuotasConfig {
  return { quotas: settings.readAll(QUOTAS) };
}
