// How e-mail leaves: SMTP, or files under MAIL_DIR (with the development inbox); the sender and
// the links the e-mails carry.
import { choice, parseUrl, positiveDuration, text, url } from './parsers.ts';
import { ConfigError, type Parser, type Settings, type Variables } from './variable.ts';

export interface MailConfig {
  smtpUrl: string | undefined;
  /** DEV_INBOX: the development inbox (mail/dev-inbox.ts): on, off, or auto (on for a local run only). */
  devInbox: 'auto' | 'on' | 'off';
  /** How long the SMTP server may take to accept the connection, greet, or answer a command. */
  smtpTimeoutMs: number;
  mailFrom: string;
  mailDir: string;
  emailVerificationUrl: string;
  passwordResetUrl: string;
}

/** A link with `{key}` where the e-mail's key goes. */
const linkTemplate: Parser<string> = {
  parse(value, name) {
    if (!value.includes('{key}')) throw new ConfigError(`${name} must contain "{key}", got "${value}"`);
    parseUrl(name, value.replace('{key}', 'k'), ['http:', 'https:']);
    return value;
  },
  placeholder: '',
};

export const MAIL = {
  smtpUrl: { name: 'SMTP_URL', parser: url(['smtp:', 'smtps:']), doc: 'smtp:// or smtps://; unset: each e-mail is a file under MAIL_DIR' },
  devInbox: {
    name: 'DEV_INBOX',
    default: 'auto',
    parser: choice(['auto', 'on', 'off']),
    doc: 'the development inbox at /dev/mail: auto (a local run only), on or off',
  },
  smtpTimeoutMs: {
    name: 'SMTP_TIMEOUT',
    default: '10s',
    parser: positiveDuration,
    doc: 'longest wait for the SMTP server to connect, greet or answer',
  },
  mailFrom: { name: 'MAIL_FROM', default: 'Profile Service <no-reply@localhost>', parser: text, doc: 'the sender' },
  mailDir: { name: 'MAIL_DIR', default: 'data/mail', parser: text, doc: 'where e-mails are written when SMTP_URL is unset' },
  emailVerificationUrl: {
    name: 'EMAIL_VERIFICATION_URL',
    parser: linkTemplate,
    doc: "the verification e-mail's link; unset: $PUBLIC_URL/verify-email?key={key}",
  },
  passwordResetUrl: {
    name: 'PASSWORD_RESET_URL',
    parser: linkTemplate,
    doc: "the reset e-mail's link; unset: $PUBLIC_URL/reset-password?key={key}",
  },
} satisfies Variables;

export function loadMail(settings: Settings, publicUrl: string): MailConfig {
  const smtpUrl = settings.read(MAIL.smtpUrl);
  const devInbox = settings.read(MAIL.devInbox);
  if (devInbox === 'on' && settings.text(MAIL.smtpUrl.name) !== undefined)
    settings.problem('DEV_INBOX=on needs SMTP_URL unset: the inbox lists the e-mails written to MAIL_DIR');
  return {
    smtpUrl,
    devInbox,
    smtpTimeoutMs: settings.read(MAIL.smtpTimeoutMs),
    mailFrom: settings.read(MAIL.mailFrom),
    mailDir: settings.read(MAIL.mailDir),
    emailVerificationUrl: settings.read(MAIL.emailVerificationUrl, `${publicUrl}/verify-email?key={key}`),
    passwordResetUrl: settings.read(MAIL.passwordResetUrl, `${publicUrl}/reset-password?key={key}`),
  };
}
