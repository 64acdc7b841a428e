import { Type } from 'typebox';
import { EXAMPLE_EMAIL, EXAMPLE_PASSWORD, namedExamples } from '../../http/openapi-document.ts';
import { EmailField, emailCodeField } from '../emails/email-schemas.ts';
import { OptionalCodeField } from '../mfa/mfa-schemas.ts';

export const ResetPasswordBody = Type.Object({ email: EmailField }, { examples: [{ email: EXAMPLE_EMAIL }] });

export const ResetPasswordResponse = Type.Object({
  email: Type.String({ description: 'The address as sent; says nothing about whether it belongs to an account.' }),
});

const NEW_PASSWORD = 'violet-lantern-47-quarry';

/** The address of the reset by e-mailed code example: an account of its own, whose password it changes. */
export const EXAMPLE_RESET_EMAIL = 'alan.turing@example.com';

export const ChangePasswordBody = Type.Object(
  {
    new_password: Type.String({ description: 'Checked by the same rules as at registration' }),
    key: Type.Optional(Type.String({ minLength: 1, description: 'A password reset key from the reset e-mail (no token needed)' })),
    email: Type.Optional(
      Type.String({ format: 'email', maxLength: 254, description: 'With `email_code`: the address the reset e-mail went to' }),
    ),
    email_code: Type.Optional(
      emailCodeField('In place of `key`: the 6-digit code from the reset e-mail (10 minutes, once; no token needed)'),
    ),
    old_password: Type.Optional(Type.String({ minLength: 1, description: 'The current password (needs a token)' })),
    code: OptionalCodeField,
  },
  namedExamples({
    current: { summary: 'Signed in, with the current password', value: { old_password: EXAMPLE_PASSWORD, new_password: NEW_PASSWORD } },
    reset: { summary: 'With the key from the reset e-mail (no token)', value: { key: 'key-from-the-e-mail', new_password: NEW_PASSWORD } },
    resetCode: {
      summary: 'With the code from the reset e-mail (no token)',
      value: { email: EXAMPLE_RESET_EMAIL, email_code: '123456', new_password: NEW_PASSWORD },
    },
  }),
);
