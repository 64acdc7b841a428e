// Numbered migrations, applied in order. Kysely's migrator holds a lock while it runs
// (an advisory lock on PostgreSQL), so instances starting together migrate once.
import { Migrator, type Migration } from 'kysely/migration';
import type { Db } from './database.ts';
import { accountsMigration } from './migrations/0001-accounts.ts';
import { outboxMigration } from './migrations/0002-outbox.ts';
import { appDataMigration } from './migrations/0003-app-data.ts';
import { ownerScopedIndexesMigration } from './migrations/0004-owner-scoped-indexes.ts';
import { outboxOrderingMigration } from './migrations/0005-outbox-ordering.ts';
import { topicItemCountsMigration } from './migrations/0006-topic-item-counts.ts';
import { emailSendsMigration } from './migrations/0007-email-sends.ts';
import { sessionsMigration } from './migrations/0008-sessions.ts';
import { outboxAccountsMigration } from './migrations/0009-outbox-accounts.ts';
import { twoStepSignInMigration } from './migrations/0010-two-step-sign-in.ts';
import { rateCountersMigration } from './migrations/0011-rate-counters.ts';
import { listItemFunctionMigration } from './migrations/0012-list-item-function.ts';
import { appUserUsageMigration } from './migrations/0013-app-user-usage.ts';
import { recoveryCodeHmacMigration } from './migrations/0014-recovery-code-hmac.ts';
import { accessorsMigration } from './migrations/0015-accessors.ts';
import { emergencyLinksMigration } from './migrations/0016-emergency-links.ts';
import { idempotencyKeysMigration } from './migrations/0017-idempotency-keys.ts';
import { passkeysMigration } from './migrations/0018-passkeys.ts';
import { changesMigration } from './migrations/0019-changes.ts';
import { identitiesMigration } from './migrations/0020-identities.ts';
import { operatorsMigration } from './migrations/0021-operators.ts';
import { changesWithoutForeignKeyMigration } from './migrations/0022-changes-without-foreign-key.ts';
import { listItemFunctionLogsMigration } from './migrations/0023-list-item-function-logs.ts';
import { signInMethodsAndAuditMigration } from './migrations/0024-sign-in-methods-and-audit.ts';
import { signInBrowserMigration } from './migrations/0025-sign-in-browser.ts';
import { emergencyPinLockoutsMigration } from './migrations/0026-emergency-pin-lockouts.ts';
import { mediaPrivacyMigration } from './migrations/0028-media-privacy.ts';
import { webhooksMigration } from './migrations/0029-webhooks.ts';
import { emailCodesMigration } from './migrations/0030-email-codes.ts';
import { sharesThatEndMigration } from './migrations/0031-shares-that-end-and-show-less.ts';
import { profileSharesAndLinkExpiriesMigration } from './migrations/0035-profile-shares-and-link-expiries.ts';
import { listItemFunctionActivityMigration } from './migrations/0036-list-item-function-activity.ts';
import { renderedRowTriggersMigration } from './migrations/0037-rendered-row-triggers.ts';
import { listItemFunctionViasMigration } from './migrations/0038-list-item-function-vias.ts';
import { listItemFunctionTopicsMigration } from './migrations/0039-list-item-function-topics.ts';
import { renderedStampsByKeyMigration } from './migrations/0040-rendered-stamps-by-key.ts';
import { activityWithoutAppUserIndexMigration } from './migrations/0041-activity-without-app-user-index.ts';
import { listItemFunctionEventsWhenAnyMigration } from './migrations/0042-list-item-function-events-when-any.ts';
import { itemRenderedVersionsMigration } from './migrations/0043-item-rendered-versions.ts';
import { activityReadHoursApartMigration } from './migrations/0044-activity-read-hours-apart.ts';
import { privateMediaUsesLoggedMigration } from './migrations/0045-private-media-uses-logged.ts';
import { activityParentsMigration } from './migrations/0046-activity-parents.ts';
import { activityChangesMigration } from './migrations/0047-activity-changes.ts';
import { topicStampsThroughItemsMigration } from './migrations/0048-topic-stamps-through-items.ts';
import { activityMigration } from './migrations/0032-activity.ts';
import { accountLanguageMigration } from './migrations/0033-account-language.ts';
import { topicRenderedVersionsMigration } from './migrations/0034-topic-rendered-versions.ts';

