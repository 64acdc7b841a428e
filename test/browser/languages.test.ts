// The web client in the reader's language (web/README.md, "Languages"), in Chromium launched
// with a German, French and Spanish locale: sign-up, verification and sign-in are in the
// browser's language (<html lang>, headings, labels, the status line), pass axe, and show no
// line of their English rendering; the switcher changes the language, which sticks after a
// reload and, signed in, is saved as the account's; signing in where no language was chosen
// takes the account's. The public emergency page read in French
// of an owner writing in German says so and marks the owner's text as German.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { IntlMessageFormat } from 'intl-messageformat';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createAccount } from '../helpers/accounts.ts';
import { expectAccessible } from './axe.ts';
import { DESKTOP, WAIT_MS } from './browser.ts';
import { atPath } from './flow.ts';
import { linkIn, nextMail } from './mail-links.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';

type Lang = 'en' | 'de' | 'fr' | 'es';

function catalogue(language: Lang): Record<string, string> {
  const read = (domain: string) => JSON.parse(readFileSync(new URL(`../../locales/${language}/${domain}.json`, import.meta.url), 'utf8'));
  return { ...read('web-common'), ...read('web-account') };
}

/** The message `key` of `language`, as the page writes it. */
function message(language: Lang, key: string, values?: Record<string, string | number>): string {
  const source = catalogue(language)[key];
  assert.ok(source !== undefined, `no message ${key} in ${language}`);
  return String(new IntlMessageFormat(source, language).format(values));
}

/** Lines that read the same in every language: the service's name and each language's own name. */
const SAME_EVERYWHERE = new Set(['Profile Service', 'English', 'Deutsch', 'Français', 'Español']);

async function openContext(browser: Browser, locale: string): Promise<BrowserContext> {
  const context = await browser.newContext({ ...DESKTOP, locale, timezoneId: 'UTC', reducedMotion: 'reduce' });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  return context;
}

/** The page's visible lines (header, main, options of the switcher aside: they are names). */
async function visibleLines(page: Page): Promise<string[]> {
  // innerText is what is rendered; a copy without the switcher's options is measured in place.
  const text = (await page.evaluate(`(() => {
    const parts = [...document.querySelectorAll('header, main')].map((element) => {
      const copy = element.cloneNode(true);
      for (const select of copy.querySelectorAll('select')) select.remove();
      document.body.append(copy);
      const seen = copy.innerText;
      copy.remove();
      return seen;
    });
    return parts.join('\\n');
  })()`)) as string;
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** The English page at `path`, as a reader with an English browser sees it. */
async function englishLines(browser: Browser, url: string, heading: string): Promise<string[]> {
  const context = await openContext(browser, 'en-GB');
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    return await visibleLines(page);
  } finally {
    await context.close();
  }
}

/** The page is in `language`: its <html lang>, its <h1>, no English line, and axe passes. */
async function inLanguage(page: Page, browser: Browser, language: Lang, headingKey: string, name: string): Promise<void> {
  const heading = message(language, headingKey);
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), language, `${name}: <html lang>`);
  const english = await englishLines(browser, page.url(), message('en', headingKey));
  const shown = new Set(await visibleLines(page));
  const left = english.filter((line) => shown.has(line) && !SAME_EVERYWHERE.has(line));
  assert.deepEqual(left, [], `${name} in ${language} still shows English lines`);
  await expectAccessible(page, `${name} (${language})`);
}

