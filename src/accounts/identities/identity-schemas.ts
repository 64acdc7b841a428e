// Shapes of the sign-in provider routes (docs/sign-in-providers.md) and the one row → response mapper.
import { type Static, Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { EXAMPLE_PASSWORD } from '../../http/openapi-document.ts';
import type { IdentityRow } from './identity-queries.ts';

export const ProviderListSchema = Type.Array(
  Type.Object({
    name: Type.String({ description: 'As in the URLs: /auth/oidc/{name}/…' }),
    label: Type.String({ description: 'What a button says: "Continue with {label}"' }),
  }),
);

export const ProviderParams = Type.Object({
  name: Type.String({ maxLength: 30, description: 'The provider’s name (GET /auth/providers/)' }),
});

export const StartQuery = Type.Object({
  redirect: Type.Optional(
    Type.String({ maxLength: 2000, description: 'The web client path to land on once signed in (default "/")', examples: ['/'] }),
  ),
});

/** The provider's answer at the callback: query parameters (GET) or form fields (POST, Apple's form_post). */
export const CallbackFields = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 500 })),
    code: Type.Optional(Type.String({ maxLength: 4000 })),
    iss: Type.Optional(Type.String({ maxLength: 500 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
    user: Type.Optional(Type.String({ maxLength: 2000, description: 'Apple: the name, once, as JSON' })),
  },
  { additionalProperties: Type.String({ maxLength: 4000 }) },
);

const IdTokenFields = {
  id_token: Type.String({ minLength: 1, maxLength: 16_384, description: "The ID token from the platform's own sign-in" }),
  nonce: Type.Optional(
    Type.String({ minLength: 1, maxLength: 500, description: 'The nonce the app made (Apple: the ID token carries its SHA-256, in hex)' }),
  ),
  code: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 4000,
      description: 'Apple: the authorization code beside the ID token (it yields the refresh token)',
    }),
  ),
};

export const IdTokenBody = Type.Object(IdTokenFields, {
  examples: [
    { id_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJodHRwczovL2FjY291bnRzLmdvb2dsZS5jb20ifQ.c2ln', nonce: 'n-0S6_WzA2Mj' },
  ],
});

const LinkPassword = Type.Optional(
  Type.String({
    description:
      'The account’s password, asked again before a provider is linked. An account without a password sends none: its session must have been opened (signed in) within the last 5 minutes',
  }),
);

export const LinkBody = Type.Union(
  [
    Type.Object(
      {
        redirect: Type.String({
          maxLength: 2000,
          description: 'Web: the web client path to come back to once linked; the answer is the URL to send the browser to',
        }),
        password: LinkPassword,
      },
      { additionalProperties: false },
    ),
    Type.Object({ ...IdTokenFields, password: LinkPassword }, { additionalProperties: false }),
  ],
  { examples: [{ redirect: '/settings/identities', password: EXAMPLE_PASSWORD }] },
);

export const AuthorizationUrlResponse = Type.Object({
  authorization_url: Type.String({ description: "The provider's page: send the browser there" }),
});

export const LoginCodeBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 200, description: 'The one-time code the web flow handed the web client' }) },
  { examples: [{ code: 'Hx9kQ2vN7wLr4tYb8mPz3cJf6sDg1aKe5uWo0iRn' }] },
);

export const IdentitySchema = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  provider: Type.String({ description: 'The provider’s name (GET /auth/providers/)' }),
  email: Type.Union([Type.String(), Type.Null()], { description: 'The address the provider gave at the last sign-in' }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The last sign-in with it' }),
});

export type Identity = Static<typeof IdentitySchema>;

export const IdentityListSchema = Type.Array(IdentitySchema);

export const IdentityIdParams = Type.Object({ id: Type.String({ description: 'The identity’s id' }) });

/**
 * Linking names the provider where the identity's id goes once it exists: one path, so the
 * parameter keeps one name (`id`) for every method.
 */
export const LinkParams = Type.Object({
  // Any one path segment passes, an encoded slash too (an unknown name is 404, as the API
  // answers what is not there); a pattern of its own tells the document this is a name, not an
  // id (http/openapi-document.ts), and this one matches every non-empty text.
  id: Type.String({ pattern: '^[\\s\\S]+$', description: 'The provider’s name (GET /auth/providers/), e.g. "google"' }),
});

export const AppleNotificationBody = Type.Object(
  { payload: Type.String({ minLength: 1, maxLength: 16_384, description: "Apple's signed event (a JWT)" }) },
  { examples: [{ payload: 'eyJraWQiOiJZdXlYb1kiLCJhbGciOiJSUzI1NiJ9.eyJldmVudHMiOiJ7fSJ9.c2ln' }] },
);

export function identityUrl(ctx: AppContext, id: number): string {
  return `${ctx.config.publicUrl}/account/identities/${id}/`;
}

export function toIdentity(ctx: AppContext, row: IdentityRow) {
  return {
    id: row.id,
    url: identityUrl(ctx, row.id),
    provider: row.provider,
    email: row.email,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}
