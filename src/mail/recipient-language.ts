// In which language an e-mail to an account is written (docs/accounts.md#language): the account's
// own, as long as the service still offers it (LANGUAGES may have dropped it since it was chosen),
// else DEFAULT_LANGUAGE.
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { Language } from '../i18n/languages.ts';

/** `language` if the service offers it, else the default language. */
export function offeredLanguage(config: Pick<Config, 'languages' | 'defaultLanguage'>, language: Language): Language {
  return config.languages.includes(language) ? language : config.defaultLanguage;
}

/** The language of the e-mails to `accountId`; the default language for an account that is gone. */
export async function recipientLanguage(
  config: Pick<Config, 'languages' | 'defaultLanguage'>,
  db: Kysely<Database>,
  accountId: number,
): Promise<Language> {
  const row = await db.selectFrom('accounts').select('language').where('id', '=', accountId).executeTakeFirst();
  return row ? offeredLanguage(config, row.language) : config.defaultLanguage;
}
