import { Type } from 'typebox';
import { EXAMPLE_EMAIL, EXAMPLE_PASSWORD } from '../../http/openapi-document.ts';
import { FirstNameField, LastNameField } from '../core/profile-schemas.ts';
import { EmailField } from '../emails/email-schemas.ts';

export const RegisterBody = Type.Object(
  {
    email: EmailField,
    password: Type.String({ description: '8–128 characters, not all digits, not a common password, not like the e-mail address or names' }),
    first_name: Type.Optional(FirstNameField),
    last_name: Type.Optional(LastNameField),
  },
  { examples: [{ email: EXAMPLE_EMAIL, password: EXAMPLE_PASSWORD, first_name: 'Ada', last_name: 'Lovelace' }] },
);
