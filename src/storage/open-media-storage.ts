// The store MEDIA_STORAGE names. A new kind of store is one more file beside
// local-disk-storage.ts and one more line here.
import { LocalDiskStorage } from './local-disk-storage.ts';
import type { MediaStorage } from './media-storage.ts';
import type { S3StorageOptions } from './s3-storage.ts';

/** MEDIA_STORAGE, read by src/config/media.ts: `fs:<directory>` or `s3://<bucket>[/<prefix>]` with the S3_* and AWS_* settings. */
export type MediaStorageSpec = { kind: 'fs'; directory: string } | ({ kind: 's3' } & S3StorageOptions);

/** Opens the store MEDIA_STORAGE names, creating (fs) or checking (s3) what it needs. */
export async function openMediaStorage(spec: MediaStorageSpec): Promise<MediaStorage> {
  if (spec.kind === 'fs') return LocalDiskStorage.open(spec.directory);
  // The AWS SDK is loaded only by a service that stores media in S3.
  return (await import('./s3-storage.ts')).S3Storage.open(spec);
}
