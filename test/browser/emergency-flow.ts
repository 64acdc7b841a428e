// Emergency links in the web client (docs/emergency-links.md), as named steps: the owner's page (create,
// the printable card with its QR code, the list, change, views, revoke) and the public page a
// link opens on a stranger's device. Labels, headings and messages are web/README.md's.
import assert from 'node:assert/strict';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { createAccount } from '../helpers/accounts.ts';
import { atPath, type Flow, pictureLoaded, visible } from './flow.ts';
import type { BrowserService } from './harness.ts';
import { landscapePng } from './picture.ts';
import { qrTextOfDataUrl, qrTextOfPng } from './qr-code.ts';

export interface Owner {
  name: string;
  email: string;
  password: string;
}

/** What the owner keeps, made through the API: the flows here are about the links. */
export const ITEMS = [
  { name: 'Allergy', description: 'Penicillin', picture: 'Allergy card' },
  { name: 'Blood type', description: 'O negative' },
] as const;
export const CONTACTS = [
  { name: 'Grace Hopper', relation: 'Sister', phone_number: '5551234567', alt_phone_number: '5559876543', email: 'grace@example.com' },
  { name: 'Charles Babbage', relation: 'Friend', phone_number: '447700900123', alt_phone_number: '', email: '' },
] as const;

/** A verified account whose app user has the emergency items (one with a picture) and contacts above. */
export async function makeOwner(service: BrowserService, label: string): Promise<Owner> {
  const { server } = service;
  const account = await createAccount(server, { email: `ada.${label}.${process.pid}.${Date.now().toString(36)}@example.com` });
  const call = async (path: string, body: unknown, raw?: FormData) => {
    const response = await server.request('POST', path, raw ? { token: account.token, raw } : { token: account.token, body });
    assert.equal(response.status, 201, `POST ${path}: ${response.text}`);
    return response.body as { id: number };
  };
  const name = 'Ada Lovelace';
  const user = await call('/app/users/', { name });
  const form = new FormData();
  form.append('name', 'Allergy card');
  form.append('file', new Blob([new Uint8Array(landscapePng())], { type: 'image/png' }), 'allergy.png');
  const picture = await call(`/app/users/${user.id}/gallery/`, undefined, form);
  for (const item of ITEMS) {
    await call(`/app/users/${user.id}/emergency-items/`, {
      name: item.name,
      description: item.description,
      media_resource: 'picture' in item ? picture.id : null,
    });
  }
  for (const contact of CONTACTS) await call(`/app/users/${user.id}/emergency-contacts/`, contact);
  return { name, email: account.email, password: account.password };
}

function field(flow: Flow, label: string): Locator {
  return flow.page.getByLabel(label, { exact: true });
}

function button(flow: Flow, name: string): Locator {
  return flow.page.getByRole('button', { name, exact: true });
}

function status(flow: Flow, text: string | RegExp): Locator {
  return flow.page.getByRole('status').filter({ hasText: text });
}

/** A link's entry in the owner's list: the list item whose heading is `name`. */
export function entryOf(flow: Flow, name: string): Locator {
  return flow.page.getByRole('listitem').filter({ has: flow.page.getByRole('heading', { level: 3, name, exact: true }) });
}

/** The value beside `term` in an entry's facts. */
function fact(entry: Locator, term: string): Locator {
  return entry.locator(`dt:text-is("${term}") + dd`);
}

/** The printable card. */
export function printCard(flow: Flow): Locator {
  return flow.page.getByRole('article', { name: 'Emergency information' });
}

