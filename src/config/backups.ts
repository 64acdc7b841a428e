// The backups the running service makes itself, where they go, and the key that authenticates them.
import { resolve } from 'node:path';
import { Cron } from 'croner';
import type { S3StorageOptions } from '../storage/s3-storage.ts';
import { integer, keys } from './parsers.ts';
import { parseS3Url, s3Settings } from './s3.ts';
import { ConfigError, type Env, type Parser, Settings, type Variables } from './variable.ts';

/** Where backups go: a folder, or `s3://<bucket>[/<prefix>]` (reached with the S3 settings). */
export type BackupLocation = { kind: 'folder'; directory: string } | ({ kind: 's3' } & S3StorageOptions);

export interface BackupsConfig {
  /**
   * Backups the running service makes itself (BACKUP_SCHEDULE, a cron expression, with
   * BACKUP_LOCATION; BACKUP_KEEP: the newest N kept); undefined: none.
   */
  backup: { schedule: string; location: BackupLocation; keep: number | undefined } | undefined;
  /**
   * Keys that authenticate backups' manifests (BACKUP_KEY; the first signs, all verify). Kept
   * apart from the backups, so that whoever can change a backup cannot make it restore; empty:
   * the backup and restore commands refuse.
   */
  backupKeys: Buffer[];
}

export const BACKUP_KEY_MISSING =
  'backups need BACKUP_KEY, the key that authenticates them: 32 bytes in base64 or hex (make one with "openssl rand -base64 32") kept apart from the backups, as docs/production.md ("Backups and restore") says';

/** 5 or 6 cron fields, checked by croner. */
const cron: Parser<string> = {
  parse(value, name) {
    try {
      new Cron(value, { paused: true }).stop();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigError(`${name} must be a cron expression such as "0 3 * * *" (03:00 every day), got "${value}": ${reason}`);
    }
    return value;
  },
  placeholder: '',
};

/** A folder, or `s3://<bucket>[/<prefix>]` (its bucket and prefix; the S3 settings are added by parseBackupLocation). */
const location: Parser<{ kind: 'folder'; directory: string } | { kind: 's3'; bucket: string; prefix: string }> = {
  parse(value, name) {
    const s3 = value.startsWith('s3:') ? parseS3Url(value) : undefined;
    if (s3) return { kind: 's3', ...s3 };
    if (value.startsWith('s3:') || /^[a-z][a-z0-9+.-]*:\/\//i.test(value))
      throw new ConfigError(`${name} must be a folder or "s3://<bucket>[/<prefix>]", got "${value}"`);
    return { kind: 'folder', directory: resolve(value) };
  },
  placeholder: { kind: 'folder', directory: '' },
};

export const BACKUPS = {
  schedule: { name: 'BACKUP_SCHEDULE', parser: cron, doc: 'when the service backs itself up, a cron expression; unset: never' },
  location: { name: 'BACKUP_LOCATION', parser: location, doc: 'where scheduled backups go: a folder or s3://<bucket>[/<prefix>]' },
  keep: { name: 'BACKUP_KEEP', parser: integer(1), doc: 'the newest N scheduled backups kept there; unset: all' },
  keys: { name: 'BACKUP_KEY', parser: keys, doc: 'the keys that authenticate backups (the first signs, all verify)' },
} satisfies Variables;

/**
 * A backup location (BACKUP_LOCATION, or the backup and restore commands' argument): a folder,
 * or `s3://<bucket>[/<prefix>]` reached with the S3 settings of `env` (read only then).
 */
export function parseBackupLocation(name: string, value: string, env: Env = process.env): BackupLocation {
  const parsed = location.parse(value, name);
  return parsed.kind === 's3' ? { ...parsed, ...s3Settings(new Settings(env)) } : parsed;
}

/** BACKUP_SCHEDULE with BACKUP_LOCATION and BACKUP_KEEP, or a ConfigError for the first problem. */
function schedule(settings: Settings): BackupsConfig['backup'] {
  const keep = settings.value(BACKUPS.keep);
  const scheduleText = settings.text(BACKUPS.schedule.name);
  const locationText = settings.text(BACKUPS.location.name);
  if (scheduleText === undefined) {
    if (locationText !== undefined || keep !== undefined) throw new ConfigError('BACKUP_LOCATION and BACKUP_KEEP need BACKUP_SCHEDULE');
    return undefined;
  }
  const cron = settings.value(BACKUPS.schedule)!;
  if (locationText === undefined) throw new ConfigError('BACKUP_SCHEDULE needs BACKUP_LOCATION (a folder or "s3://<bucket>[/<prefix>]")');
  const where = settings.value(BACKUPS.location)!;
  return { schedule: cron, location: where.kind === 's3' ? { ...where, ...s3Settings(settings) } : where, keep };
}

export function loadBackups(settings: Settings): BackupsConfig {
  const backup = settings.check(() => schedule(settings), undefined);
  const backupKeys = settings.read(BACKUPS.keys) ?? [];
  if (backup && backupKeys.length === 0) settings.problem(BACKUP_KEY_MISSING);
  return { backup, backupKeys };
}
