// The service's Prometheus metrics (docs/production.md), in a registry of each server's own (a test
// process runs many servers; prom-client's global registry would mix them). Requests are
// counted as they are answered (request-metrics.ts); everything else is read when scraped:
// the outbox backlog from the database (one small query), the password-hashing queue, the
// caches' counts and the PostgreSQL pool. docs/production.md ("Metrics and alerts") lists every metric.
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { hashPool } from '../auth/hash-pool.ts';
import type { AppContext } from '../context.ts';
import type { PoolStats } from '../db/database.ts';
import { pendingBacklog } from '../outbox/outbox-admin.ts';
import { RequestMetrics } from './request-metrics.ts';

/** What the backup schedule (backup/backup-schedule.ts) reports, by shape: observability/ imports no capability. */
export interface BackupCounts {
  readonly lastWrittenAt: number | undefined;
  readonly counts: { readonly written: number; readonly failed: number };
}

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests = new RequestMetrics();
  /** The PostgreSQL pool as it was when the scrape began (see text()); undefined on SQLite. */
  private readonly readPool: (() => PoolStats) | undefined;
  private poolAtScrape: PoolStats | undefined;

  constructor(ctx: AppContext) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    for (const metric of this.requests.collectors()) this.registry.registerMetric(metric as unknown as Metric);

    // One query serves both outbox gauges of a scrape (the registry reads them together).
    let backlog: Promise<{ count: number; oldestCreatedAt: number | null } | undefined> | undefined;
    const readBacklog = () => {
      backlog ??= pendingBacklog(ctx.db.kysely)
        .catch((error: unknown) => {
          ctx.log.warn({ err: error }, 'metrics: could not read the outbox backlog');
          return undefined;
        })
        .finally(() => {
          backlog = undefined;
        });
      return backlog;
    };
    new Gauge({
      name: 'outbox_pending_messages',
      help: 'Outbox messages (e-mails, sync calls) not delivered yet, retries included; NaN when the database did not answer.',
      registers,
      async collect() {
        this.set((await readBacklog())?.count ?? Number.NaN);
      },
    });
    new Gauge({
      name: 'outbox_oldest_pending_age_seconds',
      help: 'How long ago the oldest undelivered outbox message was written (0: none); NaN when the database did not answer.',
      registers,
      async collect() {
        const read = await readBacklog();
        const oldest = read?.oldestCreatedAt;
        this.set(read === undefined ? Number.NaN : oldest == null ? 0 : Math.max(0, (ctx.clock.now() - oldest) / 1000));
      },
    });

    // The hashing threads are the process's, shared by every server it runs.
    new Gauge({
      name: 'password_hash_queue_length',
      help: 'Password hashes waiting for a hashing thread.',
      registers,
      collect() {
        this.set(hashPool.queued);
      },
    });
    new Gauge({
      name: 'password_hash_threads_busy',
      help: 'Hashing threads at work.',
      registers,
      collect() {
        this.set(hashPool.busy);
      },
    });
    new Gauge({
      name: 'password_hash_threads',
      help: 'Hashing threads in the pool (one per CPU core available).',
      registers,
      collect() {
        this.set(hashPool.size);
      },
    });

    // Counted as plain numbers where each cache is read (ctx.cacheCounts), copied in when scraped.
    const cacheCounter = (name: string, help: string, count: 'hits' | 'misses') =>
      new Counter({
        name,
        help,
        labelNames: ['cache'],
        registers,
        collect() {
          this.reset();
          for (const [cache, counts] of ctx.cacheCounts) this.inc({ cache }, counts[count]);
        },
      });
    cacheCounter(
      'cache_hits_total',
      'Reads answered from an in-memory cache, by cache (rendering; on SQLite also token, data_version).',
      'hits',
    );
    cacheCounter('cache_misses_total', 'Reads an in-memory cache could not answer (loaded from the database), by cache.', 'misses');

    this.readPool = ctx.db.poolStats;
    if (this.readPool) {
      const scrapeStartPool = () => this.poolAtScrape ?? this.readPool!();
      const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(scrapeStartPool()));
          },
        });
      poolGauge('db_pool_connections', 'PostgreSQL connections open (in use or idle), both pools.', (stats) => stats.total);
      poolGauge('db_pool_idle_connections', 'PostgreSQL connections open and idle, both pools.', (stats) => stats.idle);
      poolGauge(
        'db_pool_waiting_requests',
        'Queries and transactions waiting for a free connection, in either pool.',
        (stats) => stats.waiting,
      );
      poolGauge('db_pool_max_connections', 'Most connections the pools open (2 × DATABASE_POOL_SIZE).', (stats) => stats.max);
    }
  }

  /** Scheduled backups (BACKUP_SCHEDULE): when the last one was written, how many failed. */
  watchBackups(backups: BackupCounts): void {
    const registers = [this.registry];
    new Gauge({
      name: 'backup_last_success_timestamp_seconds',
      help: 'When the last scheduled backup was written (Unix time); 0 until one has been.',
      registers,
      collect() {
        this.set((backups.lastWrittenAt ?? 0) / 1000);
      },
    });
    new Counter({
      name: 'backup_failures_total',
      help: 'Scheduled backups that failed since the service started (each is logged as "backup failed").',
      registers,
      collect() {
        this.reset();
        this.inc(backups.counts.failed);
      },
    });
  }

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<string> {
    // The registry collects every metric at once, and the outbox gauges' query asks the pool
    // for a connection before the pool gauges are read: read then, the pool would count the
    // scrape's own query (as waiting, or as a connection in use). So it is read first.
    this.poolAtScrape = this.readPool?.();
    try {
      return await this.registry.metrics();
    } finally {
      this.poolAtScrape = undefined;
    }
  }
}
