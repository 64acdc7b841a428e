// The personal data pages and the operators' console in the reader's language: a browser set to
// de-DE, fr-FR or es-ES reads every one of them with no English left in <main> — each text and
// each accessible word (aria-label, alt, title, data-label) compared against the same page read
// in English, the person's own data and the API's words (topic types) aside — with
// <html lang> its language, times in its locale and relative times in its words, and axe clean.
// One owner, who is also an operator signed in with two factors, holds a profile with a topic,
// a list item and an image, emergency items and contacts, a viewed emergency link, a share a
// person accepted and used, one still invited, and shares to them from others (an invitation
// limited to some profiles and a date, one accepted, one accepted that ended); all made
// through the API, the browser only reads. Every closed disclosure is opened before reading.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { grantOperator } from '../../src/admin/admin-service.ts';
import { totpCode, STEP_MS } from '../accounts/mfa-flows.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import type { TestServer } from '../helpers/server.ts';
import { DESKTOP, WAIT_MS } from './browser.ts';
import { Flow, visible } from './flow.ts';
import { landscapePng } from './picture.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';

const HOUR = 3_600_000;

async function call(server: TestServer, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const response = await server.request(method, path, { token, body });
  assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
  return response.body;
}

interface Story {
  /** The owner's token: a session opened with the password and a TOTP code (the console needs it). */
  token: string;
  ben: TestAccount;
  profileId: number;
  topicId: number;
  linkCreatedAt: string;
  /** What the person wrote, names and addresses: the same in every language. */
  data: string[];
}

