// BACKUP_SCHEDULE: the running service backs itself up at the times a cron expression names
// (croner computes them), into BACKUP_LOCATION, keeping the newest BACKUP_KEEP. One backup at
// a time; stop() (server close) waits for one under way, so a backup is never cut short by a
// clean shutdown. A failed backup is logged as an error and the next one runs as planned.
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { backupTime } from './backup-store.ts';
import { openBackupStore } from './open-backup-store.ts';
import { createBackup, pruneBackups } from './create-backup.ts';

/** setTimeout's longest delay; a later run is planned again when this one fires. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export class BackupScheduler {
  private readonly cron: Cron;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Completed backups and failures since start (for tests and the log). */
  readonly counts = { written: 0, failed: 0 };
  /** When the last backup was written (ms since the epoch); undefined: none yet. */
  lastWrittenAt: number | undefined;

  private readonly config: Config;
  private readonly settings: NonNullable<Config['backup']>;
  private readonly media: MediaStorage;
  private readonly log: FastifyBaseLogger;

  constructor(config: Config, settings: NonNullable<Config['backup']>, media: MediaStorage, log: FastifyBaseLogger) {
    this.config = config;
    this.settings = settings;
    this.media = media;
    this.log = log;
    this.cron = new Cron(settings.schedule, { paused: true });
  }

  start(): void {
    this.plan();
    // The last success survives a restart: the newest backup already there (for the metric).
    void this.newestExisting().then(
      (at) => {
        if (at !== undefined && this.lastWrittenAt === undefined) this.lastWrittenAt = at;
      },
      (error: unknown) => this.log.warn({ err: error }, 'could not list the backups already made'),
    );
  }

  private async newestExisting(): Promise<number | undefined> {
    const store = await openBackupStore(this.settings.location);
    try {
      const newest = (await store.list()).at(-1);
      return newest === undefined ? undefined : backupTime(newest).getTime();
    } finally {
      store.close();
    }
  }

  /** The next time a backup runs; undefined when the expression names no future time. */
  nextRun(): Date | undefined {
    return this.cron.nextRun() ?? undefined;
  }

  /** Makes one backup now (and prunes), as a scheduled run does. */
  runNow(): Promise<void> {
    this.running ??= this.backUp().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.cron.stop();
    await this.running;
  }

  private plan(): void {
    if (this.stopped) return;
    const next = this.nextRun();
    if (!next) {
      this.log.warn({ schedule: this.settings.schedule }, 'BACKUP_SCHEDULE names no future time: no more backups will be made');
      return;
    }
    const delay = next.getTime() - Date.now();
    this.timer = setTimeout(
      () => {
        if (delay > LONGEST_TIMER_MS) return this.plan();
        void this.runNow().finally(() => this.plan());
      },
      Math.min(Math.max(delay, 0), LONGEST_TIMER_MS),
    );
    this.timer.unref();
  }

  private async backUp(): Promise<void> {
    const store = await openBackupStore(this.settings.location);
    try {
      const { name, manifest } = await createBackup(this.config, this.media, store);
      this.counts.written++;
      this.lastWrittenAt = Date.now();
      const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0);
      this.log.info(
        { backup: name, where: store.where, files: manifest.files.length, bytes, media_missing: manifest.media_missing.length },
        'backup written',
      );
      if (this.settings.keep !== undefined) {
        const removed = await pruneBackups(store, this.settings.keep);
        if (removed.length > 0) this.log.info({ removed, keep: this.settings.keep }, 'old backups removed');
      }
    } catch (error) {
      this.counts.failed++;
      this.log.error({ err: error, where: store.where }, 'backup failed');
    } finally {
      store.close();
    }
  }
}
