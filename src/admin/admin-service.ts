// What operators may do (docs/operators.md), from the API or the command line alike: find accounts
// and see their standing, and act on them. Every action is recorded in the audit in the
// transaction of the change it records, so nothing is done unrecorded, nor recorded undone;
// a find and a view of one account are recorded once read (a read that fails records nothing).
// Nothing here reads or returns personal data (docs/app-data.md, docs/sharing.md, docs/emergency-links.md): the queries touch only the
// account's own rows, its addresses, sessions and second factors.
import type { Kysely } from 'kysely';
import { revokeAccountTokens } from '../auth/token-queries.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { nonFieldError, notFound } from '../errors.ts';
import { queueEmail } from '../mail/email-delivery.ts';
import { recipientLanguage } from '../mail/recipient-language.ts';
import { secondFactorRemovedMessage } from '../mail/messages.ts';
import { countOutboxByState, listOutboxEntries, pendingBacklog, retryEntryNow } from '../outbox/outbox-admin.ts';
import { lockAccount } from '../accounts/core/account-lock.ts';
import { findAccount } from '../accounts/core/account-queries.ts';
import { removeAccount } from '../accounts/deletion/account-deletion.ts';
import { queueAccountEvent } from '../webhooks/webhook-events.ts';
import { sendVerificationKey } from '../accounts/emails/email-keys.ts';
import { deleteAccountChallenges } from '../accounts/mfa/mfa-queries.ts';
import {
  findAccountSummary,
  findAccountsByEmail,
  insertAuditRecord,
  listAccountAddresses,
  listAuditRecords,
  removeSecondFactors,
  setDisabled,
  setOperator,
} from './admin-queries.ts';
import { toAdminAccount, type AdminAccount, type AdminAccountDetail, type AuditList, type OutboxView } from './admin-schemas.ts';
import { recordOperatorAction } from '../activity/activity-events.ts';

/** Who acts: an operator through the API, or whoever runs the command line on the server (`user@host`). */
export type Actor = { via: 'api'; operatorId: number } | { via: 'cli'; user: string };

/** What is recorded: the reads (`find`, `view`) and every action. */
export type AccountAction =
  | 'find'
  | 'view'
  | 'grant-operator'
  | 'revoke-operator'
  | 'disable'
  | 'enable'
  | 'mfa-off'
  | 'resend-verification'
  | 'sessions-end'
  | 'delete'
  | 'outbox-retry';

export const NOT_ON_YOURSELF = 'admin.notOnYourself';
export const NO_SECOND_FACTOR = 'admin.noSecondFactor';
export const ALL_VERIFIED = 'admin.allVerified';

/** A find's search text is kept up to the longest an address may be. */
const MAX_SEARCH_LENGTH = 254;

function record(
  ctx: AppContext,
  trx: Kysely<Database>,
  actor: Actor,
  action: AccountAction,
  accountId: number | null,
  reason?: string | null,
  search?: string,
) {
  return insertAuditRecord(trx, {
    at: ctx.clock.now(),
    via: actor.via,
    operatorAccountId: actor.via === 'api' ? actor.operatorId : null,
    action,
    accountId,
    reason: reason === undefined || reason === null || reason.trim() === '' ? null : reason.trim(),
    search: search === undefined || search === '' ? null : search.slice(0, MAX_SEARCH_LENGTH),
    cliUser: actor.via === 'cli' ? actor.user : null,
  });
}

function refuseOwnAccount(actor: Actor, accountId: number): void {
  if (actor.via === 'api' && actor.operatorId === accountId) throw nonFieldError(NOT_ON_YOURSELF);
}

/** A find, recorded with its text: operators see the addresses it finds anyway, and the audit shows what they looked for. */
export async function findAccounts(ctx: AppContext, actor: Actor, text: string): Promise<AdminAccount[]> {
  const found = (await findAccountsByEmail(ctx.db.kysely, text)).map(toAdminAccount);
  await record(ctx, ctx.db.kysely, actor, 'find', null, null, text);
  return found;
}

/** One account's standing, recorded as a `view` of it; 404 (and nothing recorded) when it is not there. */
export async function viewAccount(ctx: AppContext, actor: Actor, accountId: number): Promise<AdminAccountDetail> {
  const account = await getAccount(ctx, accountId);
  await record(ctx, ctx.db.kysely, actor, 'view', accountId);
  return account;
}

