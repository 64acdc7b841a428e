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
