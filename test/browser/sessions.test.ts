// The sessions page on desktop and phone: each browser named as a person reads it ("Chrome on
// Android"), no word of the table cut in the middle (dates break between words only), and
// ending a session asks first, then says what was done, with no status left over from the
// last answer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { DESKTOP, newContext, PHONE } from './browser.ts';
import { Flow, visible } from './flow.ts';
import type { BrowserService } from './harness.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { wordsCut } from './words-cut.ts';
import { button, field, status } from './person-flow.ts';

const LONG_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Pro Build/UQ1A.240205.004) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.6261.64 Mobile Safari/537.36';

async function signInElsewhere(service: BrowserService, account: TestAccount): Promise<void> {
  const response = await fetch(`${service.url}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': LONG_AGENT },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  assert.equal(response.status, 200, await response.text());
}

describe('the sessions page', () => {
  const started = withServiceAndBrowser();

  for (const [label, device] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`${label}: words whole, and ending sessions asks first`, async () => {
      const account = await createAccount(started.service.server);
      const context = await newContext(started.browser, device);
      try {
        const flow = new Flow(await context.newPage(), { label: `sessions-${label}`, phone: label === 'phone' });
        await flow.step('sign in, with four other sessions (the account came with one)', async () => {
          for (let i = 0; i < 3; i++) await signInElsewhere(started.service, account);
          await flow.page.goto(`${started.service.url}/sign-in`);
          await field(flow, 'E-mail address').fill(account.email);
          await field(flow, 'Password').fill(account.password);
          await flow.press(button(flow, 'Sign in'));
          await visible(flow.heading('Your data'), 'the heading "Your data"');
        });
        const rows = flow.page.locator('table.sessions tbody tr');
        await flow.step('the table: no word cut in the middle', async () => {
          await flow.page.goto(`${started.service.url}/settings/sessions`);
          await flow.arrive('Sessions', 'sessions');
          await visible(flow.page.getByText('This device'), 'this device');
          assert.equal(await rows.count(), 5);
          assert.deepEqual(await flow.page.evaluate(wordsCut('table.sessions')), [], 'words cut across lines');
          const devices = (await flow.page.locator('table.sessions td.agent').allTextContents()).map((d) => d.trim());
          assert.ok(devices.includes('Chrome on Android'), `a browser named as a person reads it: ${devices.join(' | ')}`);
          assert.ok(!devices.some((d) => d.includes('Mozilla/')), `no User-Agent header shown as it is: ${devices.join(' | ')}`);
        });
        const endFirst = flow.page.getByRole('button', { name: /^End session started/ }).first();
        await flow.step('End session asks first; Cancel ends nothing', async () => {
          await flow.press(endFirst);
          const question = flow.page.getByRole('group', { name: /^End the session started/ });
          await visible(question, 'the question');
          await flow.checkAccessible('sessions, asking');
          await flow.press(question.getByRole('button', { name: 'Cancel' }));
          await visible(endFirst, 'the button again');
          assert.equal(await rows.count(), 5, 'nothing ended');
        });
        await flow.step('confirmed, the session ends and the page says so', async () => {
          await flow.press(endFirst);
          await flow.press(button(flow, 'Yes, end it'));
          await visible(status(flow, 'The session is ended.'), 'the status');
          await rows.nth(4).waitFor({ state: 'detached' });
          assert.equal(await rows.count(), 4);
        });
        await flow.step('asking again clears the last status; confirmed, all others end', async () => {
          await flow.press(button(flow, 'End all other sessions'));
          assert.equal((await flow.page.locator('p.status').textContent())?.trim(), '', 'no status left from the last answer');
          await flow.checkAccessible('sessions, asking to end all');
          await flow.press(button(flow, 'Yes, end them'));
          await visible(status(flow, 'Your other sessions are ended.'), 'the status');
        });
        await flow.step('only this device is left', async () => {
          await flow.page.locator('table.sessions tbody tr').nth(1).waitFor({ state: 'detached' });
          assert.equal(await rows.count(), 1);
          await flow.checkAccessible('sessions, only this device');
        });
        assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
      } finally {
        await context.close();
      }
    });
  }
});