export async function getAccount(ctx: AppContext, accountId: number, db: Kysely<Database> = ctx.db.kysely): Promise<AdminAccountDetail> {
  const row = await findAccountSummary(db, accountId);
  if (!row) throw notFound();
  const addresses = await listAccountAddresses(db, accountId);
  return {
    ...toAdminAccount(row),
    email_addresses: addresses.map((a) => ({ email: a.email, verified: a.verified === 1, primary: a.is_primary === 1 })),
  };
}

/** An operator's action as the account's logs name it (docs/activity.md). */
const AS_EVENT: Partial<Record<AccountAction, string>> = {
  disable: 'disabled',
  enable: 'enabled',
  'mfa-off': 'second_factor_off',
  'resend-verification': 'verification_resent',
  'sessions-end': 'sessions_ended',
  'grant-operator': 'operator_granted',
  'revoke-operator': 'operator_revoked',
};

/**
 * Runs `change` on the account under its lock, with the audit record, in one transaction;
 * 404 when the account is not there.
 */
async function actOn<T>(
  ctx: AppContext,
  actor: Actor,
  action: AccountAction,
  accountId: number,
  reason: string | null | undefined,
  change: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const result = await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    const there = await trx.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!there) throw notFound();
    const value = await change(trx);
    await record(ctx, trx, actor, action, accountId, reason);
    await recordOperatorAction(trx, accountId, ctx.clock.now(), AS_EVENT[action] ?? action, actor.via);
    return value;
  });
  ctx.outbox.wake();
  return result;
}

export function grantOperator(ctx: AppContext, actor: Actor, accountId: number, reason?: string | null): Promise<void> {
  return actOn(ctx, actor, 'grant-operator', accountId, reason, (trx) => setOperator(trx, accountId, true));
}

export function revokeOperator(ctx: AppContext, actor: Actor, accountId: number, reason?: string | null): Promise<void> {
  return actOn(ctx, actor, 'revoke-operator', accountId, reason, (trx) => setOperator(trx, accountId, false));
}

/**
 * Every token of the account goes in the transaction that disables it: from the next request
 * each answers 401, on every instance (PostgreSQL keeps no tokens in memory; SQLite's cache
 * forgets them as their rows go, change-feed.ts). No way in issues a new one (sign-in-token.ts).
 */
export async function disableAccount(
  ctx: AppContext,
  actor: Actor,
  accountId: number,
  reason?: string | null,
): Promise<AdminAccountDetail> {
  refuseOwnAccount(actor, accountId);
  return actOn(ctx, actor, 'disable', accountId, reason, async (trx) => {
    if (await setDisabled(trx, accountId, ctx.clock.now())) await queueAccountEvent(ctx, trx, 'account.disabled', accountId);
    await revokeAccountTokens(trx, accountId);
    await deleteAccountChallenges(trx, accountId);
    return getAccount(ctx, accountId, trx);
  });
}

export function enableAccount(ctx: AppContext, actor: Actor, accountId: number, reason?: string | null): Promise<AdminAccountDetail> {
  return actOn(ctx, actor, 'enable', accountId, reason, async (trx) => {
    if (await setDisabled(trx, accountId, null)) await queueAccountEvent(ctx, trx, 'account.enabled', accountId);
    return getAccount(ctx, accountId, trx);
  });
}

/** For someone who lost their second factor: TOTP, recovery codes and passkeys go, and the person is told. */
export function turnOffSecondFactor(ctx: AppContext, actor: Actor, accountId: number, reason?: string | null): Promise<AdminAccountDetail> {
  refuseOwnAccount(actor, accountId);
  return actOn(ctx, actor, 'mfa-off', accountId, reason, async (trx) => {
    if (!(await removeSecondFactors(trx, accountId))) throw nonFieldError(NO_SECOND_FACTOR);
    // Logins waiting for their second step would now wait for nothing.
    await deleteAccountChallenges(trx, accountId);
    const account = await findAccount(trx, accountId);
    await queueEmail(ctx, trx, secondFactorRemovedMessage(await recipientLanguage(ctx.config, trx, accountId), account!.email), accountId);
    await queueAccountEvent(ctx, trx, 'account.second_factor_changed', accountId);
    return getAccount(ctx, accountId, trx);
  });
}

