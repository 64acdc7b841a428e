// Details of the pages a newcomer stumbled on: the browser tab's title, where a destructive
// action sits on "Your data". The data is made through the API; the browser does what is checked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { DESKTOP, newContext } from './browser.ts';
import { Flow } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';

describe("the pages' details", () => {
  const started = withServiceAndBrowser();

  /** A desktop page, given to `run`; it must end with no uncaught exception or console error. */
  async function onAPage(label: string, run: (flow: Flow) => Promise<void>) {
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label });
      await run(flow);
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  }

  test("the home page's title names the service once; another page's names the page, then the service", () =>
    onAPage('titles', async (flow) => {
      await flow.step('the home page', async () => {
        await flow.page.goto(`${started.service.url}/`);
        await flow.arrive('Profile Service', 'home');
        assert.equal(await flow.page.title(), 'Profile Service');
      });
      await flow.step('the sign-in page', async () => {
        await flow.page.goto(`${started.service.url}/sign-in`);
        await flow.arrive('Sign in', 'sign-in');
        assert.equal(await flow.page.title(), 'Sign in · Profile Service');
      });
    }));
});
