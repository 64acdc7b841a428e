// What an app user holds that the change log records (docs/offline-and-live.md): the types a
// change names, in the order the API lists them. A type added here is a compile error wherever
// a table is kept per type (`Record<SyncedType, …>`) until it has its entry there;
// src/app-data/README.md walks the steps.
export const SYNCED_TYPES = [
  'app_user',
  'profile',
  'topic',
  'item',
  'list_entry',
  'emergency_item',
  'emergency_contact',
  'media_resource',
] as const;

export type SyncedType = (typeof SYNCED_TYPES)[number];
