// A month-idle token meets a page's requests in either order: the one the service answers first
// hears that it expired (and it is revoked then), the others that it is unknown. Whichever
// answer the page reads first, it goes to the sign-in page, which says the session expired.
import { describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { DESKTOP, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { signIn, status } from './person-flow.ts';

const EXPIRED = 'You were signed out after a while without using the service. Sign in again.';

describe('a session expired, answers in any order', () => {
  const started = withServiceAndBrowser();

  test('the unknown-token answer read first: still the sign-in page, saying it expired', async () => {
    const { server, url } = started.service;
    const account = await createAccount(server);
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'session-expired-order' });
      await flow.page.goto(`${url}/sign-in`);
      await signIn(flow, account, account.password);
      await flow.page.goto('about:blank');
      server.clock.advance(31 * 24 * 3_600_000);
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