describe('the web client in the browser’s language', () => {
  const started = withServiceAndBrowser();

  for (const [locale, language] of [
    ['de-DE', 'de'],
    ['fr-FR', 'fr'],
    ['es-ES', 'es'],
  ] as const) {
    test(`${locale}: sign-up, verification and sign-in in ${language}; the switcher changes it and it sticks`, async () => {
      const { service, browser } = started;
      const context = await openContext(browser, locale);
      try {
        const page = await context.newPage();
        const email = `lang.${language}.${process.pid}.${Date.now().toString(36)}@example.com`;
        const password = 'correct horse battery staple';

        await page.goto(`${service.url}/sign-up`);
        await inLanguage(page, browser, language, 'signUp.title', 'sign-up');
        const seen = service.sink.messages.length;
        const register = page.waitForRequest((request) => request.url().endsWith('/auth/register/') && request.method() === 'POST');
        await page.getByLabel(message(language, 'field.email'), { exact: true }).fill(email);
        await page.getByLabel(message(language, 'field.password'), { exact: true }).fill(password);
        await page.getByLabel(message(language, 'field.firstName'), { exact: true }).fill('Ada');
        await page.getByLabel(message(language, 'field.lastName'), { exact: true }).fill('Lovelace');
        await page.getByRole('button', { name: message(language, 'signUp.submit'), exact: true }).click();
        assert.equal((await register).postDataJSON().language, language, 'sign-up sends the page’s language');
        await page
          .getByRole('status')
          .filter({ hasText: message(language, 'signUp.created', { email }) })
          .waitFor();

        const mail = await nextMail(service.sink, email, /./, seen);
        await page.goto(linkIn(mail));
        await inLanguage(page, browser, language, 'verify.title', 'verify-email');
        await page.getByLabel(message(language, 'field.password'), { exact: true }).fill(password);
        await page.getByRole('button', { name: message(language, 'verify.submit'), exact: true }).click();
        await page
          .getByRole('status')
          .filter({ hasText: message(language, 'verify.verified') })
          .waitFor();

        await page
          .getByRole('main')
          .getByRole('link', { name: message(language, 'nav.signIn'), exact: true })
          .click();
        await atPath(page, '/sign-in');
        await inLanguage(page, browser, language, 'signIn.title', 'sign-in');

        // The switcher: each language in its own name, marked with its lang.
        const switcher = page.getByLabel(message(language, 'language.label'), { exact: true });
        const options: (string | null)[][] = [];
        for (const option of await switcher.locator('option').all()) {
          options.push([await option.getAttribute('value'), await option.getAttribute('lang'), await option.textContent()]);
        }
        assert.deepEqual(options, [
          ['en', 'en', 'English'],
          ['de', 'de', 'Deutsch'],
          ['fr', 'fr', 'Français'],
          ['es', 'es', 'Español'],
        ]);
        const other: Lang = language === 'fr' ? 'es' : 'fr';
        await switcher.selectOption(other);
        await page.getByRole('heading', { level: 1, name: message(other, 'signIn.title'), exact: true }).waitFor();
        assert.equal(await page.locator('html').getAttribute('lang'), other);
        await page.reload();
        await page.getByRole('heading', { level: 1, name: message(other, 'signIn.title'), exact: true }).waitFor();
        assert.equal(await page.locator('html').getAttribute('lang'), other, 'the choice sticks after a reload');

        // Signed in, a choice is also the account's language (PATCH /account/profile/).
        await page.getByLabel(message(other, 'field.email'), { exact: true }).fill(email);
        await page.getByLabel(message(other, 'field.password'), { exact: true }).fill(password);
        await page.getByRole('button', { name: message(other, 'signIn.submit'), exact: true }).click();
        await atPath(page, '/data');
        const patch = page.waitForRequest((request) => request.url().endsWith('/account/profile/') && request.method() === 'PATCH');
        await page.getByLabel(message(other, 'language.label'), { exact: true }).selectOption(language);
        assert.deepEqual((await patch).postDataJSON(), { language });
        await page.getByRole('link', { name: message(language, 'nav.account'), exact: true }).waitFor();
      } finally {
        await context.close();
      }
    });
  }

  test('en-GB: signing in where no language was chosen takes the account’s; a choice made here stays', async () => {
    const { service, browser } = started;
    const email = `adopt.${process.pid}.${Date.now().toString(36)}@example.com`;
    const account = await createAccount(service.server, { email });
    const set = await service.server.request('PATCH', '/account/profile/', { token: account.token, body: { language: 'de' } });
    assert.equal(set.status, 200, set.text);

    const signIn = async (page: Page, language: Lang) => {
      await page.getByLabel(message(language, 'field.email'), { exact: true }).fill(email);
      await page.getByLabel(message(language, 'field.password'), { exact: true }).fill(account.password);
      await page.getByRole('button', { name: message(language, 'signIn.submit'), exact: true }).click();
      await atPath(page, '/data');
    };

    const fresh = await openContext(browser, 'en-GB');
    try {
      const page = await fresh.newPage();
      const accountReads: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'GET' && new URL(request.url()).pathname === '/account/profile/') accountReads.push(request.url());
      });
      await page.goto(`${service.url}/sign-in`);
      await page.getByRole('heading', { level: 1, name: message('en', 'signIn.title'), exact: true }).waitFor();
      await signIn(page, 'en');
      await page.getByRole('link', { name: message('de', 'nav.account'), exact: true }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'de');
      // The menu (is it an operator's?) and the language share one read of the account.
      assert.equal(accountReads.length, 1, 'the account is read once at sign-in');
      await page.reload();
      await page.getByRole('link', { name: message('de', 'nav.account'), exact: true }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'de', 'kept in this browser');
    } finally {
      await fresh.close();
    }

    const chosen = await openContext(browser, 'en-GB');
    try {
      const page = await chosen.newPage();
      await page.goto(`${service.url}/sign-in`);
      await page.getByLabel(message('en', 'language.label'), { exact: true }).selectOption('fr');
      await page.getByRole('heading', { level: 1, name: message('fr', 'signIn.title'), exact: true }).waitFor();
      const adopted = page
        .waitForResponse((response) => response.url().endsWith('/account/profile/'), { timeout: 2_000 })
        .catch(() => null);
      await signIn(page, 'fr');
      await page.getByRole('link', { name: message('fr', 'nav.account'), exact: true }).waitFor();
      await adopted;
      await page.reload();
      await page.getByRole('link', { name: message('fr', 'nav.account'), exact: true }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'fr', 'the choice made in this browser stays');
    } finally {
      await chosen.close();
    }
  });

  test('fr-FR: the public emergency page of an owner writing in German says so, in French', async () => {
    const { service, browser } = started;
    const { server } = service;
    const account = await createAccount(server, { email: `grete.${process.pid}.${Date.now().toString(36)}@example.com` });
    const call = async (method: 'POST' | 'PATCH', path: string, body: unknown, status: number) => {
      const response = await server.request(method, path, { token: account.token, body });
      assert.equal(response.status, status, `${method} ${path}: ${response.text}`);
      return response.body as { id: number; link: string };
    };
    await call('PATCH', '/account/profile/', { language: 'de' }, 200);
    const user = await call('POST', '/app/users/', { name: 'Grete Müller' }, 201);
    await call('POST', `/app/users/${user.id}/emergency-items/`, { name: 'Allergie', description: 'Penicillin' }, 201);
    await call(
      'POST',
      `/app/users/${user.id}/emergency-contacts/`,
      { name: 'Hans Müller', relation: 'Bruder', phone_number: '5551234567' },
      201,
    );
    const link = await call('POST', `/app/users/${user.id}/emergency-links/`, {}, 201);

    const context = await openContext(browser, 'fr-FR');
    try {
      const page = await context.newPage();
      await page.goto(link.link);
      await page.getByRole('heading', { level: 1, name: 'Grete Müller' }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
      assert.equal(await page.getByRole('heading', { level: 1 }).getAttribute('lang'), 'de', 'the name is marked as German');
      assert.equal(await page.getByRole('heading', { level: 3, name: 'Allergie' }).getAttribute('lang'), 'de');
      await page.getByText('Rédigé en allemand', { exact: true }).waitFor();
      await page.getByRole('heading', { level: 2, name: message('fr', 'emergency.importantHeading'), exact: true }).waitFor();
      await page.getByRole('heading', { level: 2, name: message('fr', 'emergency.contactsHeading'), exact: true }).waitFor();
      const dial = page.getByRole('link', { name: message('fr', 'emergency.call', { number: '5551234567' }), exact: true });
      assert.equal(await dial.getAttribute('href'), 'tel:5551234567');
      assert.equal(await dial.getAttribute('lang'), null, 'the page’s own words are not marked as German');
      await expectAccessible(page, 'public emergency page (fr, owner de)');
      // The switcher is on this page too (it has no header).
      await page.getByLabel(message('fr', 'language.label'), { exact: true }).selectOption('de');
      await page.getByRole('heading', { level: 2, name: message('de', 'emergency.importantHeading'), exact: true }).waitFor();
      assert.equal(await page.getByText('Auf Deutsch verfasst').count(), 0, 'read in German, nothing to say');
    } finally {
      await context.close();
    }
  });
});
