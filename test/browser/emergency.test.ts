// docs/emergency-links.md in a real browser: the owner makes emergency links on their page and gets a
// printable card whose QR code is read back and must be exactly the link; a stranger opens the
// link in a fresh browser (no cookie, no token) on another screen, is asked for the PIN, is
// refused a wrong one and shown the information for the right one; the owner sees the view,
// changes and revokes the link, and the stranger's reload says it is not valid any more. A link
// without a PIN opens at once, and one given too many wrong PINs is locked. Once with the owner
// on a desktop and the stranger on a phone, once the other way round; axe on every page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContextOptions } from 'playwright-core';
import { DESKTOP, PHONE, newContext } from './browser.ts';
import {
  assertStranger,
  changeLink,
  checkEntry,
  checkPrinting,
  checkQrCode,
  checkShown,
  checkViews,
  createLink,
  expectNotValid,
  makeOwner,
  revokeLink,
  signInToLinks,
  unlockWithPin,
} from './emergency-flow.ts';
import { Flow, visible } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { landscapePng } from './picture.ts';
import { qrTextOfPng } from './qr-code.ts';

/** Wrong PINs that lock a link (RATE_LIMIT_EMERGENCY_PIN below). */
const PIN_TRIES = 3;

describe('emergency links in the web client', () => {
  // The limits on, as in production, for the PIN lock-out; the per-IP one roomy, since every
  // request of the test comes from one address.
  const started = withServiceAndBrowser({
    RATE_LIMITS: 'on',
    RATE_LIMIT_EMERGENCY_PIN: `${PIN_TRIES}/15m`,
    RATE_LIMIT_EMERGENCY_LINK_IP: '1000/1m',
  });

  test('the QR reader used below can fail: a picture without a code has none', () => {
    assert.throws(() => qrTextOfPng(landscapePng()), /no QR code found/);
  });

  async function run(label: string, ownerScreen: BrowserContextOptions, strangerScreen: BrowserContextOptions) {
    const owner = await makeOwner(started.service, label);
    const ownerContext = await newContext(started.browser, ownerScreen);
    const strangerContext = await newContext(started.browser, strangerScreen);
    try {
      const flow = new Flow(await ownerContext.newPage(), { label: `${label}, owner`, phone: ownerScreen === PHONE });
      const stranger = new Flow(await strangerContext.newPage(), { label: `${label}, stranger`, phone: strangerScreen === PHONE });

      await signInToLinks(flow, started.service, owner);
      const wallet = await createLink(flow, started.service, owner, {
        label: 'Wallet card',
        pin: '2468',
        pinHint: 'My sister Grace knows it.',
      });
      await flow.step('the card passes axe', () => flow.checkAccessible('emergency links, the new card', 'emergency-link-card'));
      await checkQrCode(flow, wallet.link);
      await checkPrinting(flow, wallet.link, owner);
      await flow.step('the list shows the link', async () => {
        const inAYear = new Date();
        inAYear.setFullYear(inAYear.getFullYear() + 1);
        const year = String(inAYear.getFullYear());
        await checkEntry(flow, 'Wallet card', { pin: 'Yes', views: 0, expires: year, lastViewed: 'Never' });
      });

      await stranger.step('a fresh browser opens the link', async () => {
        await stranger.page.goto(wallet.link);
        await assertStranger(strangerContext, stranger.page);
      });
      await unlockWithPin(stranger, owner, '2468', '1357');
      const userAgent = (await stranger.page.evaluate('navigator.userAgent')) as string;
      await checkViews(flow, 'Wallet card', userAgent);
      await changeLink(flow, 'Wallet card', 'Wallet card (blue)');

      const bracelet = await createLink(flow, started.service, owner, { label: 'Bracelet', never: true });
      await checkQrCode(flow, bracelet.link);
      await flow.step('a link without a PIN is listed as such', () =>
        checkEntry(flow, 'Bracelet', { pin: 'No', views: 0, expires: 'Never', lastViewed: 'Never' }),
      );
      await stranger.step('a link without a PIN opens at once', async () => {
        await stranger.page.goto(bracelet.link);
        await checkShown(stranger, owner);
        assert.equal(await stranger.page.getByLabel('PIN', { exact: true }).count(), 0, 'no PIN asked');
        await stranger.checkAccessible('public page, no PIN');
      });

      await revokeLink(flow, 'Wallet card (blue)');
      await flow.step('the owner page passes axe after the changes', () => flow.checkAccessible('emergency links, changed'));
      await stranger.step('the revoked link, reloaded, is not valid any more', async () => {
        await stranger.page.goto(wallet.link);
        await stranger.page.reload();
        await expectNotValid(stranger, 'public page, revoked');
      });

      const fridge = await createLink(flow, started.service, owner, { label: 'Fridge door', pin: '8642' });
      await stranger.step(`${PIN_TRIES} wrong PINs lock the link, even for the right one`, async () => {
        await stranger.page.goto(fridge.link);
        await visible(stranger.page.getByLabel('PIN', { exact: true }), 'the PIN field');
        for (let attempt = 1; attempt <= PIN_TRIES; attempt++) {
          // Each attempt answered before the next one starts.
          const answered = stranger.page.waitForResponse((r) => r.url().includes('/public/emergency/') && r.request().method() === 'POST');
          await stranger.page.getByLabel('PIN', { exact: true }).fill(`000${attempt}`);
          await stranger.press(stranger.page.getByRole('button', { name: 'Show the information', exact: true }));
          assert.equal((await answered).status(), 400, `wrong PIN ${attempt}`);
          await visible(stranger.page.getByText('The PIN is not correct.', { exact: true }), `the wrong-PIN message (${attempt})`);
        }
        await stranger.page.getByLabel('PIN', { exact: true }).fill('8642');
        await stranger.press(stranger.page.getByRole('button', { name: 'Show the information', exact: true }));
        await visible(
          stranger.page.getByText(/^This link is locked for now after too many tries\. Try again in about 15 minutes\.$/),
          'the lock',
        );
        await stranger.checkAccessible('public page, locked', 'public-emergency-locked');
        await stranger.page.reload();
        await visible(stranger.page.getByText(/^This link is locked for now/), 'the lock, after a reload');
        assert.equal(await stranger.page.getByRole('heading', { name: owner.name }).count(), 0, 'nothing shown');
      });

      assert.deepEqual(flow.pageErrors, [], "no uncaught exception or console error on the owner's page");
      assert.deepEqual(stranger.pageErrors, [], 'no uncaught exception or console error on the public page');
    } finally {
      await ownerContext.close();
      await strangerContext.close();
    }
  }

  test('the owner on a desktop, the stranger on a phone', () => run('desktop-owner', DESKTOP, PHONE));

  test('the owner on a phone, the stranger on a desktop', () => run('phone-owner', PHONE, DESKTOP));
});
