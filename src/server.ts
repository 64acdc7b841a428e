// Puts the service together: database (migrated), outbox worker, HTTP app. Used by main.ts
// and by the tests, which start the real thing on a free port.
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { AccountSweeper } from './accounts/account-sweeper.ts';
import { MemoryCounterStore } from './auth/counter-store.ts';
import { OidcProviders } from './auth/oidc-relying-party.ts';
import { SecretBox } from './auth/secret-box.ts';
import { SqlCounterStore } from './auth/sql-counter-store.ts';
import { buildApp } from './app.ts';
import { BackupScheduler } from './backup/backup-schedule.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { AppContext, CacheCounts } from './context.ts';
import type { Db } from './db/database.ts';
import { openDatabase } from './db/open-database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { findSecret, getOrCreateSecret } from './db/secrets.ts';
import type { App } from './http/types.ts';
import { emailDelivery } from './mail/email-delivery.ts';
import { createMailTransport, type MailTransport } from './mail/transport.ts';
import { mediaRemovalDelivery } from './media/media-removal.ts';
import { oidcRevocationDelivery } from './accounts/identities/refresh-token-revocation.ts';
import { openMediaStorage } from './storage/open-media-storage.ts';
import { mailchimpDelivery } from './mailchimp/mailchimp-delivery.ts';
import { loadMessagingKey } from './messaging/messaging-key.ts';
import { ServiceMetrics } from './observability/metrics.ts';
import { serveMetrics, type MetricsServer } from './observability/metrics-server.ts';
import { Outbox } from './outbox/outbox.ts';
import { ShareExpiry } from './sharing/share-expiry.ts';
import { LinkExpiry } from './emergency/link-expiry.ts';
import { OutboxWorker, type DeliveryHandler } from './outbox/worker.ts';
import { WebhookWorker } from './webhooks/webhook-worker.ts';

export interface RunningServer {
  app: App;
  ctx: AppContext;
  worker: OutboxWorker;
  /** Delivers webhook events (docs/webhooks.md); runs where the outbox worker does. */
  webhooks: WebhookWorker;
  sweeper: AccountSweeper;
  /** The pass that tells both sides of a share that reached its end date. */
  shareExpiry: ShareExpiry;
  /** The pass that records emergency links' expiries in their owners' activity logs. */
  linkExpiry: LinkExpiry;
  /** Scheduled backups (BACKUP_SCHEDULE); undefined: none. */
  backups: BackupScheduler | undefined;
  /** The address the server listens on, e.g. http://127.0.0.1:8000 */
  address: string;
  /** Where GET /metrics is served (its own listener), e.g. http://127.0.0.1:9464; undefined: METRICS_PORT unset. */
  metricsAddress: string | undefined;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  log?: FastifyBaseLogger;
}

export function createLogger(config: Config): FastifyBaseLogger {
  const options = { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] };
  if (config.logFormat === 'json' || config.logLevel === 'silent') return pino(options) as FastifyBaseLogger;
  // LOG_FORMAT=pretty (a terminal's default): pino-pretty formats in pino's own worker thread,
  // loaded from node_modules by name, so the bundle runs it too. Colours only on a terminal; no
  // request id (a request is one line, app.ts; JSON logs and X-Request-Id carry the id).
  return pino({
    ...options,
    transport: {
      target: 'pino-pretty',
      options: { colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,reqId' },
    },
  }) as FastifyBaseLogger;
}

/**
 * The operator's keys when MFA_ENCRYPTION_KEY is set, then the database's own key if one was
 * made before (so secrets sealed with it still open); without MFA_ENCRYPTION_KEY, that key
 * (made on first use and shared by every instance).
 */
