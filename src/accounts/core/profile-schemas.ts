import { Type, type Static } from 'typebox';
import { type Language, SUPPORTED_LANGUAGES } from '../../i18n/languages.ts';
import type { AccountRow } from './account-queries.ts';

const NAME_MAX_LENGTH = 150;

export const FirstNameField = Type.String({ maxLength: NAME_MAX_LENGTH });
export const LastNameField = Type.String({ maxLength: NAME_MAX_LENGTH });

const LANGUAGE_DESCRIPTION = "The language of the account's e-mails: en, de, fr or es, as far as the service offers it (LANGUAGES)";

/**
 * `language` in a request: one of the languages this service offers (LANGUAGES), so the
 * schema is made from the configuration and anything else is a 400 under `language`.
 */
export function languageField(languages: readonly Language[]) {
  return Type.Enum([...languages], { description: LANGUAGE_DESCRIPTION });
}

/** The account as its owner sees it; `email` is the primary address. */
export const AccountSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String({ description: 'The primary e-mail address; change it through /account/emails/.' }),
  first_name: Type.String(),
  last_name: Type.String(),
  language: Type.Enum([...SUPPORTED_LANGUAGES], { description: LANGUAGE_DESCRIPTION }),
});

export type Account = Static<typeof AccountSchema>;

/**
 * The account as /account/profile/ answers it (GET, and the PATCH and PUT that change it): it
 * also says whether the caller holds the operator role, for the web client's menu.
 */
export const AccountWithRoleSchema = Type.Object({
  ...AccountSchema.properties,
  is_operator: Type.Boolean({ description: 'The caller is an operator: the /admin/ routes and console are theirs (docs/operators.md)' }),
});

export type AccountWithRole = Static<typeof AccountWithRoleSchema>;

export function toAccount(row: Pick<AccountRow, 'id' | 'email' | 'first_name' | 'last_name' | 'language'>): Account {
  return { id: row.id, email: row.email, first_name: row.first_name, last_name: row.last_name, language: row.language };
}

/** The one mapper of /account/profile/'s answer. */
export function toAccountWithRole(
  row: Pick<AccountRow, 'id' | 'email' | 'first_name' | 'last_name' | 'language' | 'is_operator'>,
): AccountWithRole {
  return { ...toAccount(row), is_operator: row.is_operator === 1 };
}

export function profilePatchBody(languages: readonly Language[]) {
  return Type.Object(
    {
      first_name: Type.Optional(FirstNameField),
      last_name: Type.Optional(LastNameField),
      language: Type.Optional(languageField(languages)),
    },
    { examples: [{ last_name: 'King' }] },
  );
}

/** PUT replaces the names; `language`, which PUT did not have before, stays optional. */
export function profilePutBody(languages: readonly Language[]) {
  return Type.Object(
    {
      first_name: FirstNameField,
      last_name: LastNameField,
      language: Type.Optional(languageField(languages)),
    },
    { examples: [{ first_name: 'Ada', last_name: 'Lovelace' }] },
  );
}

export type ProfileChanges = Static<ReturnType<typeof profilePatchBody>>;
