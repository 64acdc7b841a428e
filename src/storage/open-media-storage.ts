// The store MEDIA_STORAGE names. A new kind of store is one more file beside
// local-disk-storage.ts and one more line here.
import { LocalDiskStorage } from './local-disk-storage.ts';
import type { MediaStorage } from './media-storage.ts';

/** Opens the store MEDIA_STORAGE names (`fs:<directory>`), creating what it needs. */
export async function openMediaStorage(spec: string): Promise<MediaStorage> {
  if (spec.startsWith('fs:')) return LocalDiskStorage.open(spec.slice('fs:'.length));
  throw new Error(`unsupported MEDIA_STORAGE "${spec}"`);
}
