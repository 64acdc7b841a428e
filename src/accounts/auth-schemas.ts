import { Type } from 'typebox';
import { EmailField } from './email-schemas.ts';
import { FirstNameField, LastNameField } from './profile-schemas.ts';

export const RegisterBody = Type.Object({
  email: EmailField,
  password: Type.String(),
  first_name: Type.Optional(FirstNameField),
  last_name: Type.Optional(LastNameField),
});

export const LoginBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 254, description: 'The e-mail address (or send it as `email`)' })),
  email: Type.Optional(Type.String({ maxLength: 254, description: 'The e-mail address (v1 clients)' })),
  password: Type.String(),
});

export const LoginResponse = Type.Object({
  token: Type.String({ description: 'Send as `Authorization: Token <token>`' }),
});
