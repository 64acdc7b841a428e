// Details of the pages a newcomer stumbled on: the browser tab's title, where a destructive
// action sits on "Your data". The data is made through the API; the browser does what is checked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { DESKTOP, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { signIn } from './person-flow.ts';
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

  test('"Your data": "Start over" (deleting all the personal data) comes last, after the Share link', async () => {
    const account = await createAccount(started.service.server);
    const created = await started.service.server.request('POST', '/app/users/', { token: account.token, body: { name: 'Ada Lovelace' } });
    assert.equal(created.status, 201, created.text);
    await onAPage('data order', async (flow) => {
      await flow.step('sign in and open "Your data"', async () => {
        await flow.page.goto(`${started.service.url}/sign-in`);
        await signIn(flow, account, account.password);
        await flow.arrive('Your data', 'your data');
      });
      await flow.step('the order of the page', async () => {
        const share = flow.page.getByRole('main').getByRole('link', { name: 'Share', exact: true });
        const startOver = flow.page.getByRole('heading', { level: 2, name: 'Start over' });
        await visible(share, 'the Share link');
        await visible(startOver, '"Start over"');
        // Headings, links and buttons of the page, in the order a reader meets them.
        const order = (await flow.page.getByRole('main').locator('h2, a, button').allInnerTexts()).map((t) => t.trim());
        assert.ok(order.indexOf('Share') < order.indexOf('Start over'), `"Start over" after the Share link: ${order.join(' | ')}`);
        assert.ok(order.indexOf('Share') < order.indexOf('Delete all my personal data'), 'the button after the Share link');
        const headings = await flow.page.getByRole('main').getByRole('heading', { level: 2 }).allInnerTexts();
        assert.equal(headings.at(-1), 'Start over', `the last section: ${headings.join(', ')}`);
      });
    });
  });

  test("a topic opened from its profile links back to that profile; without ?profile=, to the app user's page", async () => {
    const { server, url } = started.service;
    const account = await createAccount(server);
    const post = async (path: string, body: unknown) => {
      const response = await server.request('POST', path, { token: account.token, body });
      assert.equal(response.status, 201, response.text);
      return response.body as { id: number };
    };
    const user = await post('/app/users/', { name: 'Ada Lovelace' });
    const profile = await post(`/app/users/${user.id}/profiles/`, { name: 'Home' });
    const topic = await post(`/app/profiles/${profile.id}/topics/`, { name: 'Groceries', topic_type: 3 });
    await onAPage('topic back link', async (flow) => {
      await flow.step('sign in, and open the topic from its profile', async () => {
        await flow.page.goto(`${url}/sign-in`);
        await signIn(flow, account, account.password);
        await flow.page.goto(`${url}/data/topics/${topic.id}?profile=${profile.id}`);
        await flow.arrive('Groceries', 'topic');
      });
      await flow.step('the back link names the profile and goes there', async () => {
        const back = flow.page.getByRole('main').getByRole('link', { name: '← Home', exact: true });
        await visible(back, 'the link back to the profile');
        await flow.press(back);
        await atPath(flow.page, `/data/profiles/${profile.id}`);
        await flow.arrive('Home', 'profile');
      });
      await flow.step("without ?profile=, the back link goes to the app user's page", async () => {
        await flow.page.goto(`${url}/data/topics/${topic.id}`);
        await flow.arrive('Groceries', 'topic, no profile named');
        await visible(flow.page.getByRole('main').getByRole('link', { name: '← Your data', exact: true }), 'the link back to Your data');
      });
    });
  });
});
