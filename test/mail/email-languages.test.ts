// docs/accounts.md#language: every e-mail in German, French and Spanish. Every kind the service
// writes (each message function of src/mail/messages.ts) is written in each language with no
// sentence left in English — subject, text and HTML; then, over a real server and a real SMTP
// server, the e-mails of the flows reach each recipient in its own account's language (an
// invitation to an address without an account in the inviter's), each saying its language in
// `Content-Language`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { CATALOGUES, type EmailMessageKey } from '../../src/i18n/catalogues.ts';
import { formatMessage } from '../../src/i18n/format.ts';
import type { Language } from '../../src/i18n/languages.ts';
import * as messages from '../../src/mail/messages.ts';
import type { MailMessage } from '../../src/mail/transport.ts';
import { PASSWORD, startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { createLink, readPublic } from '../emergency/emergency-fixtures.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { mailText, type MailText } from '../helpers/mail-text.ts';
import { accept, invited, pendingOf } from '../sharing/sharing-flows.ts';

const OTHERS: Language[] = ['de', 'fr', 'es'];
const config = loadConfig({ PUBLIC_URL: 'https://profiles.example' });
const inviter = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
const AT = Date.UTC(2026, 10, 29, 14, 5);

/** One call of every message function, in a language: the kinds of e-mail the service writes. */
const KINDS: Record<string, (language: Language) => MailMessage[]> = {
  verificationMessage: (l) => [messages.verificationMessage(config, l, 'grace@example.com', 'K3y', '123456')],
  passwordResetMessage: (l) => [messages.passwordResetMessage(config, l, 'grace@example.com', 'K3y', '123456')],
  signInCodeMessage: (l) => [messages.signInCodeMessage(l, 'grace@example.com', '123456')],
  addressAddedMessage: (l) => [messages.addressAddedMessage(l, 'grace@example.com', 'new@example.com')],
  accountDeletedMessage: (l) => [messages.accountDeletedMessage(l, 'grace@example.com')],
  passwordChangedMessage: (l) => [messages.passwordChangedMessage(l, 'grace@example.com')],
  totpEnabledMessage: (l) => [messages.totpEnabledMessage(l, 'grace@example.com')],
  totpDisabledMessage: (l) => [messages.totpDisabledMessage(l, 'grace@example.com')],
  passkeyAddedMessage: (l) => [messages.passkeyAddedMessage(l, 'grace@example.com', 'Laptop')],
  identityLinkedMessage: (l) => [messages.identityLinkedMessage(l, 'grace@example.com', 'Google')],
  recoveryCodeUsedMessage: (l) => [0, 1, 7].map((left) => messages.recoveryCodeUsedMessage(l, 'grace@example.com', left)),
  secondFactorRemovedMessage: (l) => [messages.secondFactorRemovedMessage(l, 'grace@example.com')],
  secondStepLockedMessage: (l) =>
    [60_000, 15 * 60_000, 3_600_000, 7_200_000].map((ms) => messages.secondStepLockedMessage(l, 'g@example.com', ms)),
  invitationMessage: (l) => [
    ...[true, false].map((canWrite) =>
      messages.invitationMessage(config.publicUrl, l, 'grace@example.com', { inviter, appUserName: 'Charles', canWrite }),
    ),
    messages.invitationMessage(config.publicUrl, l, 'grace@example.com', {
      inviter,
      appUserName: 'Charles',
      canWrite: false,
      expiresAt: AT,
      someProfiles: true,
    }),
  ],
  invitationAcceptedMessage: (l) =>
    [true, false].map((canWrite) =>
      messages.invitationAcceptedMessage(l, 'ada@example.com', { invitedEmail: 'grace@example.com', appUserName: 'Charles', canWrite }),
    ),
  shareExpiredOwnerMessage: (l) =>
    [true, false].map((accepted) =>
      messages.shareExpiredOwnerMessage(l, 'ada@example.com', { invitedEmail: 'g@example.com', appUserName: 'Charles', accepted }),
    ),
  shareExpiredAccessorMessage: (l) => [
    messages.shareExpiredAccessorMessage(l, 'g@example.com', { owner: inviter, appUserName: 'Charles' }),
  ],
  shareRestoredMessage: (l) =>
    [
      { canWrite: false, expiresAt: AT },
      { canWrite: true, expiresAt: null },
    ].map((restored) =>
      messages.shareRestoredMessage(config.publicUrl, l, 'g@example.com', { owner: inviter, appUserName: 'Charles', ...restored }),
    ),
  emergencyLinkViewedMessage: (l) => [
    messages.emergencyLinkViewedMessage(l, 'ada@example.com', 'Wallet', { at: AT, ipAddress: '203.0.113.5', userAgent: 'Responder/2.0' }),
    messages.emergencyLinkViewedMessage(l, 'ada@example.com', '', { at: AT, ipAddress: null, userAgent: null }),
  ],
  emergencyLinkLockedMessage: (l) => [
    messages.emergencyLinkLockedMessage(l, 'ada@example.com', 'Wallet', 60_000),
    messages.emergencyLinkLockedMessage(l, 'ada@example.com', '', 30 * 60_000),
    messages.emergencyLinkLockedMessage(l, 'ada@example.com', 'Wallet', null),
  ],
  webhookDisabledMessage: (l) => [messages.webhookDisabledMessage(l, 'op@example.com', 'https://hooks.example/in', AT)],
};

/** The sentences of an e-mail's text, links and the people's own values aside. */
function sentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((s) => s.trim())
    .filter((s) => s !== '' && !/^https?:\/\/\S+$/.test(s) && !/^\d+\.?$/.test(s));
}

