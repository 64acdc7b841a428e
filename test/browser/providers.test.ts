// docs/sign-in-providers.md in a real browser: a person signs up with another provider — the test OpenID
// provider (like Google) and its own login and consent pages, in Chromium — lands on their data,
// sees the provider under the account's sign-in providers, signs out, and signs in with it
// again; unlinking the only way in is refused with the service's sentence. On a desktop and a
// phone. And like Apple: its page answers with a form POST to the service, which Chromium sends;
// that account then links Google from its settings. The flows' __Host- cookie is kept by Chromium
// on http://127.0.0.1.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { LAST_IDENTITY as LAST_IDENTITY_KEY } from '../../src/accounts/identities/identity-service.ts';
import { freePort } from '../helpers/free-port.ts';
import { startTestProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { DESKTOP, newContext, PHONE } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import type { BrowserService } from './harness.ts';
import { alert, button, status } from './person-flow.ts';
import { startServiceAndBrowser } from './service-and-browser.ts';
import { english } from '../helpers/english.ts';

const LAST_IDENTITY = english(LAST_IDENTITY_KEY);

describe('sign in with another provider in the web client', () => {
  let service: BrowserService;
  let browser: Browser;
  let google: TestOidcProvider;
  let apple: TestOidcProvider;
  before(async () => {
    // The providers register the service's redirect URI before the service starts: its port comes first.
    const port = await freePort();
    google = await startTestProvider('google', `http://127.0.0.1:${port}`);
    apple = await startTestProvider('apple', `http://127.0.0.1:${port}`);
    ({ service, browser } = await startServiceAndBrowser(
      { OIDC_PROVIDERS: 'google,apple', ...google.env, ...apple.env },
      '127.0.0.1',
      port,
    ));
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    await google?.close();
    await apple?.close();
  });

  test("like Apple: the provider's form POST back to the service signs the person in, who then links Google", async () => {
    const context = await newContext(browser, DESKTOP);
    try {
      const page = await context.newPage();
      const flow = new Flow(page, { label: 'providers-apple' });
      await flow.step('continue with Apple from the sign-in page, through its pages, back by form POST', async () => {
        await page.goto(`${service.url}/sign-in`);
        await flow.arrive('Sign in', 'sign-in');
        await flow.press(page.getByRole('link', { name: 'Continue with Apple', exact: true }));
        await page.waitForURL((url) => url.origin === apple.issuer);
        await page.getByPlaceholder('Enter any login').fill(`browser-apple-${randomBytes(4).toString('hex')}`);
        await page.getByPlaceholder('and password').fill('any password');
        await flow.press(page.getByRole('button', { name: 'Sign-in' }));
        await flow.press(page.getByRole('button', { name: 'Continue' }));
        await atPath(page, '/data');
        await flow.arrive('Your data', 'data');
      });
      await flow.step("link Google from the settings (no password: a fresh sign-in), through Google's pages, back linked", async () => {
        await page.goto(`${service.url}/settings/identities`);
        await flow.arrive('Sign-in providers', 'identities before linking');
        await flow.press(button(flow, 'Link Google'));
        await page.waitForURL((url) => url.origin === google.issuer);
        await page.getByPlaceholder('Enter any login').fill(`browser-linked-${randomBytes(4).toString('hex')}`);
        await page.getByPlaceholder('and password').fill('any password');
        await flow.press(page.getByRole('button', { name: 'Sign-in' }));
        await flow.press(page.getByRole('button', { name: 'Continue' }));
        await atPath(page, '/settings/identities');
        await visible(status(flow, 'Google is linked: you can sign in with it.'), 'the status saying Google is linked');
        await visible(page.getByRole('heading', { level: 3, name: 'Google', exact: true }), 'Google among the linked providers');
      });
      assert.deepEqual(
        flow.pageErrors.filter((error) => !/fonts\.googleapis|net::ERR/.test(error)),
        [],
        'no uncaught exception or console error in the page',
      );
    } finally {
      await context.close();
    }
  });

  for (const [label, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`on a ${label}: signs up through the provider's own pages, signs out, signs in with it again`, async () => {
      const context = await newContext(browser, options);
      try {
        const page = await context.newPage();
        const flow = new Flow(page, { label: `providers-${label}`, phone: label === 'phone' });
        const login = `browser-${label}-${randomBytes(4).toString('hex')}`;
        const continueWithGoogle = () => page.getByRole('link', { name: 'Continue with Google', exact: true });

        await flow.step('the sign-up page offers the provider', async () => {
          await page.goto(`${service.url}/sign-up`);
          await flow.arrive('Create an account', 'sign-up');
          await visible(continueWithGoogle(), 'the link "Continue with Google"');
        });
        await flow.step("sign up at the provider's own login and consent pages", async () => {
          await flow.press(continueWithGoogle());
          await page.waitForURL((url) => url.origin === google.issuer);
          await page.getByPlaceholder('Enter any login').fill(login);
          await page.getByPlaceholder('and password').fill('any password');
          await flow.press(page.getByRole('button', { name: 'Sign-in' }));
          await flow.press(page.getByRole('button', { name: 'Continue' }));
          await atPath(page, '/data');
          await flow.arrive('Your data', 'data');
        });
        await flow.step('the account lists the provider; unlinking the only way in is refused', async () => {
          await page.goto(`${service.url}/settings/identities`);
          await flow.arrive('Sign-in providers', 'identities');
          await visible(page.getByRole('heading', { level: 3, name: 'Google', exact: true }), 'the linked provider');
          await visible(page.getByText(`${login}@example.com`), 'the address the provider gave');
          await flow.press(button(flow, 'Unlink Google'));
          await visible(alert(flow, LAST_IDENTITY), "the service's sentence about the last way in");
          await visible(page.getByRole('heading', { level: 3, name: 'Google', exact: true }), 'still linked');
        });
        await flow.step('sign out, and sign in with the provider again', async () => {
          await flow.press(button(flow, 'Sign out'));
          await atPath(page, '/sign-in');
          await flow.arrive('Sign in', 'sign-in');
          await flow.press(continueWithGoogle());
          // The provider remembers the person and the consent: it sends them straight back.
          await atPath(page, '/data');
          await flow.arrive('Your data', 'data again');
        });
        await flow.step('the same account: its sign-in providers show the same address', async () => {
          await page.goto(`${service.url}/settings/identities`);
          await visible(page.getByText(`${login}@example.com`), 'the address the provider gave');
        });
        assert.deepEqual(
          flow.pageErrors.filter((error) => !/fonts\.googleapis|net::ERR/.test(error)),
          [],
          'no uncaught exception or console error in the page',
        );
      } finally {
        await context.close();
      }
    });
  }
});
