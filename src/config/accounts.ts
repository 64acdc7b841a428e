// Accounts: how long tokens and e-mailed keys last, how long an unverified address is held, and
// the second step (TOTP): the keys that seal its secrets and the name authenticator apps show.
import { duration, keys, positiveDuration, text } from './parsers.ts';
import type { Settings, Values, Variables } from './variable.ts';

export const ACCOUNTS = {
  tokenIdleTtlMs: {
    name: 'TOKEN_IDLE_TTL',
    default: '30d',
    parser: duration,
    doc: 'a token expires this long after its last use; 0: never',
  },
  emailVerificationTtlMs: { name: 'EMAIL_VERIFICATION_TTL', default: '1d', parser: duration, doc: "a verification e-mail's key lifetime" },
  passwordResetTtlMs: { name: 'PASSWORD_RESET_TTL', default: '1h', parser: duration, doc: "a reset e-mail's key lifetime" },
  /** How long an address is held by an account, or a secondary address, that was never verified. */
  unverifiedAccountTtlMs: {
    name: 'UNVERIFIED_ACCOUNT_TTL',
    default: '7d',
    parser: positiveDuration,
    doc: 'how long an address never verified stays held',
  },
  /** Keys that seal TOTP secrets (the first seals, all open); empty: a key kept in the database. */
  mfaEncryptionKeys: {
    name: 'MFA_ENCRYPTION_KEY',
    parser: keys,
    doc: 'the keys that seal TOTP secrets at rest; unset: one kept in the database',
  },
  /** How long the activity logs (docs/activity.md) keep an event. */
  activityRetentionMs: {
    name: 'ACTIVITY_RETENTION',
    default: '365d',
    parser: positiveDuration,
    doc: "how long an app user's activity log and an account's security log keep an event",
  },
  /** The issuer an authenticator app shows beside the account. */
  mfaIssuer: { name: 'MFA_ISSUER', default: 'Profile Service', parser: text, doc: 'the name authenticator apps show beside the account' },
} satisfies Variables;

export type AccountsConfig = Values<typeof ACCOUNTS> & { mfaEncryptionKeys: Buffer[] };

export function loadAccounts(settings: Settings): AccountsConfig {
  const values = settings.readAll(ACCOUNTS);
  return { ...values, mfaEncryptionKeys: values.mfaEncryptionKeys ?? [] };
}
