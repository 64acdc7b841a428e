// What operators read and change of accounts (docs/operators.md): the account's own row, its
// addresses, and counts of its sessions and second factors. Nothing here reads personal data
// (app users, profiles, items, emergency information, media, accessors).
import { type Kysely, sql } from 'kysely';
import type { AuditVia, Database } from '../db/schema.ts';

/** Accounts one search answers at most. */
export const MAX_FOUND_ACCOUNTS = 50;

export interface AccountSummaryRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  created_at: number;
  last_sign_in_at: number | null;
  disabled_at: number | null;
  is_operator: number;
  sessions: number | string | null;
  totp_enabled: number | null;
  passkeys: number | string | null;
}

function accountSummaries(db: Kysely<Database>) {
  return db
    .selectFrom('accounts')
    .innerJoin('email_addresses as primary_address', (join) =>
      join.onRef('primary_address.account_id', '=', 'accounts.id').on('primary_address.is_primary', '=', 1),
    )
    .select((eb) => [
      'accounts.id',
      'primary_address.email',
      'accounts.first_name',
      'accounts.last_name',
      'accounts.created_at',
      'accounts.last_sign_in_at',
      'accounts.disabled_at',
      'accounts.is_operator',
      eb
        .selectFrom('auth_tokens')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('auth_tokens.account_id', '=', 'accounts.id')
        .as('sessions'),
      eb
        .selectFrom('totp_secrets')
        .select('totp_secrets.enabled')
        .whereRef('totp_secrets.account_id', '=', 'accounts.id')
        .as('totp_enabled'),
      eb
        .selectFrom('passkeys')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('passkeys.account_id', '=', 'accounts.id')
        .as('passkeys'),
    ]);
}

/** `text` as a LIKE pattern matching it anywhere, its own wildcards taken literally. */
function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The first accounts by id with an address (any of theirs) containing `text`, case-insensitively. */
export function findAccountsByEmail(db: Kysely<Database>, text: string): Promise<AccountSummaryRow[]> {
  return accountSummaries(db)
    .where('accounts.id', 'in', (eb) =>
      eb
        .selectFrom('email_addresses')
        .select('email_addresses.account_id')
        .where(sql<boolean>`email_addresses.email_lower like ${containing(text)} escape '\\'`),
    )
    .orderBy('accounts.id')
    .limit(MAX_FOUND_ACCOUNTS)
    .execute();
}

export function findAccountSummary(db: Kysely<Database>, accountId: number): Promise<AccountSummaryRow | undefined> {
  return accountSummaries(db).where('accounts.id', '=', accountId).executeTakeFirst();
}

/** The account whose primary address is `email` (case-insensitively), or any address of it. */
export async function findAccountIdByEmail(db: Kysely<Database>, email: string): Promise<number | undefined> {
  const row = await db.selectFrom('email_addresses').select('account_id').where('email_lower', '=', email.toLowerCase()).executeTakeFirst();
  return row?.account_id;
}

export function listAccountAddresses(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('email_addresses')
    .select(['id', 'email', 'verified', 'is_primary'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

/** What the operators' routes ask of their caller's account: the role, and a second factor (how the session was opened is the caller's, token-auth.ts). */
export async function operatorStanding(
  db: Kysely<Database>,
  accountId: number,
): Promise<{ operator: boolean; secondFactor: boolean } | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => [
      'accounts.is_operator',
      'accounts.disabled_at',
      eb
        .selectFrom('totp_secrets')
        .select('totp_secrets.enabled')
        .whereRef('totp_secrets.account_id', '=', 'accounts.id')
        .as('totp_enabled'),
      eb.exists(eb.selectFrom('passkeys').select('passkeys.id').whereRef('passkeys.account_id', '=', 'accounts.id')).as('has_passkey'),
    ])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    operator: row.is_operator === 1 && row.disabled_at === null,
    secondFactor: row.totp_enabled === 1 || Boolean(row.has_passkey),
  };
}

export async function setOperator(db: Kysely<Database>, accountId: number, isOperator: boolean): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ is_operator: isOperator ? 1 : 0 })
    .where('id', '=', accountId)
    .execute();
}

/**
 * Disables the account as of `at` (an account disabled already keeps its first time); null
 * enables it. True when it changed (it was enabled, or disabled).
 */
export async function setDisabled(db: Kysely<Database>, accountId: number, at: number | null): Promise<boolean> {
  let query = db.updateTable('accounts').set({ disabled_at: at }).where('id', '=', accountId);
  query = at !== null ? query.where('disabled_at', 'is', null) : query.where('disabled_at', 'is not', null);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes every second factor: the TOTP secret, the recovery codes and the passkeys. False when there were none. */
export async function removeSecondFactors(db: Kysely<Database>, accountId: number): Promise<boolean> {
  const totp = await db.deleteFrom('totp_secrets').where('account_id', '=', accountId).executeTakeFirst();
  await db.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
  const passkeys = await db.deleteFrom('passkeys').where('account_id', '=', accountId).executeTakeFirst();
  return Number(totp.numDeletedRows) + Number(passkeys.numDeletedRows) > 0;
}

export interface AuditRecord {
  at: number;
  via: AuditVia;
  operatorAccountId: number | null;
  action: string;
  accountId: number | null;
  reason: string | null;
  search: string | null;
  cliUser: string | null;
}

export async function insertAuditRecord(db: Kysely<Database>, record: AuditRecord): Promise<void> {
  await db
    .insertInto('operator_audit')
    .values({
      at: record.at,
      via: record.via,
      operator_account_id: record.operatorAccountId,
      action: record.action,
      account_id: record.accountId,
      reason: record.reason,
      search: record.search,
      cli_user: record.cliUser,
    })
    .execute();
}

/** The newest records first, with the operator's primary address while their account exists. */
export function listAuditRecords(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('operator_audit')
    .leftJoin('email_addresses as operator_address', (join) =>
      join.onRef('operator_address.account_id', '=', 'operator_audit.operator_account_id').on('operator_address.is_primary', '=', 1),
    )
    .select([
      'operator_audit.id',
      'operator_audit.at',
      'operator_audit.via',
      'operator_audit.operator_account_id',
      'operator_address.email as operator_email',
      'operator_audit.action',
      'operator_audit.account_id',
      'operator_audit.reason',
      'operator_audit.search',
      'operator_audit.cli_user',
    ])
    .orderBy('operator_audit.id', 'desc')
    .limit(limit)
    .execute();
}
