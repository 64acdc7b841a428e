// Where backups are kept: a folder or an S3-compatible bucket, behind one small interface so
// that making, listing, reading and pruning backups is written once (create-backup.ts,
// restore-backup.ts, backup-schedule.ts). Each backup is a folder (a key prefix on S3) named
// after the time it was made; its manifest.json is written last, so a backup without one was
// cut short and is never listed, restored or counted.
import type { Readable } from 'node:stream';

export const MANIFEST_FILE = 'manifest.json';

/** backup-2026-11-26T03-00-00-000Z: sorts by time, safe as a folder name and an S3 key. */
const BACKUP_NAME = /^backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/;

export function backupName(at: Date): string {
  return `backup-${at.toISOString().replace(/[:.]/g, '-')}`;
}

/** When the backup named `name` was made (backupName's inverse). */
export function backupTime(name: string): Date {
  const [, date, hours, minutes, seconds, millis] = /^backup-(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z$/.exec(name) ?? [];
  return new Date(`${date}T${hours}:${minutes}:${seconds}.${millis}Z`);
}

export function isBackupName(name: string): boolean {
  return BACKUP_NAME.test(name);
}

/** A backup being written: invisible until finish() writes its manifest. */
export interface BackupWriter {
  /** Writes one file of the backup (`path` relative to the backup, e.g. "media/ab….png"). */
  write(path: string, source: Readable): Promise<void>;
  /** Writes the manifest, which makes the backup complete. */
  finish(manifest: string): Promise<void>;
  /** Removes what was written. */
  abandon(): Promise<void>;
}

export interface BackupStore {
  /** The location as the person gave it, for messages. */
  readonly where: string;
  create(name: string): Promise<BackupWriter>;
  /** Names of the complete backups, oldest first. */
  list(): Promise<string[]>;
  /**
   * One file of a backup, or null if there is none. The name '' is the location itself, when
   * the person named one backup's folder rather than the folder of backups.
   */
  read(name: string, path: string): Promise<Readable | null>;
  remove(name: string): Promise<void>;
  close(): void;
}
