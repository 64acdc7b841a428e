// `npm run backup -- <folder or s3://bucket/prefix>` (or `node dist/cli/backup.js …` from a
// build): a consistent copy of the database (SQLite's online backup, or pg_dump), taken while
// the service runs, and the media beside it, with an authenticated manifest; --keep N then
// removes all but the newest N backups there.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv, parseBackupLocation } from '../config.ts';
import { openBackupStore } from '../backup/open-backup-store.ts';
import { BackupRefused, createBackup, pruneBackups, signingKeyOf } from '../backup/create-backup.ts';
import { openMediaStorage } from '../storage/open-media-storage.ts';

const USAGE = `Usage:
  backup <folder | s3://<bucket>[/<prefix>]> [--keep N]
      Writes a new backup-<time> folder there: the database (a consistent copy, made while
      the service runs: SQLite's online backup, or pg_dump's custom format for PostgreSQL), every media file, manifest.json (sizes and SHA-256) and
      manifest.hmac (its HMAC-SHA256 under BACKUP_KEY). Folders are made 0700, files 0600.
      --keep N: then removes the oldest backups there beyond the newest N.

Configuration as for the service: DATABASE_URL, MEDIA_STORAGE (and S3_ENDPOINT, AWS_* for
s3:// locations), and BACKUP_KEY (required; "openssl rand -base64 32", kept apart from the
backups: restore needs it), from the environment or a .env file in the working directory.
Restore with: restore <the same location, or one backup-<time> folder in it>.
PostgreSQL needs pg_dump and pg_restore on PATH, of the server's major version or newer.`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { keep: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('backup needs one location: a folder or s3://<bucket>[/<prefix>]');
  if (values.keep !== undefined && !/^[1-9]\d{0,5}$/.test(values.keep))
    throw new UsageError(`--keep must be a positive whole number, got "${values.keep}"`);
  loadDotEnv();
  const config = loadConfig();
  signingKeyOf(config); // without BACKUP_KEY: refused before anything is opened
  const store = await openBackupStore(parseBackupLocation('the location', positionals[0]!));
  try {
    const media = await openMediaStorage(config.mediaStorage);
    const { name, manifest } = await createBackup(config, media, store);
    const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0);
    console.log(`Backup ${name} written to ${store.where}: the database and ${manifest.files.length - 1} media files, ${bytes} bytes.`);
    console.log(`It holds every write acknowledged before ${manifest.created_at} (database schema ${manifest.schema_version}).`);
    if (manifest.media_missing.length > 0) {
      console.log(
        `${manifest.media_missing.length} media files were removed while the backup ran; their rows are in it, their bytes are not (listed in manifest.json).`,
      );
    }
    if (manifest.sealing_key_inside) {
      console.log(
        'Note: MFA_ENCRYPTION_KEY is not set, so the key that seals second-factor secrets is inside this backup: keep the backup as safe as the database itself.',
      );
    }
    if (values.keep !== undefined) {
      const removed = await pruneBackups(store, Number(values.keep));
      if (removed.length > 0) console.log(`Removed older backups: ${removed.join(', ')}`);
    }
    return 0;
  } finally {
    store.close();
  }
}

main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string } | null)?.code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    } else if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    } else if (error instanceof BackupRefused) {
      console.error(error.message);
      process.exit(1);
    } else {
      console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  },
);