/** Everything the pages show, made through the API; the service's clock left two hours on. */
async function tellStory(server: TestServer): Promise<Story> {
  const stamp = Date.now().toString(36);
  const owner = await createAccount(server, { email: `olive.${stamp}@example.com`, firstName: 'Olive', lastName: 'Owner' });
  const ben = await createAccount(server, { email: `ben.${stamp}@example.com`, firstName: 'Ben', lastName: 'Lovelace' });
  const cleo = await createAccount(server, { email: `cleo.${stamp}@example.com`, firstName: 'Cleo', lastName: 'Writer' });
  const eve = await createAccount(server, { email: `eve.${stamp}@example.com`, firstName: 'Eve', lastName: 'Curie' });
  const invited = `dora.${stamp}@example.com`;

  const user = await call(server, 'POST', '/app/users/', owner.token, { name: 'Olive Owner', quote: 'Carpe diem' });
  const profile = await call(server, 'POST', `/app/users/${user.id}/profiles/`, owner.token, { name: 'Home', is_default: true });
  await call(server, 'POST', `/app/users/${user.id}/profiles/`, owner.token, { name: 'Diary', is_private: true });
  const topic = await call(server, 'POST', `/app/profiles/${profile.id}/topics/`, owner.token, { name: 'Allergies', topic_type: 3 });
  const form = new FormData();
  form.set('name', 'Beach');
  form.set('file', new Blob([new Uint8Array(landscapePng())], { type: 'image/png' }), 'beach.png');
  const uploaded = await server.request('POST', `/app/users/${user.id}/gallery/`, { token: owner.token, raw: form });
  assert.equal(uploaded.status, 201, uploaded.text);
  await call(server, 'POST', `/app/topics/${topic.id}/items/`, owner.token, {
    name: 'Sunny day',
    image_content: { description: 'At the sea', image_resource: uploaded.body.id },
  });
  await call(server, 'POST', `/app/users/${user.id}/emergency-items/`, owner.token, { name: 'Asthma', description: 'Inhaler in the bag' });
  await call(server, 'POST', `/app/users/${user.id}/emergency-contacts/`, owner.token, {
    name: 'Sam Owner',
    relation: 'Brother',
    phone_number: '+442079460018',
  });
  const link = await call(server, 'POST', `/app/users/${user.id}/emergency-links/`, owner.token, { label: 'Wallet card', pin: '2468' });
  const token = new URL(link.link).pathname.split('/').filter(Boolean).pop();
  const opened = await server.request('POST', `/public/emergency/${token}/`, { body: { pin: '2468' } });
  assert.equal(opened.status, 200, opened.text);

  // Ben accepts the share (of "Home" only: "Diary" is private), reads and adds; Dora is invited
  // to a share showing no profile, and has not answered.
  const share = await call(server, 'POST', `/app/users/${user.id}/accessors/`, owner.token, {
    email: ben.email,
    can_write: true,
    profiles: [profile.id],
  });
  await call(server, 'POST', `/app/accessors/${share.id}/accept/`, ben.token);
  await call(server, 'GET', `/app/users/${user.id}/profiles/`, ben.token);
  await call(server, 'POST', `/app/topics/${topic.id}/items/`, ben.token, {
    name: 'Penicillin',
    list_content: { entries: [{ text: 'Rash' }] },
  });
  await call(server, 'POST', `/app/users/${user.id}/accessors/`, owner.token, {
    email: invited,
    has_private_profile_access: true,
    profiles: [],
    expires_at: new Date(server.clock.now() + 30 * 24 * HOUR).toISOString(),
  });

  // Shared with the owner: Ben's data waiting for an answer (some profiles, until a date), Cleo's
  // accepted, Eve's accepted and ended (the clock moves past its end below).
  const benUser = await call(server, 'POST', '/app/users/', ben.token, { name: 'Ben Lovelace' });
  const benProfile = await call(server, 'POST', `/app/users/${benUser.id}/profiles/`, ben.token, { name: 'Home' });
  await call(server, 'POST', `/app/users/${benUser.id}/accessors/`, ben.token, {
    email: owner.email,
    can_write: true,
    expires_at: new Date(server.clock.now() + 30 * 24 * HOUR).toISOString(),
    profiles: [benProfile.id],
  });
  const cleoUser = await call(server, 'POST', '/app/users/', cleo.token, { name: 'Cleo Writer' });
  const cleoShare = await call(server, 'POST', `/app/users/${cleoUser.id}/accessors/`, cleo.token, { email: owner.email });
  await call(server, 'POST', `/app/accessors/${cleoShare.id}/accept/`, owner.token);
  const eveUser = await call(server, 'POST', '/app/users/', eve.token, { name: 'Eve Curie' });
  const eveShare = await call(server, 'POST', `/app/users/${eveUser.id}/accessors/`, eve.token, {
    email: owner.email,
    expires_at: new Date(server.clock.now() + HOUR).toISOString(),
  });
  await call(server, 'POST', `/app/accessors/${eveShare.id}/accept/`, owner.token);

  // An operator, signed in with the password and a code.
  await grantOperator(server.server.ctx, { via: 'cli', user: 'test@localhost' }, owner.id);
  const enrolled = await call(server, 'POST', '/account/mfa/totp/', owner.token, { password: owner.password });
  await call(server, 'POST', '/account/mfa/totp/confirm/', owner.token, { code: totpCode(enrolled.secret, server.clock.now()) });
  server.clock.advance(STEP_MS);
  const first = await call(server, 'POST', '/auth/login/', '', { username: owner.email, password: owner.password });
  const second = await call(server, 'POST', '/auth/login/mfa/', '', {
    mfa_token: first.mfa_token,
    code: totpCode(enrolled.secret, server.clock.now()),
  });
  // Something in the audit: the operator read Ben's account.
  await call(server, 'GET', `/admin/accounts/${ben.id}/`, second.token);

  server.clock.advance(2 * HOUR);
  return {
    token: second.token,
    ben,
    profileId: profile.id,
    topicId: topic.id,
    linkCreatedAt: link.created_at,
    data: [
      'Olive Owner',
      'Olive',
      'Owner',
      'Carpe diem',
      'Home',
      'Diary',
      'Allergies',
      'Beach',
      'Sunny day',
      'At the sea',
      'Penicillin',
      'Rash',
      'Asthma',
      'Inhaler in the bag',
      'Sam Owner',
      'Brother',
      'Wallet card',
      'Ben Lovelace',
      'Ben',
      'Lovelace',
      'Cleo Writer',
      'Eve Curie',
      'Eve',
      'Curie',
      owner.email,
      ben.email,
      cleo.email,
      eve.email,
      invited,
      // The device of the link's view: the User-Agent the test's request sent.
      'node',
      // A unit, written so in German and Spanish too (French: Ko).
      'KB',
    ],
  };
}