async function mfaSecretBox(config: Config, db: Db): Promise<SecretBox> {
  if (config.mfaEncryptionKeys.length === 0) return new SecretBox([await getOrCreateSecret(db.kysely, 'mfa-encryption')]);
  const kept = await findSecret(db.kysely, 'mfa-encryption');
  return new SecretBox(kept ? [...config.mfaEncryptionKeys, kept] : config.mfaEncryptionKeys);
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config);
  const messagingKey = config.messaging ? loadMessagingKey(config.messaging.privateKeyFile) : undefined;
  const oidc = new OidcProviders(config.oidcProviders, config.publicUrl);
  const db = openDatabase(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous, ...config.database, log });
  // Whatever fails from here on (a migration, the media store, the port taken) leaves nothing
  // open behind it: the database above all, whose connections would outlive the error.
  let app: App | undefined;
  let mail: MailTransport | undefined;
  let metricsServer: MetricsServer | undefined;
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
    db.changes?.start();

    const media = await openMediaStorage(config.mediaStorage);
    const outbox = new Outbox();
    const secrets = {
      mediaUrl: config.mediaUrlSecret ? Buffer.from(config.mediaUrlSecret) : await getOrCreateSecret(db.kysely, 'media-url'),
      messagingKey,
      mfa: await mfaSecretBox(config, db),
      recoveryCodes: await getOrCreateSecret(db.kysely, 'recovery-code-hmac'),
      emailCodes: await getOrCreateSecret(db.kysely, 'email-code-hmac'),
      cursors: new SecretBox([await getOrCreateSecret(db.kysely, 'change-cursor')]),
    };
    // A process that sees every write (db.changes: one SQLite instance) sees every request too.
    const counters = db.changes ? new MemoryCounterStore(config.rateLimits.memoryKeys) : new SqlCounterStore(db.kysely);
    const cacheCounts = new Map<string, CacheCounts>();
    const ctx: AppContext = { config, db, clock: options.clock ?? systemClock, outbox, log, counters, cacheCounts, media, secrets, oidc };
    mail = createMailTransport(config, log);
    const handlers: Record<string, DeliveryHandler> = {
      email: emailDelivery(mail, config.publicUrl),
      'media-removal': mediaRemovalDelivery(media),
      'oidc-revocation': oidcRevocationDelivery(oidc, secrets.mfa),
      ...(config.mailchimp ? { mailchimp: mailchimpDelivery(config.mailchimp) } : {}),
    };
    const worker = new OutboxWorker(db, ctx.clock, config.outbox, log, handlers, outbox);
    const webhooks = new WebhookWorker(ctx);
    const sweeper = new AccountSweeper(db, ctx.clock, config, log);
    const shareExpiry = new ShareExpiry(ctx);
    const linkExpiry = new LinkExpiry(ctx);

    const metrics = config.metrics ? new ServiceMetrics(ctx) : undefined;
    app = await buildApp(ctx, metrics?.requests);
    // The metrics' port first: a start that fails on it says nothing of listening on the API's.
    if (metrics && config.metrics) metricsServer = await serveMetrics(metrics, config.metrics, log);
    const address = await app.listen({ port: config.port, host: config.host });
    if (config.outbox.workerEnabled) worker.start();
    if (config.outbox.workerEnabled) webhooks.start();
    sweeper.start();
    shareExpiry.start();
    linkExpiry.start();
    const backups = config.backup ? new BackupScheduler(config, config.backup, media, log) : undefined;
    if (backups) metrics?.watchBackups(backups);
    backups?.start();
    return running(app, ctx, { worker, webhooks, sweeper, shareExpiry, linkExpiry, backups }, mail, address, metricsServer);
  } catch (error) {
    await metricsServer?.close();
    await app?.close();
    mail?.close();
    await db.close();
    throw error;
  }
}

/** What runs beside the requests: workers and passes. */
type Background = Pick<RunningServer, 'worker' | 'webhooks' | 'sweeper' | 'shareExpiry' | 'linkExpiry' | 'backups'>;

function running(
  app: App,
  ctx: AppContext,
  background: Background,
  mail: MailTransport,
  address: string,
  metricsServer: MetricsServer | undefined,
): RunningServer {
  let closing: Promise<void> | undefined;
  const { worker, webhooks, sweeper, shareExpiry, linkExpiry, backups } = background;
  return {
    app,
    ctx,
    ...background,
    address,
    metricsAddress: metricsServer?.address,
    close() {
      closing ??= (async () => {
        await metricsServer?.close();
        await app.close();
        await worker.stop();
        await webhooks.stop();
        await sweeper.stop();
        await shareExpiry.stop();
        await linkExpiry.stop();
        // A backup under way finishes: it reads the database, which closes next.
        await backups?.stop();
        mail.close();
        await ctx.db.close();
      })();
      return closing;
    },
  };
}
