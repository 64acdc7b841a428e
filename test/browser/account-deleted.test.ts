// Deleting the account in the web client ends on a page that says it is deleted (it used to
// land on the sign-in page without a word), on desktop and phone, axe-clean.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createAccount } from '../helpers/accounts.ts';
import { DESKTOP, launchBrowser, newContext, PHONE } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { type BrowserService, startBrowserService } from './harness.ts';
import { button, field, status } from './person-flow.ts';

describe('deleting the account in the web client', () => {
  let service: BrowserService;
  let browser: Browser;
  before(async () => {
    [service, browser] = await Promise.all([startBrowserService(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  for (const [label, device] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`${label}: a page says the account is deleted`, async () => {
      const account = await createAccount(service.server);
      const context = await newContext(browser, device);
      try {
        const flow = new Flow(await context.newPage(), { label: `account-deleted-${label}`, phone: label === 'phone' });
        await flow.step('sign in', async () => {
          await flow.page.goto(`${service.url}/sign-in`);
          await field(flow, 'E-mail address').fill(account.email);
          await field(flow, 'Password').fill(account.password);
          await flow.press(button(flow, 'Sign in'));
          await visible(flow.heading('Your data'), 'the heading "Your data"');
        });
        await flow.step('delete the account', async () => {
          await flow.page.goto(`${service.url}/settings/export-and-delete`);
          await flow.arrive('Export or delete your account', 'export-and-delete');
          await field(flow, 'Password').fill(account.password);
          await flow.page.getByLabel('I understand this cannot be undone').check();
          await flow.press(button(flow, 'Delete my account'));
        });
        await flow.step('the page says it is deleted', async () => {
          await atPath(flow.page, '/account-deleted');
          await flow.arrive('Your account is deleted', 'account deleted');
          await visible(status(flow, 'Your account and everything in it are deleted'), 'the status');
          await flow.checkAccessible('account deleted');
        });
        const login = await fetch(`${service.url}/auth/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: account.email, password: account.password }),
        });
        assert.equal(login.status, 400, 'the account is gone');
        await flow.step('reloaded, the page still reads (it needs no account)', async () => {
          await flow.page.reload();
          await flow.arrive('Your account is deleted', 'account deleted, reloaded');
        });
        assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
      } finally {
        await context.close();
      }
    });
  }
});