/** A fresh verification key to each unverified address of the account (no per-account limit: the audit keeps count). */
export function resendVerifications(ctx: AppContext, actor: Actor, accountId: number, reason?: string | null): Promise<void> {
  return actOn(ctx, actor, 'resend-verification', accountId, reason, async (trx) => {
    const unverified = (await listAccountAddresses(trx, accountId)).filter((a) => a.verified !== 1);
    if (unverified.length === 0) throw nonFieldError(ALL_VERIFIED);
    for (const address of unverified) await sendVerificationKey(ctx, trx, { id: address.id, account_id: accountId, email: address.email });
  });
}

export function endSessions(ctx: AppContext, actor: Actor, accountId: number, reason?: string | null): Promise<void> {
  return actOn(ctx, actor, 'sessions-end', accountId, reason, async (trx) => {
    await revokeAccountTokens(trx, accountId);
    await deleteAccountChallenges(trx, accountId);
  });
}

/** The deletion of docs/accounts.md, with its notice, as if the person had asked; recorded in its transaction. */
export async function deleteAccountFor(ctx: AppContext, actor: Actor, accountId: number, reason?: string | null): Promise<void> {
  refuseOwnAccount(actor, accountId);
  const account = await findAccount(ctx.db.kysely, accountId);
  if (!account) throw notFound();
  const deleted = await removeAccount(ctx, account, { alongside: (trx) => record(ctx, trx, actor, 'delete', accountId, reason) });
  // Deleted by someone else meanwhile: not this operator's doing, and now not there.
  if (!deleted) throw notFound();
}

/** Messages shown at most, of each of the two states. */
const OUTBOX_MESSAGES = 100;

/** An e-mail address inside a delivery error (an SMTP server's rejection often names its recipient). */
const ADDRESS = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g;

export async function outboxView(ctx: AppContext): Promise<OutboxView> {
  const [counts, backlog, failed, pending] = await Promise.all([
    countOutboxByState(ctx.db.kysely),
    pendingBacklog(ctx.db.kysely),
    listOutboxEntries(ctx.db.kysely, { state: 'failed', limit: OUTBOX_MESSAGES }),
    listOutboxEntries(ctx.db.kysely, { state: 'pending', limit: OUTBOX_MESSAGES }),
  ]);
  const now = ctx.clock.now();
  const messages = [...failed, ...pending]
    .sort((a, b) => b.id - a.id)
    .map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      state: entry.state,
      attempts: entry.attempts,
      last_error: entry.lastError === null ? null : entry.lastError.replace(ADDRESS, '[address]'),
      next_attempt_at: entry.state === 'pending' ? new Date(entry.nextAttemptAt).toISOString() : null,
    }));
  return {
    pending: counts.pending,
    failed: counts.failed,
    oldest_pending_seconds: backlog.oldestCreatedAt === null ? null : Math.max(0, Math.floor((now - backlog.oldestCreatedAt) / 1000)),
    messages,
  };
}

export const ALREADY_DELIVERED = 'admin.messageDelivered';

/**
 * Has one message tried at once: a failed one goes back in the queue with a fresh attempt
 * budget, one waiting for its next attempt is made due now. A delivered one: 400.
 */
export async function retryOutboxMessage(ctx: AppContext, actor: Actor, messageId: number, reason?: string | null): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const state = await retryEntryNow(trx, messageId, ctx.clock.now());
    if (state === undefined) throw notFound();
    if (state === 'sent') throw nonFieldError(ALREADY_DELIVERED);
    const row = await trx.selectFrom('outbox').select('account_id').where('id', '=', messageId).executeTakeFirst();
    await record(ctx, trx, actor, 'outbox-retry', row?.account_id ?? null, reason);
  });
  ctx.outbox.wake();
}

export const MAX_AUDIT_RECORDS = 500;

export async function auditList(ctx: AppContext, limit: number): Promise<AuditList> {
  const rows = await listAuditRecords(ctx.db.kysely, limit);
  return rows.map((row) => ({
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    via: row.via,
    operator: row.operator_account_id === null ? null : { id: row.operator_account_id, email: row.operator_email },
    action: row.action,
    account_id: row.account_id,
    reason: row.reason,
    search: row.search,
    cli_user: row.cli_user,
  }));
}
