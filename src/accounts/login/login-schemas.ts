import { Type } from 'typebox';
import { EXAMPLE_EMAIL, EXAMPLE_PASSWORD } from '../../http/openapi-document.ts';

export const LoginBody = Type.Object(
  {
    username: Type.Optional(Type.String({ maxLength: 254, description: 'The e-mail address (or send it as `email`)' })),
    email: Type.Optional(Type.String({ maxLength: 254, description: 'The e-mail address (v1 clients)' })),
    password: Type.String(),
  },
  { examples: [{ username: EXAMPLE_EMAIL, password: EXAMPLE_PASSWORD }] },
);

export const TokenResponse = Type.Object({
  token: Type.String({ description: 'Send as `Authorization: Token <token>`' }),
});

/** With MFA on, a right password answers the second form. */
export const LoginResponse = Type.Union([
  TokenResponse,
  Type.Object({
    mfa_required: Type.Literal(true),
    mfa_token: Type.String({ description: 'Send to /auth/login/mfa/ with a code within 5 minutes; works once' }),
  }),
]);

export const EmailCodeRequestBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 254, description: 'A verified address of the account' }) },
  { examples: [{ email: EXAMPLE_EMAIL }] },
);

export const EmailCodeRequestResponse = Type.Object({
  email: Type.String({ description: 'The address as sent; says nothing about whether it belongs to an account.' }),
});

export const EmailCodeLoginBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254, description: 'The address the code was sent to' }),
    email_code: Type.String({ minLength: 1, maxLength: 20, description: 'The 6-digit code from the e-mail (10 minutes, once)' }),
  },
  { examples: [{ email: EXAMPLE_EMAIL, email_code: '123456' }] },
);
