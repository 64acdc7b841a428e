// A periodic pass over what expires by itself: unverified holds on addresses past
// UNVERIFIED_ACCOUNT_TTL (unverified-holds.ts), records of key and invitation e-mails older
// than the limits that count them, e-mailed codes past expiry, MFA logins never completed, passkey challenges never answered,
// provider sign-ins never finished (their flows, login codes, used ID tokens past expiry), the
// abuse limits' ended windows (where they are kept in the database), Idempotency-Keys past their
// 24 hours, emergency link views past their 90 days, changes past CHANGES_RETENTION, activity
// events past ACTIVITY_RETENTION (docs/activity.md), and the
// operators' audit records past their year (admin/, docs/operators.md). Every instance may run it:
// each step is an idempotent delete.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { PollingLoop } from '../polling-loop.ts';
import { deleteEmailSendsBefore } from './emails/email-send-queries.ts';
import { deleteEmailCodesBefore } from './emails/email-code-queries.ts';
import { deleteEndedCounters } from '../auth/sql-counter-store.ts';
import { deleteChallengesBefore } from './mfa/mfa-queries.ts';
import { deleteWebauthnChallengesBefore } from './passkeys/challenge-queries.ts';
import { deleteOidcLeftoversBefore } from './identities/flow-queries.ts';
import { deleteExpiredHolds } from './emails/unverified-holds.ts';
import { deleteKeysBefore, KEY_LIFETIME_MS } from '../app-data/kernel/idempotent-create.ts';
import { deleteViewsBefore } from '../emergency/emergency-link-queries.ts';
import { VIEW_RETENTION_MS } from '../emergency/emergency-link-service.ts';
import { sweepChangeLog } from '../sync/change-retention.ts';
import { deleteActivityBefore } from '../activity/activity-events.ts';

const SWEEP_INTERVAL_MS = 60 * 60_000;

/** How long a webhook delivery (webhooks/) is kept, delivered or not. */
export const WEBHOOK_DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;

/** How long the operators' audit (admin/) keeps a record. */
export const AUDIT_RETENTION_MS = 365 * 24 * 3_600_000;

export class AccountSweeper {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #config: Config;
  readonly #log: FastifyBaseLogger;
  readonly #loop: PollingLoop;

  constructor(db: Db, clock: Clock, config: Config, log: FastifyBaseLogger) {
    this.#db = db;
    this.#clock = clock;
    this.#config = config;
    this.#log = log;
    this.#loop = new PollingLoop(
      () => this.runOnce().catch((error: unknown) => log.warn({ err: error }, 'account sweep failed')),
      SWEEP_INTERVAL_MS,
    );
  }

  /** Sweeps now, then an hour after each sweep. */
  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async runOnce(): Promise<void> {
    const now = this.#clock.now();
    const { emailPerAddress, verificationEmailsPerAccount, invitationEmailsPerAddress, invitationEmailsPerAccount } =
      this.#config.rateLimits;
    const holds = await deleteExpiredHolds(this.#db.kysely, now - this.#config.unverifiedAccountTtlMs);
    const sends = await deleteEmailSendsBefore(
      this.#db.kysely,
      now -
        Math.max(
          emailPerAddress.windowMs,
          verificationEmailsPerAccount.windowMs,
          invitationEmailsPerAddress.windowMs,
          invitationEmailsPerAccount.windowMs,
        ),
    );
    await deleteChallengesBefore(this.#db.kysely, now);
    await deleteEmailCodesBefore(this.#db.kysely, now);
    await deleteWebauthnChallengesBefore(this.#db.kysely, now);
    await deleteOidcLeftoversBefore(this.#db.kysely, now);
    await deleteEndedCounters(this.#db.kysely, now);
    await deleteKeysBefore(this.#db.kysely, now - KEY_LIFETIME_MS);
    await deleteViewsBefore(this.#db.kysely, now - VIEW_RETENTION_MS);
    await sweepChangeLog(this.#db, now - this.#config.changesRetentionMs);
    await deleteActivityBefore(this.#db.kysely, now - this.#config.activityRetentionMs);
    // The audit is the operators' (admin/, above this folder): the one statement is kept here.
    await this.#db.kysely
      .deleteFrom('operator_audit')
      .where('at', '<', now - AUDIT_RETENTION_MS)
      .execute();
    await this.#db.kysely
      .deleteFrom('webhook_deliveries')
      .where('created_at', '<', now - WEBHOOK_DELIVERY_RETENTION_MS)
      .execute();
    if (holds.accounts + holds.addresses > 0)
      this.#log.info({ ...holds, emailSends: sends }, 'expired unverified accounts and addresses removed');
  }
}
