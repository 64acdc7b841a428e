// Shapes of MFA (docs/accounts.md).
import { Type } from 'typebox';
import { EXAMPLE_PASSWORD } from '../../http/openapi-document.ts';

const CodeField = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'A 6-digit code from the authenticator app, or one of the recovery codes',
  examples: ['123456'],
});
const PasswordField = Type.String({ minLength: 1, description: "The account's password", examples: [EXAMPLE_PASSWORD] });

export const MfaStatusSchema = Type.Object({
  totp_enabled: Type.Boolean(),
  recovery_codes_left: Type.Integer({ description: 'Unused recovery codes (0 while MFA is off)' }),
});

export const PasswordBody = Type.Object({ password: PasswordField }, { examples: [{ password: EXAMPLE_PASSWORD }] });

export const TotpEnrolmentSchema = Type.Object({
  secret: Type.String({ description: 'Base32; shown this once only' }),
  otpauth_url: Type.String({ description: 'otpauth://totp/… for an authenticator app (as a QR code)' }),
});

export const CodeBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 64, description: 'The code the authenticator app shows now', examples: ['123456'] }) },
  { examples: [{ code: '123456' }] },
);

export const PasswordAndCodeBody = Type.Object(
  { password: PasswordField, code: CodeField },
  { examples: [{ password: EXAMPLE_PASSWORD, code: '123456' }] },
);

export const RecoveryCodesSchema = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'Ten single-use codes, shown this once only' }),
});

export const MfaLoginBody = Type.Object(
  {
    mfa_token: Type.String({ minLength: 1, maxLength: 128, description: 'From the answer of /auth/login/' }),
    code: CodeField,
  },
  { examples: [{ mfa_token: 'mfa-token-from-the-login-answer', code: '123456' }] },
);

/** The MFA code where a body may need one (account deletion, a reset by key): required when MFA is on. */
export const OptionalCodeField = Type.Optional(
  Type.String({ maxLength: 64, description: 'Needed when MFA is on: a code from the authenticator app, or a recovery code' }),
);