export async function signInToLinks(flow: Flow, service: BrowserService, owner: Owner): Promise<void> {
  await flow.step('sign in', async () => {
    await flow.page.goto(`${service.url}/sign-in`);
    await field(flow, 'E-mail address').fill(owner.email);
    await field(flow, 'Password').fill(owner.password);
    await flow.press(button(flow, 'Sign in'));
    await atPath(flow.page, '/data');
  });
  await flow.step('from the emergency information to its links', async () => {
    await flow.press(flow.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Emergency', exact: true }));
    await atPath(flow.page, '/data/emergency');
    await flow.press(flow.page.getByRole('main').getByRole('link', { name: 'Emergency links', exact: true }));
    await atPath(flow.page, '/data/emergency/links');
    await flow.arrive('Emergency links', 'emergency links, none yet');
    await visible(flow.page.getByText('No emergency links yet.', { exact: true }), 'the empty list');
  });
}

export interface NewLink {
  label: string;
  link: string;
}

/** Creates a link on the owner's page and reads it off the card that shows it this once. */
export async function createLink(
  flow: Flow,
  service: BrowserService,
  owner: Owner,
  options: { label: string; pin?: string; pinHint?: string; never?: boolean },
): Promise<NewLink> {
  return flow.step(`create the link "${options.label}"`, async () => {
    await field(flow, 'Label').fill(options.label);
    if (options.pin) await field(flow, 'PIN').fill(options.pin);
    if (options.pinHint) await field(flow, 'PIN hint for the card').fill(options.pinHint);
    if (options.never) await field(flow, 'Never expires').check();
    await flow.press(button(flow, 'Create link'));
    await visible(status(flow, `${options.label} is created.`), 'the status saying the link is created');
    await visible(flow.page.getByRole('heading', { level: 2, name: `The card for ${options.label}` }), "the new link's card");
    const card = printCard(flow);
    await visible(card.getByText(owner.name, { exact: true }), "the person's name on the card");
    const link = (await card.locator('code').innerText()).trim();
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/emergency\/[A-Za-z0-9_-]{22}$/, 'the link, as text');
    assert.ok(link.startsWith(`${service.url}/emergency/`), `${link} opens this service's page`);
    const pinWords = card.getByText(/^The page asks for a PIN\./);
    if (options.pin) {
      const expected = `The page asks for a PIN.${options.pinHint ? ` ${options.pinHint}` : ''}`;
      assert.equal((await visible(pinWords, 'the PIN hint on the card').then((l) => l.innerText())).trim(), expected);
    } else assert.equal(await pinWords.count(), 0, 'a link without a PIN says nothing of one');
    await visible(entryOf(flow, options.label), 'the new link in the list');
    return { label: options.label, link };
  });
}

/** The card's QR code, read back from the image's own bytes and from the picture on the screen, is exactly the link. */
export async function checkQrCode(flow: Flow, link: string): Promise<void> {
  await flow.step('the QR code carries exactly the link', async () => {
    const image = printCard(flow).getByRole('img', { name: 'QR code of the emergency link', exact: true });
    await pictureLoaded(flow.page, image, 'the QR code');
    const src = await image.getAttribute('src');
    assert.ok(src, 'the QR code has a source');
    assert.equal(qrTextOfDataUrl(src), link, "the image's PNG decodes to the link");
    assert.equal(qrTextOfPng(await image.screenshot()), link, 'the picture as drawn on the screen decodes to the link');
  });
}

