// Shapes of the passkey routes (docs/sign-in-providers.md) and the one row → response mapper. The
// authenticator's answers are the JSON form of WebAuthn's PublicKeyCredential, as
// @simplewebauthn/browser's startRegistration()/startAuthentication() return it.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { type Static, Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { EXAMPLE_PASSWORD } from '../../http/openapi-document.ts';
import type { PasskeyRow } from './passkey-queries.ts';

const Base64Url = (description: string, maxLength = 16_384) => Type.String({ pattern: '^[A-Za-z0-9_-]*$', maxLength, description });

const NameField = Type.String({ minLength: 1, maxLength: 100, description: 'What the person calls it ("Phone", "Laptop")' });

export const PasskeySchema = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The last sign-in with it; null: never' }),
  backed_up: Type.Boolean({ description: 'Synced by its provider (a passkey that survives losing the device)' }),
});

export type Passkey = Static<typeof PasskeySchema>;

export const PasskeyListSchema = Type.Array(PasskeySchema);

export const PasskeyIdParams = Type.Object({ id: Type.String() });

/** An example answer's shape; the request examples' story fills in a real one (it is one-time). */
const EXAMPLE_ID = 'q2Yk0iCb8M4rXkqG3qk1aQ';
const EXAMPLE_CLIENT_DATA = Buffer.from(
  JSON.stringify({ type: 'webauthn.create', challenge: 'c2VydmVyLWNoYWxsZW5nZQ', origin: 'http://localhost:8000', crossOrigin: false }),
).toString('base64url');

const CredentialFields = {
  id: Base64Url('The credential id', 1400),
  rawId: Base64Url('The credential id again', 1400),
  type: Type.Literal('public-key'),
  clientExtensionResults: Type.Optional(Type.Object({})),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 40 })),
};

export const RegistrationResponseSchema = Type.Object(
  {
    ...CredentialFields,
    response: Type.Object({
      clientDataJSON: Base64Url('CollectedClientData, base64url'),
      attestationObject: Base64Url('The attestation object (CBOR), base64url'),
      transports: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })),
    }),
  },
  { description: 'navigator.credentials.create()’s answer as JSON (@simplewebauthn/browser startRegistration())' },
);

export const AuthenticationResponseSchema = Type.Object(
  {
    ...CredentialFields,
    response: Type.Object({
      clientDataJSON: Base64Url('CollectedClientData, base64url'),
      authenticatorData: Base64Url('The authenticator data, base64url'),
      signature: Base64Url('The signature, base64url'),
      userHandle: Type.Optional(Base64Url('The user handle the passkey was made with', 200)),
    }),
  },
  { description: 'navigator.credentials.get()’s answer as JSON (@simplewebauthn/browser startAuthentication())' },
);

export const PasskeyOptionsBody = Type.Object(
  {
    password: Type.Optional(
      Type.String({
        description:
          'The account’s password, asked again before a passkey is added. An account without a password sends none: its session must have been opened (signed in) within the last 5 minutes',
      }),
    ),
  },
  { examples: [{ password: EXAMPLE_PASSWORD }] },
);

export const PasskeyCreationBody = Type.Object(
  { name: NameField, response: RegistrationResponseSchema },
  {
    examples: [
      {
        name: 'Laptop',
        response: {
          id: EXAMPLE_ID,
          rawId: EXAMPLE_ID,
          type: 'public-key',
          response: { clientDataJSON: EXAMPLE_CLIENT_DATA, attestationObject: 'o2NmbXRkbm9uZQ', transports: ['internal'] },
          clientExtensionResults: {},
        },
      },
    ],
  },
);
export type PasskeyCreationBody = Static<typeof PasskeyCreationBody> & { response: RegistrationResponseJSON };

export const PasskeyNameBody = Type.Object({ name: NameField }, { examples: [{ name: 'Work laptop' }] });

export const PasskeySignInBody = Type.Object(
  { response: AuthenticationResponseSchema },
  {
    examples: [
      {
        response: {
          id: EXAMPLE_ID,
          rawId: EXAMPLE_ID,
          type: 'public-key',
          response: { clientDataJSON: EXAMPLE_CLIENT_DATA, authenticatorData: 'SZYN5YgO', signature: 'MEUCIQ', userHandle: 'MQ' },
          clientExtensionResults: {},
        },
      },
    ],
  },
);
export type PasskeySignInResponse = AuthenticationResponseJSON;

/** The answer of a login (POST /auth/login/ without MFA). */
export const PasskeyTokenResponse = Type.Object({
  token: Type.String({ description: 'Send as `Authorization: Token <token>`' }),
});

/** WebAuthn options as JSON, to hand to @simplewebauthn/browser (optionsJSON) or the platform's API. */
export const CreationOptionsSchema = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') })),
    timeout: Type.Optional(Type.Integer()),
    excludeCredentials: Type.Optional(
      Type.Array(
        Type.Object({ id: Type.String(), type: Type.Literal('public-key'), transports: Type.Optional(Type.Array(Type.String())) }),
      ),
    ),
    authenticatorSelection: Type.Optional(
      Type.Object({
        residentKey: Type.Optional(Type.String()),
        requireResidentKey: Type.Optional(Type.Boolean()),
        userVerification: Type.Optional(Type.String()),
        authenticatorAttachment: Type.Optional(Type.String()),
      }),
    ),
    attestation: Type.Optional(Type.String()),
    extensions: Type.Optional(Type.Object({}, { additionalProperties: true })),
    hints: Type.Optional(Type.Array(Type.String())),
  },
  { description: 'PublicKeyCredentialCreationOptionsJSON; the challenge works once, within 5 minutes' },
);

export const RequestOptionsSchema = Type.Object(
  {
    challenge: Type.String(),
    rpId: Type.Optional(Type.String()),
    timeout: Type.Optional(Type.Integer()),
    userVerification: Type.Optional(Type.String()),
    allowCredentials: Type.Optional(Type.Array(Type.Object({ id: Type.String(), type: Type.Literal('public-key') }))),
    extensions: Type.Optional(Type.Object({}, { additionalProperties: true })),
    hints: Type.Optional(Type.Array(Type.String())),
  },
  {
    description:
      'PublicKeyCredentialRequestOptionsJSON (no allowCredentials: discoverable passkeys); the challenge works once, within 5 minutes',
  },
);

export function passkeyUrl(ctx: AppContext, id: number): string {
  return `${ctx.config.publicUrl}/account/passkeys/${id}/`;
}

export function toPasskey(ctx: AppContext, row: PasskeyRow) {
  return {
    id: row.id,
    url: passkeyUrl(ctx, row.id),
    name: row.name,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
    backed_up: row.backed_up === 1,
  };
}
