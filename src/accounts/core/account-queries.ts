import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Language } from '../../i18n/languages.ts';

export interface AccountRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  is_operator: number;
  /** The language of its e-mails (docs/accounts.md#language). */
  language: Language;
}

/** The account with its primary address (every account has exactly one). */
export function findAccount(db: Kysely<Database>, accountId: number): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .innerJoin('email_addresses', (join) =>
      join.onRef('email_addresses.account_id', '=', 'accounts.id').on('email_addresses.is_primary', '=', 1),
    )
    .select([
      'accounts.id',
      'email_addresses.email',
      'accounts.first_name',
      'accounts.last_name',
      'accounts.password_hash',
      'accounts.is_operator',
      'accounts.language',
    ])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
}

/** `language` left out: the column's default, `en` (test fixtures and tools that need no other). */
export async function insertAccount(
  trx: Kysely<Database>,
  values: { firstName: string; lastName: string; passwordHash: string; language?: Language; now: number },
): Promise<number> {
  const row = await trx
    .insertInto('accounts')
    .values({
      first_name: values.firstName,
      last_name: values.lastName,
      password_hash: values.passwordHash,
      language: values.language,
      created_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateAccountNames(
  trx: Kysely<Database>,
  accountId: number,
  names: { first_name: string; last_name: string },
): Promise<void> {
  await trx.updateTable('accounts').set(names).where('id', '=', accountId).execute();
}

export async function updateAccountLanguage(trx: Kysely<Database>, accountId: number, language: Language): Promise<void> {
  await trx.updateTable('accounts').set({ language }).where('id', '=', accountId).execute();
}

/** The language of the account's e-mails; `fallback` for an account that is gone. */
export async function accountLanguage(db: Kysely<Database>, accountId: number, fallback: Language): Promise<Language> {
  const row = await db.selectFrom('accounts').select('language').where('id', '=', accountId).executeTakeFirst();
  return row?.language ?? fallback;
}

export async function updatePasswordHash(trx: Kysely<Database>, accountId: number, passwordHash: string): Promise<void> {
  await trx.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', accountId).execute();
}