function migrationsFor(db: Db): Record<string, Migration> {
  return {
    '0001-accounts': accountsMigration(db.dialect),
    '0002-outbox': outboxMigration(db.dialect),
    '0003-app-data': appDataMigration(db.dialect),
    '0004-owner-scoped-indexes': ownerScopedIndexesMigration(),
    '0005-outbox-ordering': outboxOrderingMigration(),
    '0006-topic-item-counts': topicItemCountsMigration(db.dialect),
    '0007-email-sends': emailSendsMigration(db.dialect),
    '0008-sessions': sessionsMigration(),
    '0009-outbox-accounts': outboxAccountsMigration(),
    '0010-two-step-sign-in': twoStepSignInMigration(db.dialect),
    '0011-rate-counters': rateCountersMigration(),
    '0012-list-item-function': listItemFunctionMigration(db.dialect),
    '0013-app-user-usage': appUserUsageMigration(db.dialect),
    '0014-recovery-code-hmac': recoveryCodeHmacMigration(db.dialect),
    '0015-accessors': accessorsMigration(db.dialect),
    '0016-emergency-links': emergencyLinksMigration(db.dialect),
    '0017-idempotency-keys': idempotencyKeysMigration(),
    '0018-passkeys': passkeysMigration(db.dialect),
    '0019-changes': changesMigration(db.dialect),
    '0020-identities': identitiesMigration(db.dialect),
    '0021-operators': operatorsMigration(db.dialect),
    '0022-changes-without-foreign-key': changesWithoutForeignKeyMigration(db.dialect),
    '0023-list-item-function-logs': listItemFunctionLogsMigration(db.dialect),
    '0024-sign-in-methods-and-audit': signInMethodsAndAuditMigration(),
    '0025-sign-in-browser': signInBrowserMigration(),
    '0026-emergency-pin-lockouts': emergencyPinLockoutsMigration(),
    '0028-media-privacy': mediaPrivacyMigration(db.dialect),
    '0029-webhooks': webhooksMigration(db.dialect),
    '0030-email-codes': emailCodesMigration(db.dialect),
    '0031-shares-that-end-and-show-less': sharesThatEndMigration(),
    '0032-activity': activityMigration(db.dialect),
    '0033-account-language': accountLanguageMigration(),
    '0034-topic-rendered-versions': topicRenderedVersionsMigration(db.dialect),
    '0035-profile-shares-and-link-expiries': profileSharesAndLinkExpiriesMigration(),
    '0036-list-item-function-activity': listItemFunctionActivityMigration(db.dialect),
    '0037-rendered-row-triggers': renderedRowTriggersMigration(db.dialect),
    '0038-list-item-function-vias': listItemFunctionViasMigration(db.dialect),
    '0039-list-item-function-topics': listItemFunctionTopicsMigration(db.dialect),
    '0040-rendered-stamps-by-key': renderedStampsByKeyMigration(db.dialect),
    '0041-activity-without-app-user-index': activityWithoutAppUserIndexMigration(),
    '0042-list-item-function-events-when-any': listItemFunctionEventsWhenAnyMigration(db.dialect),
    '0043-item-rendered-versions': itemRenderedVersionsMigration(db.dialect),
    '0044-activity-read-hours-apart': activityReadHoursApartMigration(db.dialect),
    '0045-private-media-uses-logged': privateMediaUsesLoggedMigration(db.dialect),
    '0046-activity-parents': activityParentsMigration(db.dialect),
    '0047-activity-changes': activityChangesMigration(),
    '0048-topic-stamps-through-items': topicStampsThroughItemsMigration(db.dialect),
  };
}

function migratorFor(db: Db): Migrator {
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrationsFor(db) },
  });
}

/** Names of the migrations not yet applied (tools that must not migrate check this). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrations = await migratorFor(db).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = migratorFor(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Applies the migrations up to `name` and no further (tests of a migration over data written before it). */
export async function migrateTo(db: Db, name: string): Promise<void> {
  const { error } = await migratorFor(db).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
}

/** Every migration this version knows, oldest first: a backup made at a later one cannot be restored by it. */
export function migrationNames(): string[] {
  // Only the names are read; they are the same for either database.
  return Object.keys(migrationsFor({ dialect: 'sqlite' } as Db));
}