interface Shown {
  path: string;
  /** What says the page has loaded what it shows (the person's data, mostly). */
  ready: (page: Page) => ReturnType<Page['locator']>;
  /** What else must be in the page (a select's options, which are never "visible"). */
  loaded?: (page: Page) => ReturnType<Page['locator']>;
  /** After opening every disclosure: what its content has loaded. */
  opened?: (page: Page) => ReturnType<Page['locator']>;
}

function pages(story: Story): Shown[] {
  return [
    { path: '/data', ready: (p) => p.getByRole('main').getByRole('link', { name: 'Home', exact: true }) },
    {
      path: `/data/profiles/${story.profileId}`,
      ready: (p) => p.getByRole('main').getByRole('link', { name: 'Allergies', exact: true }),
      loaded: (p) => p.locator('main select[name="topic_type"] option'),
    },
    {
      path: `/data/topics/${story.topicId}?profile=${story.profileId}`,
      ready: (p) => p.getByRole('heading', { level: 3, name: 'Penicillin' }),
      loaded: (p) => p.locator('main select option').filter({ hasText: /^Beach$/ }),
    },
    { path: '/data/gallery', ready: (p) => p.locator('main figcaption', { hasText: 'Beach' }) },
    { path: '/data/emergency', ready: (p) => p.getByRole('heading', { level: 3, name: 'Sam Owner' }) },
    {
      path: '/data/emergency/links',
      ready: (p) => p.getByRole('heading', { level: 3, name: 'Wallet card' }),
      opened: (p) => p.locator('main table.views tbody tr').first(),
    },
    { path: '/data/share', ready: (p) => p.locator('main li.card', { hasText: story.ben.email }) },
    { path: '/data/activity', ready: (p) => p.locator('main ol.activity li').first() },
    {
      path: '/shared',
      ready: (p) => p.getByRole('heading', { level: 3, name: 'Ben Lovelace' }),
      loaded: (p) => p.getByRole('heading', { level: 3, name: 'Eve Curie' }),
    },
    { path: '/admin', ready: (p) => p.locator('main table tbody tr').first() },
    { path: `/admin?account=${story.ben.id}`, ready: (p) => p.locator('main dl.facts') },
    { path: '/admin?view=outbox', ready: (p) => p.locator('main dl.facts') },
    { path: '/admin?view=audit', ready: (p) => p.locator('main table.audit tbody tr').first() },
    { path: '/admin?view=webhooks', ready: (p) => p.locator('main form#add-webhook') },
  ];
}

// Run in the page as source text (tsx would wrap a named function in a helper the page lacks):
// every text of <main> (codes and the audit's action codes aside, which are not words) and
// every accessible word in its attributes.
const READ_MAIN = `(() => {
  const main = document.querySelector('main');
  const found = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('code, td.action, time')) continue;
    const text = node.textContent.trim();
    if (text) found.push(text);
  }
  for (const element of main.querySelectorAll('[aria-label], [alt], [title], [data-label]')) {
    for (const name of ['aria-label', 'alt', 'title', 'data-label']) {
      const value = element.getAttribute(name);
      if (value && element.tagName !== 'TIME') found.push(value.trim());
    }
  }
  return found;
})()`;

