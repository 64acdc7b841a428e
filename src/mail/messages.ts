// The e-mails of the service, each written in its recipient's language from
// locales/<language>/email.json (docs/accounts.md#language). Links are built from the configured
// templates and PUBLIC_URL, never from a request's Host header. Names, addresses, links and codes
// are the people's own and go in as they are.
import type { Config } from '../config.ts';
import type { EmailMessageKey } from '../i18n/catalogues.ts';
import { formatMessage, type MessageValues } from '../i18n/format.ts';
import type { Language } from '../i18n/languages.ts';
import type { MailMessage } from './transport.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function linkFor(template: string, key: string): string {
  return template.replace('{key}', encodeURIComponent(key));
}

/** A message of the e-mail catalogue in `language`. */
function say(language: Language, key: EmailMessageKey, values?: MessageValues): string {
  return formatMessage(language, 'email', key, values);
}

/** A paragraph: a catalogue message, with its values if it has any, or sentences already said. */
type Paragraph = EmailMessageKey | [EmailMessageKey, MessageValues] | { said: string[] };

/** An e-mail: its subject and paragraphs, then the link if any, then the signature. */
function compose(language: Language, to: string, subject: EmailMessageKey, paragraphs: Paragraph[], link?: string): MailMessage {
  const texts = paragraphs.map((paragraph) => {
    if (typeof paragraph === 'string') return say(language, paragraph);
    if (Array.isArray(paragraph)) return say(language, paragraph[0], paragraph[1]);
    return paragraph.said.join(' ');
  });
  const signature = say(language, 'common.signature');
  const text = [...texts, ...(link ? [link] : []), signature].join('\n\n') + '\n';
  const html =
    `<!doctype html><html lang="${language}"><body>` +
    texts.map((p) => `<p>${escapeHtml(p)}</p>`).join('') +
    (link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : '') +
    `<p>${escapeHtml(signature)}</p></body></html>`;
  return { to, subject: say(language, subject), text, html, language };
}

/** A moment as the recipient reads it, in UTC (the e-mails say so): "29 November 2026, 14:05" in en. */
function dateTime(language: Language, at: number): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(at));
}

/** How long an e-mailed code lives, as the e-mails say it (accounts/emails/email-codes.ts keeps the rule). */
const EMAIL_CODE_MINUTES = 10;

export function verificationMessage(config: Config, language: Language, to: string, key: string, code: string): MailMessage {
  const hours = Math.round(config.emailVerificationTtlMs / 3_600_000);
  return compose(
    language,
    to,
    'verification.subject',
    [
      ['verification.intro', { address: to }],
      ['common.codeInsteadOfLink', { code, minutes: EMAIL_CODE_MINUTES }],
      ['verification.expiry', { hours }],
    ],
    linkFor(config.emailVerificationUrl, key),
  );
}

export function passwordResetMessage(config: Config, language: Language, to: string, key: string, code: string): MailMessage {
  const minutes = Math.round(config.passwordResetTtlMs / 60_000);
  return compose(
    language,
    to,
    'passwordReset.subject',
    ['passwordReset.intro', ['common.codeInsteadOfLink', { code, minutes: EMAIL_CODE_MINUTES }], ['passwordReset.expiry', { minutes }]],
    linkFor(config.passwordResetUrl, key),
  );
}

/** A code to sign in with, asked for at POST /auth/email-code/. */
export function signInCodeMessage(language: Language, to: string, code: string): MailMessage {
  return compose(language, to, 'signInCode.subject', [
    'signInCode.intro',
    ['signInCode.code', { code, minutes: EMAIL_CODE_MINUTES }],
    'signInCode.warning',
  ]);
}

export function addressAddedMessage(language: Language, to: string, addedAddress: string): MailMessage {
  return compose(language, to, 'addressAdded.subject', [['addressAdded.body', { address: addedAddress }], 'addressAdded.warning']);
}

/** The last e-mail to a deleted account: once sent, the outbox keeps no trace of the address. */
export function accountDeletedMessage(language: Language, to: string): MailMessage {
  return {
    ...compose(language, to, 'accountDeleted.subject', ['accountDeleted.body', 'accountDeleted.warning']),
    forgetRecipient: true,
  };
}

