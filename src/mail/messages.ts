// The e-mails of the service. Links are built from the configured templates and
// PUBLIC_URL, never from a request's Host header.
import type { Config } from '../config.ts';
import type { MailMessage } from './transport.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function linkFor(template: string, key: string): string {
  return template.replace('{key}', encodeURIComponent(key));
}

function compose(to: string, subject: string, paragraphs: string[], link?: string): MailMessage {
  const text = [...paragraphs, ...(link ? [link] : []), '— Profile Service'].join('\n\n') + '\n';
  const html =
    '<!doctype html><html><body>' +
    paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('') +
    (link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : '') +
    '<p>— Profile Service</p></body></html>';
  return { to, subject, text, html };
}

/** How long an e-mailed code lives, as the e-mails say it (accounts/emails/email-codes.ts keeps the rule). */
const EMAIL_CODE_MINUTES = 10;

/** The sentence that carries an e-mailed code (docs/accounts.md#codes-by-e-mail). */
function codeParagraph(code: string, use: string): string {
  return `${use}: ${code}. The code works once, for ${EMAIL_CODE_MINUTES} minutes.`;
}

export function verificationMessage(config: Config, to: string, key: string, code: string): MailMessage {
  const hours = Math.round(config.emailVerificationTtlMs / 3_600_000);
  return compose(
    to,
    'Confirm your e-mail address',
    [
      `Please confirm that ${to} is your e-mail address by opening the link below. You will be asked for your password.`,
      codeParagraph(code, 'In the app, you can enter this code instead of opening the link'),
      `The link works once and expires in ${hours} hour${hours === 1 ? '' : 's'}. If you did not ask for this, ignore this message.`,
    ],
    linkFor(config.emailVerificationUrl, key),
  );
}

export function passwordResetMessage(config: Config, to: string, key: string, code: string): MailMessage {
  const minutes = Math.round(config.passwordResetTtlMs / 60_000);
  return compose(
    to,
    'Reset your password',
    [
      'Someone (hopefully you) asked to reset the password of your Profile Service account. Open the link below to choose a new one.',
      codeParagraph(code, 'In the app, you can enter this code instead of opening the link'),
      `The link works once and expires in ${minutes} minutes. If you did not ask for this, ignore this message: your password is unchanged.`,
    ],
    linkFor(config.passwordResetUrl, key),
  );
}

/** A code to sign in with, asked for at POST /auth/email-code/. */
export function signInCodeMessage(to: string, code: string): MailMessage {
  return compose(to, 'Your sign-in code', [
    'Someone (hopefully you) asked to sign in to your Profile Service account with a code sent to this address.',
    codeParagraph(code, 'Your sign-in code'),
    'If you did not ask for it, ignore this message: nobody can sign in without the code. Never tell it to anyone.',
  ]);
}

export function addressAddedMessage(to: string, addedAddress: string): MailMessage {
  return compose(to, 'An e-mail address was added to your account', [
    `The address ${addedAddress} was added to your Profile Service account. It can be used once it is verified.`,
    'If you did not do this, change your password now.',
  ]);
}

/** The last e-mail to a deleted account: once sent, the outbox keeps no trace of the address. */
export function accountDeletedMessage(to: string): MailMessage {
  return {
    ...compose(to, 'Your account has been deleted', [
      'Your Profile Service account and everything it held (your addresses, sessions, personal data and media) have been deleted, as you asked.',
      'If you did not do this, someone had your password: contact us. You can register again with this address at any time.',
    ]),
    forgetRecipient: true,
  };
}

export function passwordChangedMessage(to: string): MailMessage {
  return compose(to, 'Your password was changed', [
    'The password of your Profile Service account was just changed, and other sessions were signed out.',
    'If you did not do this, reset your password now.',
  ]);
}

