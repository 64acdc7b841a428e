// The store a backup location names, in a file of its own so that backup-store.ts (the
// interface) imports no implementation of it.
import type { BackupLocation } from '../config.ts';
import type { BackupStore } from './backup-store.ts';

export async function openBackupStore(location: BackupLocation): Promise<BackupStore> {
  if (location.kind === 'folder') return new (await import('./folder-backup-store.ts')).FolderBackupStore(location.directory);
  // The AWS SDK is loaded only for an s3:// location.
  return new (await import('./s3-backup-store.ts')).S3BackupStore(location);
}