export function passwordChangedMessage(language: Language, to: string): MailMessage {
  return compose(language, to, 'passwordChanged.subject', ['passwordChanged.body', 'passwordChanged.warning']);
}

export function totpEnabledMessage(language: Language, to: string): MailMessage {
  return compose(language, to, 'totpEnabled.subject', ['totpEnabled.body', 'totpEnabled.warning']);
}

export function totpDisabledMessage(language: Language, to: string): MailMessage {
  return compose(language, to, 'totpDisabled.subject', ['totpDisabled.body', 'totpDisabled.warning']);
}

export function passkeyAddedMessage(language: Language, to: string, name: string): MailMessage {
  return compose(language, to, 'passkeyAdded.subject', [['passkeyAdded.body', { name }], 'passkeyAdded.warning']);
}

/** Another provider's sign-in was linked: from now on it signs in to this account. */
export function identityLinkedMessage(language: Language, to: string, providerLabel: string): MailMessage {
  return compose(language, to, 'identityLinked.subject', [['identityLinked.body', { provider: providerLabel }], 'identityLinked.warning']);
}

export function recoveryCodeUsedMessage(language: Language, to: string, codesLeft: number): MailMessage {
  return compose(language, to, 'recoveryCodeUsed.subject', [['recoveryCodeUsed.body', { count: codesLeft }], 'recoveryCodeUsed.warning']);
}

/** An operator turned the second factor off (docs/operators.md), as asked by someone who lost it. */
export function secondFactorRemovedMessage(language: Language, to: string): MailMessage {
  return compose(language, to, 'secondFactorRemoved.subject', ['secondFactorRemoved.body', 'secondFactorRemoved.warning']);
}

/** Someone with the password failed the second step too often: the owner should change the password. */
export function secondStepLockedMessage(language: Language, to: string, lockMs: number): MailMessage {
  const minutes = Math.max(1, Math.ceil(lockMs / 60_000));
  const wait =
    minutes % 60 === 0 ? say(language, 'common.hours', { count: minutes / 60 }) : say(language, 'common.minutes', { count: minutes });
  return compose(language, to, 'secondStepLocked.subject', [['secondStepLocked.body', { wait }], 'secondStepLocked.warning']);
}

/** Who sent an invitation, as its e-mails name them: "Ada Lovelace (ada@example.com)", or the address alone. */
export interface Inviter {
  firstName: string;
  lastName: string;
  email: string;
}

function inviterName(inviter: Inviter): string {
  const name = `${inviter.firstName} ${inviter.lastName}`.trim();
  return name === '' ? inviter.email : `${name} (${inviter.email})`;
}

const access = (canWrite: boolean) => (canWrite ? 'write' : 'read');

/** The invitation's sentences on what the share is limited to: some profiles, an end date. */
function limits(language: Language, invitation: { expiresAt?: number | null; someProfiles?: boolean }): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  if (invitation.someProfiles) paragraphs.push('invitation.someProfiles');
  if (invitation.expiresAt != null) paragraphs.push(['invitation.until', { until: dateTime(language, invitation.expiresAt) }]);
  return paragraphs;
}

/**
 * An invitation to see (or keep up to date) someone's information (docs/sharing.md). It carries no
 * key: the page it links to lists the invitations addressed to the reader's verified addresses,
 * so the link is the same for every invitation and leads nowhere for anyone else.
 */
export function invitationMessage(
  publicUrl: string,
  language: Language,
  to: string,
  invitation: { inviter: Inviter; appUserName: string; canWrite: boolean; expiresAt?: number | null; someProfiles?: boolean },
): MailMessage {
  return compose(
    language,
    to,
    'invitation.subject',
    [
      [
        'invitation.body',
        { inviter: inviterName(invitation.inviter), address: to, access: access(invitation.canWrite), name: invitation.appUserName },
      ],
      // What the share is limited to, so that the person knows before accepting.
      ...limits(language, invitation),
      ['invitation.accept', { address: to }],
      'invitation.decline',
    ],
    `${publicUrl}/shared`,
  );
}