export function totpEnabledMessage(to: string): MailMessage {
  return compose(to, 'Two-step sign-in is on', [
    'Two-step sign-in was just turned on for your Profile Service account: signing in now needs a code from your authenticator app as well as your password.',
    'Keep your recovery codes somewhere safe. If you did not do this, reset your password now.',
  ]);
}

export function totpDisabledMessage(to: string): MailMessage {
  return compose(to, 'Two-step sign-in is off', [
    'Two-step sign-in was just turned off for your Profile Service account: signing in needs only your password again.',
    'If you did not do this, reset your password now and turn two-step sign-in back on.',
  ]);
}

export function passkeyAddedMessage(to: string, name: string): MailMessage {
  return compose(to, 'A passkey was added to your account', [
    `A passkey named "${name}" was just added to your Profile Service account: it signs in without your password.`,
    'If you did not do this, remove it under Account, Passkeys, and change your password now.',
  ]);
}

/** Another provider's sign-in was linked: from now on it signs in to this account. */
export function identityLinkedMessage(to: string, providerLabel: string): MailMessage {
  return compose(to, 'A sign-in provider was linked to your account', [
    `Your ${providerLabel} account was just linked to your Profile Service account: signing in with ${providerLabel} now signs in to it, without your password.`,
    'If you did not do this, unlink it under Account, Sign-in providers, and change your password now.',
  ]);
}

export function recoveryCodeUsedMessage(to: string, codesLeft: number): MailMessage {
  return compose(to, 'A recovery code was used', [
    `One of the recovery codes of your Profile Service account was just used in place of a code from your authenticator app. ${codesLeft} unused code${codesLeft === 1 ? '' : 's'} left.`,
    'If you did not do this, someone has your password and a recovery code: reset your password and make new recovery codes now.',
  ]);
}

/** An operator turned the second factor off (docs/operators.md), as asked by someone who lost it. */
export function secondFactorRemovedMessage(to: string): MailMessage {
  return compose(to, 'Two-step sign-in was turned off by the service', [
    'At your request, the people who run Profile Service turned off two-step sign-in for your account: its authenticator app, its recovery codes and its passkeys were removed. Signing in now needs only your password.',
    'Turn two-step sign-in back on in your settings. If you did not ask for this, reset your password now and contact us.',
  ]);
}

