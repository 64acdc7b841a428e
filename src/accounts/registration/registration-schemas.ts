import { Type } from 'typebox';
import { EXAMPLE_EMAIL, EXAMPLE_PASSWORD } from '../../http/openapi-document.ts';
import type { Language } from '../../i18n/languages.ts';
import { FirstNameField, LastNameField, languageField } from '../core/profile-schemas.ts';
import { EmailField } from '../emails/email-schemas.ts';

/** `language` left out: the best of LANGUAGES for the request's Accept-Language. */
export function registerBody(languages: readonly Language[]) {
  return Type.Object(
    {
      email: EmailField,
      password: Type.String({
        description: '8–128 characters, not all digits, not a common password, not like the e-mail address or names',
      }),
      first_name: Type.Optional(FirstNameField),
      last_name: Type.Optional(LastNameField),
      language: Type.Optional(languageField(languages)),
    },
    { examples: [{ email: EXAMPLE_EMAIL, password: EXAMPLE_PASSWORD, first_name: 'Ada', last_name: 'Lovelace' }] },
  );
}