/** To the owner, when the person invited accepted. Names only what the owner wrote: the address invited. */
export function invitationAcceptedMessage(
  language: Language,
  to: string,
  acceptance: { invitedEmail: string; appUserName: string; canWrite: boolean },
): MailMessage {
  return compose(language, to, 'invitationAccepted.subject', [
    ['invitationAccepted.body', { address: acceptance.invitedEmail, access: access(acceptance.canWrite), name: acceptance.appUserName }],
    'invitationAccepted.closing',
  ]);
}

/** To the owner, when an accessor's end date passed (docs/sharing.md): a share, or an invitation never accepted. */
export function shareExpiredOwnerMessage(
  language: Language,
  to: string,
  expiry: { invitedEmail: string; appUserName: string; accepted: boolean },
): MailMessage {
  return compose(language, to, 'shareExpiredOwner.subject', [
    [
      expiry.accepted ? 'shareExpiredOwner.body' : 'shareExpiredOwner.pendingBody',
      { address: expiry.invitedEmail, name: expiry.appUserName },
    ],
    'shareExpiredOwner.closing',
  ]);
}

/** To the person whose access ended (docs/sharing.md). */
export function shareExpiredAccessorMessage(language: Language, to: string, expiry: { owner: Inviter; appUserName: string }): MailMessage {
  return compose(language, to, 'shareExpiredAccessor.subject', [
    ['shareExpiredAccessor.body', { owner: inviterName(expiry.owner), name: expiry.appUserName }],
    'shareExpiredAccessor.closing',
  ]);
}

/**
 * To the person whose expired access the owner gave back with a later end date, or none
 * (docs/sharing.md): what they may do again, and until when.
 */
export function shareRestoredMessage(
  publicUrl: string,
  language: Language,
  to: string,
  restored: { owner: Inviter; appUserName: string; canWrite: boolean; expiresAt: number | null },
): MailMessage {
  return compose(
    language,
    to,
    'shareRestored.subject',
    [
      ['shareRestored.body', { owner: inviterName(restored.owner), name: restored.appUserName, access: access(restored.canWrite) }],
      restored.expiresAt === null ? 'shareRestored.noEnd' : ['shareRestored.until', { until: dateTime(language, restored.expiresAt) }],
      'shareRestored.open',
    ],
    `${publicUrl}/shared`,
  );
}

/** How the e-mails name a link: by its label, if it has one. */
function linkValues(label: string): MessageValues {
  return { labelled: label === '' ? 'no' : 'yes', label };
}

/** A view of an emergency link (docs/emergency-links.md): at most one of these per link an hour. */
export function emergencyLinkViewedMessage(
  language: Language,
  to: string,
  label: string,
  view: { at: number; ipAddress: string | null; userAgent: string | null },
): MailMessage {
  const source = [view.ipAddress, view.userAgent && `(${view.userAgent})`].filter(Boolean).join(' ');
  const opened = say(language, 'emergencyViewed.body', { ...linkValues(label), at: dateTime(language, view.at) });
  return compose(language, to, 'emergencyViewed.subject', [
    { said: source ? [opened, say(language, 'emergencyViewed.from', { source })] : [opened] },
    'emergencyViewed.listed',
    'emergencyViewed.warning',
  ]);
}

/** Too many wrong PINs for an emergency link. `lockMs`: how long it is locked; null: it takes no PIN until its owner sets one again. */
export function emergencyLinkLockedMessage(language: Language, to: string, label: string, lockMs: number | null): MailMessage {
  if (lockMs === null) {
    return compose(language, to, 'emergencyLocked.subject', [
      ['emergencyLocked.stopped', linkValues(label)],
      'emergencyLocked.stoppedAdvice',
    ]);
  }
  const minutes = Math.max(1, Math.ceil(lockMs / 60_000));
  return compose(language, to, 'emergencyLocked.subject', [
    ['emergencyLocked.paused', { ...linkValues(label), minutes }],
    'emergencyLocked.pausedAdvice',
  ]);
}

/** To each operator: a webhook endpoint failed for 5 days straight and was disabled. */
export function webhookDisabledMessage(language: Language, to: string, url: string, failingSince: number): MailMessage {
  return compose(language, to, 'webhookDisabled.subject', [
    ['webhookDisabled.body', { url, since: dateTime(language, failingSince) }],
    'webhookDisabled.advice',
  ]);
}