/** The Print button prints, and the print style keeps only the card (whose QR code still reads). */
export async function checkPrinting(flow: Flow, link: string, owner: Owner): Promise<void> {
  const page = flow.page;
  await flow.step('"Print the card" opens the print dialogue', async () => {
    await page.evaluate('window.__prints = 0; window.print = () => { window.__prints += 1; }');
    await flow.press(button(flow, 'Print the card'));
    assert.equal(await page.evaluate('window.__prints'), 1, 'window.print() was called once');
  });
  await flow.step('printed, the page shows the card alone', async () => {
    await page.emulateMedia({ media: 'print' });
    try {
      const card = printCard(flow);
      await visible(card.getByText(owner.name, { exact: true }), 'the name on the printed card');
      await visible(card.getByText('Emergency information', { exact: true }), 'the title on the printed card');
      await visible(card.getByText(link, { exact: true }), 'the link on the printed card');
      for (const [what, locator] of [
        ['the header', page.locator('header')],
        ['the page heading', flow.heading('Emergency links')],
        ['the create form', button(flow, 'Create link')],
        ['the Print button', button(flow, 'Print the card')],
        ['the list of links', page.getByRole('heading', { level: 2, name: 'Your links' })],
        ['the status', page.getByRole('status')],
      ] as const) {
        assert.equal(await locator.isVisible(), false, `${what} is not printed`);
      }
      const qr = card.getByRole('img', { name: 'QR code of the emergency link', exact: true });
      assert.equal(qrTextOfPng(await qr.screenshot()), link, 'the printed QR code decodes to the link');
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
  });
}

export async function checkEntry(
  flow: Flow,
  label: string,
  expected: { pin: 'Yes' | 'No'; views: number; expires?: string | RegExp; lastViewed?: 'Never' },
): Promise<Locator> {
  const entry = entryOf(flow, label);
  await visible(entry, `the link "${label}" in the list`);
  await visible(fact(entry, 'PIN').filter({ hasText: expected.pin }), `PIN: ${expected.pin}`);
  await visible(fact(entry, 'Views').getByText(String(expected.views), { exact: true }), `Views: ${expected.views}`);
  if (expected.expires) await visible(fact(entry, 'Expires').filter({ hasText: expected.expires }), `Expires: ${expected.expires}`);
  if (expected.lastViewed) await visible(fact(entry, 'Last viewed').getByText(expected.lastViewed, { exact: true }), 'Last viewed: Never');
  await visible(fact(entry, 'Created'), 'when it was made');
  return entry;
}

/** A browser that has never seen the service: no cookie, no stored token. */
export async function assertStranger(context: BrowserContext, page: Page): Promise<void> {
  assert.deepEqual(await context.cookies(), [], 'no cookies');
  const stored = await page.evaluate('[sessionStorage.length, localStorage.length]');
  assert.deepEqual(stored, [0, 0], 'nothing stored: no token');
}

/** The public page, showing what the owner keeps: the name, the items with the picture, the contacts' numbers to call. */
export async function checkShown(flow: Flow, owner: Owner): Promise<void> {
  const page = flow.page;
  await visible(flow.heading(owner.name), "the person's name as the page's heading");
  await visible(page.getByText('Emergency information', { exact: true }), 'what the page is');
  for (const item of ITEMS) {
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: item.name, exact: true }) });
    await visible(card.getByText(item.description, { exact: true }), `the description of ${item.name}`);
    if ('picture' in item) {
      const width = await pictureLoaded(page, card.getByRole('img', { name: item.picture, exact: true }), `the picture of ${item.name}`);
      assert.equal(width, 320, 'the picture uploaded');
    }
  }
  for (const contact of CONTACTS) {
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: contact.name, exact: true }) });
    await visible(card.getByText(contact.relation, { exact: true }), `the relation of ${contact.name}`);
    const numbers = [contact.phone_number, contact.alt_phone_number].filter(Boolean);
    for (const number of numbers) {
      const call = card.getByRole('link', { name: `Call ${number}`, exact: true });
      await visible(call, `the link to call ${number}`);
      assert.equal(await call.getAttribute('href'), `tel:${number}`);
    }
    assert.equal(await card.locator('a[href^="tel:"]').count(), numbers.length, `every number of ${contact.name}, once`);
  }
  // Nothing to go anywhere else: no header, no navigation, no link but calls and e-mails.
  assert.equal(await page.locator('header, nav').count(), 0, 'no header or navigation');
  const hrefs = (await page.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))) as string[];
  assert.deepEqual(
    hrefs.filter((href) => !/^(tel|mailto):/.test(href)),
    [],
    'the only links call or write to a contact',
  );
}