/** Someone with the password failed the second step too often: the owner should change the password. */
export function secondStepLockedMessage(to: string, lockMs: number): MailMessage {
  const minutes = Math.max(1, Math.ceil(lockMs / 60_000));
  const wait = minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return compose(to, 'Someone who knows your password failed two-step sign-in', [
    `Someone signed in to your Profile Service account with the right password, then entered too many wrong two-step sign-in codes in a row. Signing in to the account with a code is paused for up to ${wait}.`,
    'If this was not you, someone knows your password: change it now. Your authenticator app and your recovery codes keep working.',
  ]);
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

/**
 * An invitation to see (or keep up to date) someone's information (docs/sharing.md). It carries no
 * key: the page it links to lists the invitations addressed to the reader's verified addresses,
 * so the link is the same for every invitation and leads nowhere for anyone else.
 */
export function invitationMessage(
  publicUrl: string,
  to: string,
  invitation: { inviter: Inviter; appUserName: string; canWrite: boolean },
): MailMessage {
  const what = invitation.canWrite ? 'to see and keep up to date' : 'to see';
  return compose(
    to,
    'You are invited to see shared information',
    [
      `${inviterName(invitation.inviter)} invited ${to} ${what} the information they keep about ${invitation.appUserName} on Profile Service.`,
      `To accept, open the page below and sign in with an account on which ${to} is a verified address (or create one with it). The invitation waits there.`,
      'If you do not want this, ignore this e-mail: nothing is shared with you unless you accept. To decline, choose Decline on the same page; after accepting, you can leave at any time there too.',
    ],
    `${publicUrl}/shared`,
  );
}

/** To the owner, when the person invited accepted. Names only what the owner wrote: the address invited. */
export function invitationAcceptedMessage(
  to: string,
  acceptance: { invitedEmail: string; appUserName: string; canWrite: boolean },
): MailMessage {
  const may = acceptance.canWrite ? 'see and change' : 'see';
  return compose(to, 'Your invitation was accepted', [
    `The invitation you sent to ${acceptance.invitedEmail} was accepted: from now on its account can ${may} the information about ${acceptance.appUserName}.`,
    'You can change what they may do, or end their access, at any time.',
  ]);
}

/** To the owner, when an accessor's end date passed (docs/sharing.md). */
export function shareExpiredOwnerMessage(to: string, expiry: { invitedEmail: string; appUserName: string }): MailMessage {
  return compose(to, 'A share of your information has ended', [
    `The access you gave ${expiry.invitedEmail} to the information about ${expiry.appUserName} reached its end date: they can no longer see it.`,
    'To give it back, set a later end date on that person in the app: no new invitation is needed. Or delete them from the list.',
  ]);
}

/** To the person whose access ended (docs/sharing.md). */
export function shareExpiredAccessorMessage(to: string, expiry: { owner: Inviter; appUserName: string }): MailMessage {
  return compose(to, 'Shared information is no longer available to you', [
    `The access ${inviterName(expiry.owner)} gave you to the information about ${expiry.appUserName} reached its end date: you can no longer see it.`,
    'If you still need it, ask them to extend it: they can do so without a new invitation.',
  ]);
}

function linkName(label: string): string {
  return label === '' ? 'Your emergency link' : `Your emergency link "${label}"`;
}

/** A view of an emergency link (docs/emergency-links.md): at most one of these per link an hour. */
export function emergencyLinkViewedMessage(
  to: string,
  label: string,
  view: { at: number; ipAddress: string | null; userAgent: string | null },
): MailMessage {
  const from = [view.ipAddress && `from ${view.ipAddress}`, view.userAgent && `(${view.userAgent})`].filter(Boolean).join(' ');
  return compose(to, 'Your emergency link was opened', [
    `${linkName(label)} was opened at ${new Date(view.at).toISOString().replace('T', ' ').slice(0, 16)} UTC${from ? ` ${from}` : ''}.`,
    'Every view is listed with the link in the app, for 90 days; further views within the hour are listed without another e-mail.',
    'If you did not expect this, revoke the link in the app: it stops working at once.',
  ]);
}

/** Too many wrong PINs for an emergency link: it is locked for a while. */
/** `lockMs`: how long the link is locked; null: it takes no PIN until its owner sets one again. */
export function emergencyLinkLockedMessage(to: string, label: string, lockMs: number | null): MailMessage {
  if (lockMs === null) {
    return compose(to, 'Wrong PINs were entered for your emergency link', [
      `${linkName(label)} was sent too many wrong PINs again, so it no longer takes any PIN, the right one included.`,
      'To let it open again, set its PIN in the app (the same PIN or a new one), or revoke the link.',
    ]);
  }
  const minutes = Math.max(1, Math.ceil(lockMs / 60_000));
  return compose(to, 'Wrong PINs were entered for your emergency link', [
    `${linkName(label)} was sent too many wrong PINs, so it answers nobody for the next ${minutes} minute${minutes === 1 ? '' : 's'}, the right PIN included.`,
    'If this was not someone you expect, change the PIN or revoke the link in the app.',
  ]);
}

/** To each operator: a webhook endpoint failed for 5 days straight and was disabled. */
export function webhookDisabledMessage(to: string, url: string, failingSince: number): MailMessage {
  return compose(to, 'A webhook endpoint was disabled', [
    `The webhook endpoint ${url} has failed every delivery since ${new Date(failingSince).toISOString()}, five days straight, so Profile Service disabled it. Its events are kept, waiting.`,
    'Fix the receiver, then enable the endpoint again in the operators\' console (or PATCH /admin/webhooks/{id}/ with "enabled": true); a failed delivery can be retried from its list.',
  ]);
}