/** The English catalogue's messages that have no placeholders: sentences that must never show in another language. */
const FIXED_ENGLISH = Object.entries(CATALOGUES.en.email)
  .filter(([, message]) => !message.includes('{'))
  .map(([, message]) => message);

function assertNoEnglish(read: Pick<MailText, 'subject' | 'text'>, what: string): void {
  for (const english of FIXED_ENGLISH) assert.ok(!read.text.includes(english), `${what}: English left: "${english}"`);
  assert.ok(!Object.values(CATALOGUES.en.email).includes(read.subject), `${what}: an English subject: ${read.subject}`);
}

describe('every kind of e-mail, in German, French and Spanish', () => {
  test('each message function of src/mail/messages.ts is listed here', () => {
    const functions = Object.entries(messages)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name)
      .sort();
    assert.deepEqual(functions, Object.keys(KINDS).sort());
  });

  for (const language of OTHERS) {
    test(`${language}: the subject and every sentence differ from English; the HTML part says the same, in its language`, () => {
      for (const [kind, make] of Object.entries(KINDS)) {
        const english = make('en');
        const translated = make(language);
        assert.equal(translated.length, english.length);
        for (const [i, message] of translated.entries()) {
          const source = english[i]!;
          const what = `${kind} #${i} (${language})`;
          assert.notEqual(message.subject, source.subject, `${what}: the subject`);
          assert.equal(message.to, source.to);
          const englishSentences = new Set(sentences(source.text));
          for (const sentence of sentences(message.text)) {
            assert.ok(!englishSentences.has(sentence), `${what}: an English sentence: "${sentence}"`);
          }
          assert.equal(sentences(message.text).length >= sentences(source.text).length - 2, true, `${what}: nothing left out`);
          assertNoEnglish(message, what);
          assert.ok(message.html.startsWith(`<!doctype html><html lang="${language}">`), `${what}: html lang`);
          assert.equal(message.language, language, `${what}: the language it goes out with`);
          for (const paragraph of message.text.trim().split('\n\n')) {
            const escaped = paragraph.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
            assert.ok(message.html.includes(escaped), `${what}: the HTML part has "${paragraph}"`);
          }
          // The values go in as they are: links and codes unchanged.
          for (const value of ['K3y', '123456', 'https://profiles.example/shared', 'new@example.com', 'Laptop', 'Wallet']) {
            if (source.text.includes(value)) assert.ok(message.text.includes(value), `${what}: keeps ${value}`);
          }
        }
      }
    });
  }

  test('counts and dates are the language’s own: plurals, month names, the clock', () => {
    const text = (m: MailMessage[]) => m.map((x) => x.text).join('\n');
    assert.match(text(KINDS.recoveryCodeUsedMessage!('de')), /noch 1 unbenutzten Code\..*noch 7 unbenutzte Codes\./s);
    assert.match(text(KINDS.recoveryCodeUsedMessage!('fr')), /Il vous reste 1 code inutilisé\..*Il vous reste 7 codes inutilisés\./s);
    assert.match(text(KINDS.recoveryCodeUsedMessage!('es')), /Le queda 1 código sin usar\..*Le quedan 7 códigos sin usar\./s);
    assert.match(text(KINDS.secondStepLockedMessage!('de')), /höchstens 15 Minuten lang.*höchstens 2 Stunden lang/s);
    assert.match(text(KINDS.emergencyLinkViewedMessage!('de')), /am 29\. November 2026 um 14:05 \(UTC\)/);
    assert.match(text(KINDS.emergencyLinkViewedMessage!('fr')), /le 29 novembre 2026 à 14:05 \(UTC\)/);
    assert.match(text(KINDS.emergencyLinkViewedMessage!('es')), /el 29 de noviembre de 2026.*14:05 \(UTC\)/);
  });
});

