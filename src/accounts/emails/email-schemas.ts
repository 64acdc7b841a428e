import { Type } from 'typebox';
import { EXAMPLE_EMAIL, EXAMPLE_PASSWORD, namedExamples } from '../../http/openapi-document.ts';

export const EmailField = Type.String({ format: 'email', maxLength: 254 });

/** The address the request examples add to the examples' account. */
export const EXAMPLE_ADDED_EMAIL = 'ada.lovelace@example.com';

/** Verification actions (docs/accounts.md): what happens when an address is verified. */
export const VERIFICATION_ACTIONS = [
  { id: 1, label: 'noop' },
  { id: 2, label: 'replace primary email' },
] as const;

export const NOOP_ACTION = 1;
export const REPLACE_PRIMARY_ACTION = 2;

export const EmailAddressSchema = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  email: Type.String(),
  verified: Type.Boolean(),
  verified_action: Type.Integer({ description: '1 = noop, 2 = replace primary email (see /account/emails/actions/)' }),
  primary: Type.Boolean(),
});

export const EmailAddressListSchema = Type.Array(EmailAddressSchema);

export const EmailActionListSchema = Type.Array(Type.Object({ id: Type.Integer(), label: Type.String() }));

export const EmailCreateBody = Type.Object(
  {
    email: EmailField,
    verified_action: Type.Optional(
      Type.Enum(
        VERIFICATION_ACTIONS.map((action) => action.id),
        {
          description: 'Run when the address is verified: 1 = noop (default), 2 = replace primary email',
        },
      ),
    ),
    primary: Type.Optional(Type.Boolean({ description: 'Must not be true: an address can be made primary once verified.' })),
  },
  { examples: [{ email: EXAMPLE_ADDED_EMAIL, verified_action: 1 }] },
);

const EmailChangeFields = {
  primary: Type.Optional(Type.Boolean({ description: 'true makes this verified address the primary one' })),
  email: Type.Optional(Type.String({ description: 'Cannot be changed; add a new address instead.' })),
  verified_action: Type.Optional(Type.Integer({ description: 'Cannot be changed after the address is added.' })),
};

export const EmailPatchBody = Type.Object(EmailChangeFields, { examples: [{ primary: true }] });

/**
 * PUT needs every required field: the address itself, sent back unchanged. The example is the
 * address the examples' account registered with (id 1 on a fresh service), so it works as sent.
 */
export const EmailPutBody = Type.Object(
  {
    ...EmailChangeFields,
    email: Type.String({ description: 'The address as it is: it cannot be changed; add a new address instead.' }),
  },
  { examples: [{ email: EXAMPLE_EMAIL, primary: true }] },
);

export const EmailIdParams = Type.Object({ id: Type.String() });

/** The code of an e-mail (docs/accounts.md#codes-by-e-mail): six digits, spaces and dashes allowed. */
export function emailCodeField(description: string) {
  return Type.String({ minLength: 1, maxLength: 20, description });
}

export const VerifyEmailBody = Type.Object(
  {
    key: Type.Optional(Type.String({ minLength: 1, description: 'The key from the verification e-mail (the `key` of its link)' })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'With `email_code`: the address being verified' })),
    email_code: Type.Optional(emailCodeField('In place of `key`: the 6-digit code from the same e-mail (10 minutes, once)')),
    password: Type.String({ minLength: 1, description: "The password of the address's account" }),
  },
  namedExamples({
    key: { summary: 'With the key of the link', value: { key: 'key-from-the-e-mail', password: EXAMPLE_PASSWORD } },
    code: {
      summary: 'With the code from the e-mail',
      value: { email: EXAMPLE_ADDED_EMAIL, email_code: '123456', password: EXAMPLE_PASSWORD },
    },
  }),
);

export const EmptyObject = Type.Object({});