/** Whether `text` holds words beyond the person's data (names, addresses) and the API's. */
function hasOwnWords(text: string, data: string[]): boolean {
  let rest = text;
  for (const known of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(known).join(' ');
  return /\p{L}{2,}/u.test(rest);
}

/** Words each language writes as English does (checked one by one, not English left behind). */
const SAME_WORDS: Record<string, string[]> = {
  de: ['Name', 'PIN', 'URL', 'Webhooks', 'Status', 'Mailchimp'],
  fr: ['URL', 'Webhooks', 'Description', 'Actions', 'Action', 'Sessions', 'Invitations', 'Message', 'Type', 'Image', 'Mailchimp'],
  es: ['PIN', 'URL', 'Webhooks', 'No', 'Mailchimp'],
};

describe('the data pages and the console in German, French and Spanish', () => {
  const started = withServiceAndBrowser();
  let story: Story;
  /** Per page, what it says in English. */
  const english = new Map<string, Set<string>>();

  before(async () => {
    story = await tellStory(started.service.server);
  });

  async function openContext(browser: Browser, locale: string): Promise<BrowserContext> {
    const context = await browser.newContext({ ...DESKTOP, locale, timezoneId: 'UTC', reducedMotion: 'reduce' });
    context.setDefaultTimeout(WAIT_MS);
    context.setDefaultNavigationTimeout(WAIT_MS);
    // Signed in as the web client keeps it (sessionStorage), before the page's own scripts run.
    await context.addInitScript(`sessionStorage.setItem('profile-service-token', ${JSON.stringify(story.token)})`);
    return context;
  }

  /** Reads every page in `locale`: the texts of each, after axe and the language checks. */
  async function readAll(locale: string, lang: string): Promise<Map<string, string[]>> {
    const { server, url } = started.service;
    const context = await openContext(started.browser, locale);
    const read = new Map<string, string[]>();
    try {
      const flow = new Flow(await context.newPage(), { label: locale });
      // The page's "now" is the service's: relative times are exact.
      await flow.page.clock.setFixedTime(server.clock.now());
      for (const shown of pages(story)) {
        await flow.step(`${shown.path} in ${locale}`, async () => {
          await flow.page.goto(`${url}${shown.path}`);
          await visible(shown.ready(flow.page), `what ${shown.path} shows`);
          // A locator, not waitForFunction(string): the page's CSP forbids the eval that polls a string.
          if (shown.loaded) await shown.loaded(flow.page).first().waitFor({ state: 'attached' });
          assert.equal(await flow.page.locator('h1').count(), 1, 'one <h1>');
          assert.equal(await flow.page.evaluate('document.documentElement.lang'), lang, '<html lang>');
          await flow.checkAccessible(`${shown.path} (${locale})`);
          await flow.page.evaluate(`document.querySelectorAll('main details').forEach((d) => { d.open = true; })`);
          if (shown.opened) await visible(shown.opened(flow.page), `what the disclosures of ${shown.path} show`);
          read.set(shown.path, (await flow.page.evaluate(READ_MAIN)) as string[]);
        });
      }
      await flow.step(`times in ${locale}`, async () => {
        await flow.page.goto(`${url}/data/emergency/links`);
        const created = flow.page.locator('main dl.facts dd').first();
        await visible(created, 'when the link was created');
        const expected = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
          new Date(story.linkCreatedAt),
        );
        assert.equal((await created.innerText()).trim(), expected, 'the time as the locale writes it');
        await flow.page.goto(`${url}/data/activity`);
        const ago = flow.page.locator('main ol.activity li time').first();
        await visible(ago, 'the newest event’s time');
        const twoHours = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(-2, 'hour');
        assert.equal((await ago.innerText()).trim(), twoHours, 'the relative time in the language');
      });
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error');
    } finally {
      await context.close();
    }
    return read;
  }

  /** The API's topic types in `lang` (its words, not the web client's). */
  async function apiWords(lang: string): Promise<string[]> {
    const { server } = started.service;
    const types = await server.request('GET', '/app/topic-types/', { token: story.token, headers: { 'accept-language': lang } });
    assert.equal(types.status, 200, types.text);
    return (types.body as { label: string }[]).map((type) => type.label);
  }

  test('in English (en-GB), as the other languages are compared with', async () => {
    const read = await readAll('en-GB', 'en');
    const data = [...story.data, ...(await apiWords('en'))];
    for (const [path, texts] of read) {
      const words = texts.filter((text) => hasOwnWords(text, data));
      assert.ok(words.length > 5, `${path} says something in English`);
      english.set(path, new Set(words));
    }
  });

  for (const [locale, lang] of [
    ['de-DE', 'de'],
    ['fr-FR', 'fr'],
    ['es-ES', 'es'],
  ] as const) {
    test(`in ${locale}: no English left, <html lang="${lang}">, times in the locale, axe clean`, async () => {
      assert.ok(english.size > 0, 'the English reading came first');
      const read = await readAll(locale, lang);
      const data = [...story.data, ...(await apiWords(lang)), ...(await apiWords('en'))];
      const same = new Set(SAME_WORDS[lang]);
      const left: string[] = [];
      for (const [path, texts] of read) {
        const inEnglish = english.get(path) ?? new Set();
        for (const text of texts) {
          if (inEnglish.has(text) && hasOwnWords(text, data) && !same.has(text)) left.push(`${path}: "${text}"`);
        }
      }
      assert.deepEqual(left, [], `English left on the pages in ${locale}`);
    });
  }
});