/** The next e-mail to `to` whose subject is `key`'s in `language` (the wait fails after WAIT_MS otherwise). */
async function mailIn(mailed: MailedServer, to: string, language: Language, key: EmailMessageKey): Promise<MailText> {
  const subject = formatMessage(language, 'email', key);
  const mail = await mailed.sink.waitFor((m) => m.to.includes(to.toLowerCase()) && mailText(m.raw).subject === subject);
  const read = mailText(mail.raw);
  assertNoEnglish(read, `${key} to ${to} (${language})`);
  assert.ok(read.html.includes(`<html lang="${language}">`));
  assert.match(mail.raw, new RegExp(`^Content-Language: ${language}\r?$`, 'm'), 'the message says its language (RFC 3282)');
  return read;
}

async function speaking(mailed: MailedServer, account: TestAccount, language: Language): Promise<void> {
  const changed = await mailed.server.request('PATCH', '/account/profile/', { token: account.token, body: { language } });
  assert.equal(changed.status, 200, changed.text);
}

describe('the flows’ e-mails reach each person in their own language', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  for (const language of OTHERS) {
    test(`${language}: registration, reset, sign-in code, an added address, a changed password, an emergency view, the deletion`, async () => {
      const { server } = mailed;
      const email = uniqueEmail(`reg-${language}`);
      const registered = await server.request('POST', '/auth/register/', {
        body: { email, password: PASSWORD },
        headers: { 'accept-language': `${language};q=0.9, en;q=0.1` },
      });
      assert.equal(registered.body.language, language);
      await mailIn(mailed, email, language, 'verification.subject');

      const owner: Owner = await createOwner(server);
      await speaking(mailed, owner, language);
      assert.equal((await server.request('POST', '/account/reset-password/', { body: { email: owner.email } })).status, 200);
      await mailIn(mailed, owner.email, language, 'passwordReset.subject');
      assert.equal((await server.request('POST', '/auth/email-code/', { body: { email: owner.email } })).status, 200);
      await mailIn(mailed, owner.email, language, 'signInCode.subject');
      const added = uniqueEmail('added');
      assert.equal((await server.request('POST', '/account/emails/', { token: owner.token, body: { email: added } })).status, 201);
      await mailIn(mailed, owner.email, language, 'addressAdded.subject');
      await mailIn(mailed, added, language, 'verification.subject');

      const link = await createLink(server, owner, { label: 'Karte' });
      const view = await readPublic(server, link.token, { 'accept-language': 'en' });
      assert.equal(view.body.language, language, 'the public answer says which language the person wrote in');
      const viewed = await mailIn(mailed, owner.email, language, 'emergencyViewed.subject');
      assert.ok(viewed.text.includes('Karte'), viewed.text);

      const changed = await server.request('POST', '/account/change-password/', {
        token: owner.token,
        body: { old_password: owner.password, new_password: PASSWORD },
      });
      assert.equal(changed.status, 200, changed.text);
      await mailIn(mailed, owner.email, language, 'passwordChanged.subject');
      const deleted = await server.request('DELETE', '/account/', { token: owner.token, body: { password: PASSWORD } });
      assert.equal(deleted.status, 204, deleted.text);
      await mailIn(mailed, owner.email, language, 'accountDeleted.subject');
    });
  }

  test('an invitation: to an address without an account in the inviter’s language, to an account in its own; the notice in the owner’s', async () => {
    const { server } = mailed;
    const owner = await createOwner(server);
    await speaking(mailed, owner, 'fr');
    const stranger = uniqueEmail('stranger');
    await invited(server, owner.token, owner.appUserId, { email: stranger });
    const invitation = await mailIn(mailed, stranger, 'fr', 'invitation.subject');
    assert.ok(invitation.text.includes(`Ada Lovelace (${owner.email}) a invité ${stranger}`), invitation.text);

    const reader = await createAccount(server, { email: uniqueEmail('reader') });
    await speaking(mailed, reader, 'es');
    const accessor = await invited(server, owner.token, owner.appUserId, { email: reader.email, can_write: true });
    const toReader = await mailIn(mailed, reader.email, 'es', 'invitation.subject');
    assert.ok(toReader.text.includes('a ver y mantener al día la información'), toReader.text);
    assert.equal((await pendingOf(server, reader.token)).length, 1);
    assert.equal((await accept(server, reader.token, accessor.id)).status, 200);
    const notice = await mailIn(mailed, owner.email, 'fr', 'invitationAccepted.subject');
    assert.ok(notice.text.includes('consulter et modifier'), notice.text);
  });
});
