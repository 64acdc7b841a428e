// docs/accounts.md#language: the account's language — given at registration or negotiated from
// its Accept-Language, read and changed on /account/profile/, refused when the service does not
// offer it — and the e-mails written in it. Real server, real SMTP server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatMessage } from '../../src/i18n/format.ts';
import { createAccount } from '../helpers/accounts.ts';
import { mailText } from '../helpers/mail-text.ts';
import { PASSWORD, startMailedServer, uniqueEmail, type MailedServer } from './account-flows.ts';

function registerWith(mailed: MailedServer, body: object, acceptLanguage?: string) {
  return mailed.server.request('POST', '/auth/register/', {
    body: { email: uniqueEmail('lang'), password: PASSWORD, ...body },
    headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage },
  });
}

describe('the account’s language', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  test('at registration: the best of LANGUAGES for Accept-Language; none acceptable or no header: en', async () => {
    const cases: Array<[string | undefined, string]> = [
      ['fr-CH, fr;q=0.9, en;q=0.8', 'fr'],
      ['de-AT', 'de'],
      ['it, es;q=0.4, en;q=0.3', 'es'],
      ['it, pt', 'en'],
      [undefined, 'en'],
    ];
    for (const [header, expected] of cases) {
      const response = await registerWith(mailed, {}, header);
      assert.equal(response.status, 201, response.text);
      assert.equal(response.body.language, expected, `Accept-Language: ${header}`);
    }
  });

  test('at registration: `language` wins over Accept-Language; an unknown one is 400 under language', async () => {
    const chosen = await registerWith(mailed, { language: 'es' }, 'de');
    assert.equal(chosen.status, 201, chosen.text);
    assert.equal(chosen.body.language, 'es');
    for (const language of ['xx', 'EN', '', 7]) {
      const refused = await registerWith(mailed, { language });
      assert.equal(refused.status, 400, `language ${JSON.stringify(language)}`);
      assert.deepEqual(Object.keys(refused.body), ['language'], refused.text);
    }
  });

  test('the verification e-mail of a registration is written in the language it got', async () => {
    const email = uniqueEmail('fr');
    const response = await mailed.server.request('POST', '/auth/register/', {
      body: { email, password: PASSWORD },
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.equal(response.status, 201, response.text);
    const mail = await mailed.sink.waitFor((m) => m.to.includes(email.toLowerCase()));
    const read = mailText(mail.raw);
    assert.equal(read.subject, formatMessage('fr', 'email', 'verification.subject'));
    assert.ok(read.text.includes(formatMessage('fr', 'email', 'verification.intro', { address: email })), read.text);
    assert.ok(read.text.includes('24 heures'), read.text);
    assert.match(read.html, /^<!doctype html><html lang="fr">/);
  });

  test('GET shows it; PATCH changes it (and PUT keeps it when it does not say); 400 under language for an unknown one', async () => {
    const account = await createAccount(mailed.server);
    const read = async () => (await mailed.server.request('GET', '/account/profile/', { token: account.token })).body.language;
    assert.equal(await read(), 'en');
    const patched = await mailed.server.request('PATCH', '/account/profile/', { token: account.token, body: { language: 'de' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.language, 'de');
    assert.equal(patched.body.first_name, 'Ada', 'the names stay');
    assert.equal(await read(), 'de');
    const put = await mailed.server.request('PUT', '/account/profile/', {
      token: account.token,
      body: { first_name: 'A', last_name: 'L' },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.language, 'de');
    const refused = await mailed.server.request('PATCH', '/account/profile/', { token: account.token, body: { language: 'xx' } });
    assert.equal(refused.status, 400);
    assert.deepEqual(Object.keys(refused.body), ['language']);
    assert.equal(await read(), 'de', 'unchanged by the refused request');
  });

  test('the next e-mail after a change is written in the new language', async () => {
    const account = await createAccount(mailed.server);
    await mailed.server.request('PATCH', '/account/profile/', { token: account.token, body: { language: 'es' } });
    const added = uniqueEmail('added');
    const response = await mailed.server.request('POST', '/account/emails/', { token: account.token, body: { email: added } });
    assert.equal(response.status, 201, response.text);
    const notice = await mailed.sink.waitFor((m) => m.to.includes(account.email.toLowerCase()));
    assert.equal(mailText(notice.raw).subject, formatMessage('es', 'email', 'addressAdded.subject'));
    const verification = await mailed.sink.waitFor((m) => m.to.includes(added.toLowerCase()));
    assert.equal(mailText(verification.raw).subject, formatMessage('es', 'email', 'verification.subject'), 'to the new address too');
  });
});

describe('a language not in LANGUAGES', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ LANGUAGES: 'en,de' });
  });
  after(() => mailed.close());

  test('is 400 under language at registration and on the profile; Accept-Language asking for it gets the default', async () => {
    const refused = await registerWith(mailed, { language: 'fr' });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(Object.keys(refused.body), ['language']);
    const negotiated = await registerWith(mailed, {}, 'fr, de;q=0.5');
    assert.equal(negotiated.body.language, 'de');
    const fallback = await registerWith(mailed, {}, 'fr');
    assert.equal(fallback.body.language, 'en');

    const account = await createAccount(mailed.server);
    const patch = await mailed.server.request('PATCH', '/account/profile/', { token: account.token, body: { language: 'fr' } });
    assert.equal(patch.status, 400, patch.text);
    assert.deepEqual(Object.keys(patch.body), ['language']);
    const offered = await mailed.server.request('PATCH', '/account/profile/', { token: account.token, body: { language: 'de' } });
    assert.equal(offered.status, 200, offered.text);
    assert.equal(offered.body.language, 'de');
  });
});
