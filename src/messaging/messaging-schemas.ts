import { Type, type Static } from 'typebox';

/** Long enough for any provider nonce, short enough that a token stays a header-sized string. */
const NONCE_MAX_LENGTH = 1024;

export const IdentityTokenBody = Type.Object(
  { nonce: Type.String({ minLength: 1, maxLength: NONCE_MAX_LENGTH, description: 'The nonce issued by the messaging provider.' }) },
  { examples: [{ nonce: 'c3b7f0e2-6a41-4f3e-9d2a-1f8e5b7c9a04' }] },
);
export type IdentityTokenBody = Static<typeof IdentityTokenBody>;

export const IdentityTokenResponse = Type.Object({
  identity_token: Type.String({ description: 'An RS256 JWT for the messaging provider.' }),
});
