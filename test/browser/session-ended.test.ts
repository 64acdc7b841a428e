// Someone whose session ended without their doing it here — ended from another device, unused
// too long, or with every session of the account when an operator disabled it — lands on the
// sign-in page, which says why, and goes back where they were once signed in again. Signing
// out oneself says nothing. The ending is done through the API and the service; the browser
// does what is checked. A month-idle token's page requests hear "expired" from the first the
// service takes (which revokes it) and "unknown token" from the rest: in whichever order the
// page reads them, it says the session expired.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { disableAccount } from '../../src/admin/admin-service.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { DESKTOP, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import type { BrowserService } from './harness.ts';
import { relayRequests } from './relayed-requests.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { alert, button, field, navLink, signIn, status } from './person-flow.ts';

const ENDED = 'Your session ended; sign in again.';
const EXPIRED = 'You were signed out after a while without using the service. Sign in again.';

/**
 * Signs `account` in, leaves the page as a person away for a month would, and moves the
 * service's clock past a token's idle lifetime. Only the next page's requests may meet the
 * expiry: the first the service takes hears "expired", and a request the left page had sent
 * (its loads) must not be that one. So the service answers all of those first. The account has
 * no app user here, so no page follows a live stream.
 */
async function awayForAMonth(flow: Flow, server: BrowserService['server'], account: TestAccount): Promise<void> {
  const relayed = await relayRequests(flow.page);
  try {
    await signIn(flow, account, account.password);
    await flow.page.goto('about:blank');
    await relayed.answered();
  } finally {
    await relayed.stop();
  }
  server.clock.advance(31 * 24 * 3_600_000);
}

describe('the sign-in page after a session ended elsewhere', () => {
  const started = withServiceAndBrowser();

  test('says why: ended elsewhere, unused too long, account disabled; not after signing out', async () => {
    const { server, url } = started.service;
    const account = await createAccount(server);
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'session-ended' });
      const notice = flow.page.locator('p.notice');
      /** The token this tab keeps. */
      const tabToken = async () => (await flow.page.evaluate("sessionStorage.getItem('profile-service-token')")) as string;

      await flow.step('sign in, and sign out: the sign-in page has nothing to say', async () => {
        await flow.page.goto(`${url}/sign-in`);
        await signIn(flow, account, account.password);
        await flow.press(button(flow, 'Sign out'));
        await atPath(flow.page, '/sign-in');
        await flow.arrive('Sign in', 'sign-in, signed out');
        assert.equal(await notice.count(), 0, 'no word of a session ending');
      });

      await flow.step('a session ended from another device: the next page says so', async () => {
        await signIn(flow, account, account.password);
        const ended = await server.request('POST', '/auth/logout/', { token: await tabToken() });
        assert.equal(ended.status, 204, ended.text);
        await flow.press(navLink(flow, 'Gallery'));
        await atPath(flow.page, '/sign-in');
        await flow.arrive('Sign in', 'sign-in, session ended');
        await visible(status(flow, ENDED), 'why the person is here');
      });

      await flow.step('signed in again, back to the page they were going to, and the notice is gone', async () => {
        await field(flow, 'E-mail address').fill(account.email);
        await field(flow, 'Password').fill(account.password);
        await flow.press(button(flow, 'Sign in'));
        await atPath(flow.page, '/data/gallery');
        await flow.press(button(flow, 'Sign out'));
        await atPath(flow.page, '/sign-in');
        assert.equal(await notice.count(), 0, 'said once only');
      });

      await flow.step('unused for longer than a token lives: the page says so', async () => {
        await awayForAMonth(flow, server, account);
        await flow.page.goto(`${url}/data`);
        await atPath(flow.page, '/sign-in');
        await visible(status(flow, EXPIRED), 'why the person is here');
        await flow.checkAccessible('sign-in, session expired');
      });

      await flow.step('the account disabled by an operator: the session ended, and the sign-in says it is disabled', async () => {
        await signIn(flow, account, account.password);
        // The tab leaves first: disabling ends the session, and a request the open page still had
        // under way would hear so and take the page to the sign-in page before a click.
        await flow.page.goto('about:blank');
        await disableAccount(server.server.ctx, { via: 'cli', user: 'test@localhost' }, account.id, 'Reported as stolen');
        await flow.page.goto(`${url}/data/emergency`);
        await atPath(flow.page, '/sign-in');
        await visible(status(flow, ENDED), 'why the person is here');
        await field(flow, 'E-mail address').fill(account.email);
        await field(flow, 'Password').fill(account.password);
        await flow.press(button(flow, 'Sign in'));
        await visible(alert(flow, /This account is disabled/), 'the sign-in refused: the account is disabled');
        await flow.checkAccessible('sign-in, account disabled');
      });
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  });

  test('the unknown-token answer read first: still the sign-in page, saying it expired', async () => {
    const { server, url } = started.service;
    const account = await createAccount(server);
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'session-expired-order' });
      await flow.page.goto(`${url}/sign-in`);
      await awayForAMonth(flow, server, account);
      // The profile reaches the service first (expired, revoked) but its answer is handed to the
      // page last; the app users' list reaches it after (unknown token) and is handed over first.
      const { promise: profileAsked, resolve: profileAnswered } = Promise.withResolvers<void>();
      const { promise: usersHanded, resolve: usersAnswered } = Promise.withResolvers<void>();
      await flow.page.route('**/account/profile/', async (route) => {
        const response = await route.fetch();
        profileAnswered();
        await usersHanded;
        await route.fulfill({ response });
      });
      await flow.page.route('**/app/users/', async (route) => {
        await profileAsked;
        await route.fulfill({ response: await route.fetch() });
        usersAnswered();
      });
      await flow.page.goto(`${url}/data`);
      await atPath(flow.page, '/sign-in');
      await visible(status(flow, EXPIRED), 'why the person is here');
    } finally {
      await context.close();
    }
  });
});
