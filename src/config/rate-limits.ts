// Rate limits (docs/accounts.md lists them): each as count/window, all off with RATE_LIMITS=off.
import { integer, onOff, rateLimit } from './parsers.ts';
import type { Settings, Values, Variables } from './variable.ts';

export const RATE_LIMITS = {
  enabled: { name: 'RATE_LIMITS', default: 'on', parser: onOff, doc: 'off: no rate limit at all (test harnesses)' },
  loginFailuresPerAccountIp: {
    name: 'RATE_LIMIT_LOGIN_ACCOUNT_IP',
    default: '5/5m',
    parser: rateLimit,
    doc: 'failed logins per account (or unknown address) and client IP',
  },
  loginFailuresPerIp: { name: 'RATE_LIMIT_LOGIN_IP', default: '10/1m', parser: rateLimit, doc: 'failed logins per client IP' },
  loginFailuresPerAccount: { name: 'RATE_LIMIT_LOGIN_ACCOUNT', default: '100/1h', parser: rateLimit, doc: 'failed logins per account' },
  register: { name: 'RATE_LIMIT_REGISTER', default: '10/1h', parser: rateLimit, doc: 'registrations per client IP' },
  resetPassword: { name: 'RATE_LIMIT_RESET_PASSWORD', default: '10/1h', parser: rateLimit, doc: 'password resets per client IP' },
  emailCodeRequests: {
    name: 'RATE_LIMIT_EMAIL_CODE_REQUESTS',
    default: '10/1h',
    parser: rateLimit,
    doc: 'sign-in codes asked for per client IP',
  },
  verifyEmail: { name: 'RATE_LIMIT_VERIFY_EMAIL', default: '20/1h', parser: rateLimit, doc: 'address verifications per client IP' },
  changePassword: { name: 'RATE_LIMIT_CHANGE_PASSWORD', default: '20/1h', parser: rateLimit, doc: 'password changes per client IP' },
  passwordChecksPerAccount: {
    name: 'RATE_LIMIT_PASSWORD_CHECKS_PER_ACCOUNT',
    default: '10/1h',
    parser: rateLimit,
    doc: 'wrong passwords or codes on signed-in routes per account',
  },
  /** Wrong second-step codes in a row per account: past it, the second step waits out the window. */
  secondStepFailuresPerAccount: {
    name: 'RATE_LIMIT_SECOND_STEP_FAILURES',
    default: '10/1h',
    parser: rateLimit,
    doc: "wrong codes in a row at the login's second step per account",
  },
  emailPerAddress: {
    name: 'RATE_LIMIT_EMAIL_PER_ADDRESS',
    default: '1/1m',
    parser: rateLimit,
    doc: 'verification, reset and sign-in code e-mails per address',
  },
  verificationEmailsPerAccount: {
    name: 'RATE_LIMIT_VERIFICATION_EMAILS_PER_ACCOUNT',
    default: '10/1d',
    parser: rateLimit,
    doc: 'verification e-mails one account causes',
  },
  /** Invitation e-mails to one address, whoever sends them; past it an invitation is made but not mailed. */
  invitationEmailsPerAddress: {
    name: 'RATE_LIMIT_INVITATION_EMAILS_PER_ADDRESS',
    default: '3/1d',
    parser: rateLimit,
    doc: 'invitation e-mails to one address, whoever invites it',
  },
  /** Invitation e-mails one account causes, to any addresses; past it an invitation is refused (429). */
  invitationEmailsPerAccount: {
    name: 'RATE_LIMIT_INVITATION_EMAILS_PER_ACCOUNT',
    default: '50/1d',
    parser: rateLimit,
    doc: 'invitation e-mails one account causes',
  },
  exportsPerAccount: { name: 'RATE_LIMIT_EXPORTS_PER_ACCOUNT', default: '5/1h', parser: rateLimit, doc: 'data exports per account' },
  /** Passkey sign-in options (challenges) asked for per client IP. */
  passkeyOptionsPerIp: {
    name: 'RATE_LIMIT_PASSKEY_OPTIONS_IP',
    default: '30/1m',
    parser: rateLimit,
    doc: 'passkey sign-in options (challenges) per client IP',
  },
  /** Sign-ins with another provider per client IP: web flows started, ID tokens and login codes sent (together). */
  providerSignInPerIp: {
    name: 'RATE_LIMIT_PROVIDER_SIGN_IN_IP',
    default: '30/1m',
    parser: rateLimit,
    doc: 'sign-ins with another provider per client IP',
  },
  /** Requests to the public emergency link routes per client IP (GET and POST together). */
  emergencyLinkPerIp: {
    name: 'RATE_LIMIT_EMERGENCY_LINK_IP',
    default: '30/1m',
    parser: rateLimit,
    doc: 'requests to the public emergency link routes per client IP',
  },
  /** Wrong PINs per emergency link: past it, the link answers 429 for the window's length. */
  emergencyPinFailures: { name: 'RATE_LIMIT_EMERGENCY_PIN', default: '5/15m', parser: rateLimit, doc: 'wrong PINs per emergency link' },
  /** Windows the in-memory counters (one SQLite instance) keep per window length. */
  memoryKeys: {
    name: 'RATE_COUNTER_MEMORY_KEYS',
    default: '100000',
    parser: integer(1),
    doc: 'SQLite: limit windows kept in memory per window length',
  },
} satisfies Variables;

export interface RateLimitsConfig {
  rateLimits: Values<typeof RATE_LIMITS>;
}

export function loadRateLimits(settings: Settings): RateLimitsConfig {
  return { rateLimits: settings.readAll(RATE_LIMITS) };
}
