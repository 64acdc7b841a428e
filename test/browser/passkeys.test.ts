// docs/sign-in-providers.md in a real browser: Chromium's virtual authenticator (DevTools protocol) stands in
// for a phone or a laptop's chip. A person signs up, adds a passkey in settings (a wrong
// password first), renames it, signs out and back in with it — no address typed — on its own
// and through a page's `?next=`, then deletes it, after which it no longer signs anyone in.
// The service is opened at localhost: WebAuthn takes no IP address as its RP id, and the
// service's defaults (RP id and origin from PUBLIC_URL) then match the browser's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CDPSession } from 'playwright-core';
import { createAccount } from '../helpers/accounts.ts';
import { DESKTOP, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { alert, button, field, newPerson, signIn, signUpAndVerify, status } from './person-flow.ts';

async function credentialsOf(cdp: CDPSession, authenticatorId: string): Promise<number> {
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  return credentials.length;
}

describe('passkeys in the web client', () => {
  const started = withServiceAndBrowser({}, 'localhost');

  test('on a desktop: adds a passkey, signs in with it without an address, renames and deletes it; the pages pass axe', async () => {
    const context = await newContext(started.browser, DESKTOP);
    try {
      const page = await context.newPage();
      const flow = new Flow(page, { label: 'passkeys' });
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      const person = newPerson('passkeys');
      const [password] = person.passwords;
      const passkeysNav = () => page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Passkeys', exact: true });

      await signUpAndVerify(flow, started.service, person);
      await flow.step('sign in with the password', () => signIn(flow, person, password));
      await flow.step('open the passkeys page from the account pages', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account', exact: true }).click();
        await atPath(page, '/settings');
        await passkeysNav().click();
        await atPath(page, '/settings/passkeys');
        await flow.arrive('Passkeys', 'passkeys');
        await visible(page.getByText('You have no passkeys yet.'), 'the note that there are none');
      });
      await flow.step('add a passkey with a wrong password: refused, nothing made', async () => {
        await field(flow, 'Name of the passkey').fill('Laptop');
        await field(flow, 'Password').fill('not-my-password-at-all');
        await button(flow, 'Add a passkey').click();
        await visible(page.locator('#add-passkey-password-error'), 'the error under the password');
        assert.equal(await credentialsOf(cdp, authenticatorId), 0, 'the authenticator made no passkey');
        await flow.checkAccessible('passkeys, wrong password');
      });
      await flow.step('add a passkey', async () => {
        await field(flow, 'Password').fill(password);
        await button(flow, 'Add a passkey').click();
        await visible(status(flow, 'Laptop is added.'), 'the status saying the passkey is added');
        await visible(page.getByRole('heading', { level: 3, name: 'Laptop', exact: true }), 'the passkey in the list');
        assert.equal(await credentialsOf(cdp, authenticatorId), 1, 'the authenticator holds the passkey');
        await flow.checkAccessible('passkeys, one added');
      });
      await flow.step('rename it', async () => {
        await page.getByText('Rename Laptop').click();
        await field(flow, 'Name of Laptop').fill('Work laptop');
        await button(flow, 'Save Laptop').click();
        await visible(status(flow, 'Laptop is now called Work laptop.'), 'the status saying it is renamed');
        await visible(page.getByRole('heading', { level: 3, name: 'Work laptop', exact: true }), 'the new name in the list');
      });
      await flow.step('sign out, and sign in with the passkey: no address, no password', async () => {
        await button(flow, 'Sign out').click();
        await atPath(page, '/sign-in');
        await flow.arrive('Sign in', 'sign-in');
        await button(flow, 'Sign in with a passkey').click();
        await atPath(page, '/data');
        await visible(flow.heading('Your data'), 'the heading "Your data"');
      });
      await flow.step('signed out, a settings page sends to sign-in; the passkey brings back there', async () => {
        await button(flow, 'Sign out').click();
        await atPath(page, '/sign-in');
        await page.goto(`${started.service.url}/settings/passkeys`);
        await atPath(page, /^\/sign-in\?next=/);
        await button(flow, 'Sign in with a passkey').click();
        await atPath(page, '/settings/passkeys');
        await visible(page.getByRole('heading', { level: 3, name: 'Work laptop', exact: true }), 'the passkey in the list');
        const lastUsed = page.locator('.facts dt', { hasText: 'Last used' }).locator('xpath=following-sibling::dd[1]');
        assert.notEqual(await lastUsed.innerText(), 'Never', 'the passkey shows when it was last used');
      });
      await flow.step('delete it', async () => {
        await button(flow, 'Delete Work laptop').click();
        await button(flow, 'Yes, delete it').click();
        await visible(status(flow, 'Work laptop is deleted.'), 'the status saying it is deleted');
        await visible(page.getByText('You have no passkeys yet.'), 'the note that there are none');
      });
      await flow.step('the deleted passkey signs nobody in: the sign-in page says why', async () => {
        await button(flow, 'Sign out').click();
        await atPath(page, '/sign-in');
        await button(flow, 'Sign in with a passkey').click();
        const refusal = await visible(alert(flow, 'This passkey is not known here'), "the alert with the service's sentence");
        assert.match(await refusal.innerText(), /^This passkey/, 'the sentence as the service says it, no field name before it');
        assert.equal(new URL(page.url()).pathname, '/sign-in', 'still on the sign-in page');
        await flow.checkAccessible('sign-in, unknown passkey');
      });
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  });

  test('at 127.0.0.1, where no passkey works, the pages say to open localhost', async () => {
    const account = await createAccount(started.service.server);
    const atLocalhost = new URL(started.service.url);
    const atIp = `http://127.0.0.1:${atLocalhost.port}`;
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'passkeys at 127.0.0.1' });
      await flow.step('signed in at 127.0.0.1, the passkeys page says passkeys need localhost', async () => {
        await flow.page.goto(`${atIp}/sign-in`);
        await signIn(flow, account, account.password);
        await flow.page.goto(`${atIp}/settings/passkeys`);
        await flow.arrive('Passkeys', 'passkeys, at an IP address');
        await visible(
          flow.page.getByText(
            `Passkeys do not work at an IP address such as 127.0.0.1: open http://localhost:${atLocalhost.port}/settings/passkeys instead.`,
            { exact: true },
          ),
          'the hint before trying',
        );
      });
      await flow.step('adding one says where it would work', async () => {
        await field(flow, 'Name of the passkey').fill('Laptop');
        await field(flow, 'Password').fill(account.password);
        await flow.press(button(flow, 'Add a passkey'));
        await visible(
          alert(
            flow,
            `This service's passkeys belong to localhost, and this page is at 127.0.0.1: open http://localhost:${atLocalhost.port}/settings/passkeys to use them.`,
          ),
          'the address to open instead',
        );
        await flow.checkAccessible('passkeys, refused at an IP address');
      });
      await flow.step('signing in with a passkey says the same', async () => {
        await flow.press(button(flow, 'Sign out'));
        await atPath(flow.page, '/sign-in');
        await flow.press(button(flow, 'Sign in with a passkey'));
        await visible(
          alert(flow, `open http://localhost:${atLocalhost.port}/sign-in to use them.`),
          'the address to open instead, on the sign-in page',
        );
      });
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  });
});
