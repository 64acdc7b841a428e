// `npm run restore -- <from> [--force]` (or `node dist/cli/restore.js …` from a build): puts a
// backup made by `npm run backup` back where DATABASE_URL and MEDIA_STORAGE say, with the
// service stopped. <from> is one backup-<time> folder, or the location holding them (the
// newest is taken). The manifest is checked against its MAC under BACKUP_KEY, every file
// against the manifest; a database in use is refused, and a location that already holds a
// database or media unless --force.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv, parseBackupLocation } from '../config.ts';
import { openBackupStore } from '../backup/open-backup-store.ts';
import { BackupRefused } from '../backup/create-backup.ts';
import { restoreBackup } from '../backup/restore-backup.ts';
import { openMediaStorage } from '../storage/open-media-storage.ts';

const USAGE = `Usage:
  restore <folder | s3://<bucket>[/<prefix>]> [--force]
      Restores the backup in that folder, or the newest backup-<time> in it, into the
      database DATABASE_URL names (SQLite, or PostgreSQL through pg_restore) and the media
      store MEDIA_STORAGE names. Stop the service first: a database in use is refused (on
      PostgreSQL, any other session connected to it). Refuses a database or media store that
      already holds data, unless --force (the database is then replaced; media files of the
      backup are added to those there).

Configuration as for the service (the environment, or a .env file in the working directory),
with BACKUP_KEY, the key the backup was made with: a backup whose manifest does not match its
MAC under it is refused.`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError('restore needs one location: a backup folder, a folder of backups, or s3://<bucket>[/<prefix>]');
  loadDotEnv();
  const config = loadConfig();
  const store = await openBackupStore(parseBackupLocation('the location', positionals[0]!));
  try {
    const media = await openMediaStorage(config.mediaStorage);
    const { name, manifest } = await restoreBackup(config, media, store, { force: values.force === true });
    const mediaFiles = manifest.files.length - 1;
    console.log(
      `Restored ${name || store.where} (taken ${manifest.created_at}, schema ${manifest.schema_version}): the database and ${mediaFiles} media files.`,
    );
    console.log('Start the service as usual; it applies any newer migrations itself.');
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
      console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  },
);