/** On the public page: asks for the PIN, refuses a wrong one, shows the information for the right one. */
export async function unlockWithPin(flow: Flow, owner: Owner, pin: string, wrong: string): Promise<void> {
  await flow.step('the link asks for its PIN', async () => {
    await flow.arrive('Emergency information', 'public page, PIN asked', 'public-emergency-pin');
    await visible(field(flow, 'PIN'), 'the PIN field');
  });
  await flow.step('a wrong PIN is refused', async () => {
    await field(flow, 'PIN').fill(wrong);
    await flow.press(button(flow, 'Show the information'));
    await visible(flow.page.getByText('The PIN is not correct.', { exact: true }), 'the wrong-PIN message');
    assert.equal(await field(flow, 'PIN').getAttribute('aria-invalid'), 'true', 'the field is marked wrong');
    await flow.checkAccessible('public page, wrong PIN', 'public-emergency-wrong-pin');
  });
  await flow.step('the right PIN shows the information', async () => {
    await field(flow, 'PIN').fill(pin);
    await flow.press(button(flow, 'Show the information'));
    await checkShown(flow, owner);
    await flow.checkAccessible('public page', 'public-emergency');
  });
}

export async function checkViews(flow: Flow, label: string, userAgent: string): Promise<void> {
  await flow.step(`the owner sees the view of "${label}"`, async () => {
    await flow.page.reload();
    const entry = await checkEntry(flow, label, { pin: 'Yes', views: 1 });
    assert.notEqual((await fact(entry, 'Last viewed').innerText()).trim(), 'Never', 'when it was last viewed');
    await flow.press(entry.getByText(`Views of ${label}`));
    const table = entry.getByRole('table', { name: `Views of ${label}` });
    await visible(table, 'the table of views');
    const rows = table.locator('tbody tr');
    assert.equal(await rows.count(), 1, 'one view: the wrong PIN was none');
    const cells = (await rows.first().locator('td').allInnerTexts()).map((text) => text.trim());
    assert.equal(cells[1], '127.0.0.1', 'the IP address');
    assert.match(cells[2] ?? '', /^Chrome on (Linux|Android)$/, "the stranger's browser, as a person reads it");
    assert.equal(await rows.first().locator('td').nth(2).getAttribute('title'), userAgent, 'the User-Agent header as its title');
    await flow.checkAccessible('emergency links, views', 'emergency-links-views');
  });
}

export async function changeLink(flow: Flow, label: string, newLabel: string): Promise<void> {
  await flow.step(`rename "${label}" and make it never expire`, async () => {
    const entry = entryOf(flow, label);
    await flow.press(entry.getByText(`Change ${label}`));
    await field(flow, `Label of ${label}`).fill(newLabel);
    await field(flow, `${label} never expires`).check();
    await flow.checkAccessible('emergency links, change form', 'emergency-links-change');
    await flow.press(button(flow, `Save ${label}`));
    await visible(status(flow, `${newLabel} is saved.`), 'the status saying the link is saved');
    await checkEntry(flow, newLabel, { pin: 'Yes', views: 1, expires: 'Never' });
    assert.equal(await entryOf(flow, label).count(), 0, 'the old label is gone');
  });
}

export async function revokeLink(flow: Flow, label: string): Promise<void> {
  await flow.step(`revoke "${label}"`, async () => {
    await flow.press(button(flow, `Revoke ${label}`));
    await flow.press(button(flow, 'Yes, revoke it'));
    await visible(status(flow, `${label} is revoked: its link no longer opens anything.`), 'the status saying the link is revoked');
    await entryOf(flow, label).waitFor({ state: 'detached' });
  });
}

export async function expectNotValid(flow: Flow, name: string): Promise<void> {
  await flow.arrive('Emergency information', name);
  await visible(
    flow.page.getByText('This emergency link is not valid any more.', { exact: true }),
    'the message that the link is not valid',
  );
  assert.equal(await field(flow, 'PIN').count(), 0, 'no PIN is asked');
}
