// Deleting the account in the web client ends on a page that says it is deleted (it used to
// land on the sign-in page without a word), on desktop and phone, axe-clean.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { DESKTOP, newContext, PHONE } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { button, field, status } from './person-flow.ts';

describe('deleting the account in the web client', () => {
  const started = withServiceAndBrowser();

  for (const [label, device] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`${label}: a page says the account is deleted`, async () => {
      const account = await createAccount(started.service.server);
      const context = await newContext(started.browser, device);
      try {
        const flow = new Flow(await context.newPage(), { label: `account-deleted-${label}`, phone: label === 'phone' });
        await flow.step('sign in', async () => {
          await flow.page.goto(`${started.service.url}/sign-in`);
          await field(flow, 'E-mail address').fill(account.email);
          await field(flow, 'Password').fill(account.password);
          await flow.press(button(flow, 'Sign in'));
          await visible(flow.heading('Your data'), 'the heading "Your data"');
        });
        await flow.step('delete the account', async () => {
          await flow.page.goto(`${started.service.url}/settings/export-and-delete`);
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
        const login = await fetch(`${started.service.url}/auth/login/`, {
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
