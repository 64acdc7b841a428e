import { Type } from 'typebox';
import { EmailField } from './email-schemas.ts';
import { OptionalCodeField } from './mfa-schemas.ts';

export const ResetPasswordBody = Type.Object({ email: EmailField });

export const ResetPasswordResponse = Type.Object({
  email: Type.String({ description: 'The address as sent; says nothing about whether it belongs to an account.' }),
});

export const ChangePasswordBody = Type.Object({
  new_password: Type.String(),
  key: Type.Optional(Type.String({ minLength: 1, description: 'A password reset key from the reset e-mail (no token needed)' })),
  old_password: Type.Optional(Type.String({ minLength: 1, description: 'The current password (needs a token)' })),
  code: OptionalCodeField,
});
