// The development inbox in a real browser, with e-mail written to files (SMTP_URL unset) and
// the service on this machine: the sign-up page says where the e-mail will be, /dev/mail lists
// it, and its link, clicked there, verifies the address. On a desktop and on a phone, axe-clean.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DESKTOP, newContext, PHONE } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { button, field, mainLink, newPerson, status } from './person-flow.ts';

describe('the development inbox in the web client', () => {
  // SMTP_URL unset: the service writes e-mails to files (the sink the harness starts gets none).
  const started = withServiceAndBrowser({ SMTP_URL: '' });

  for (const [screen, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`sign up, find the e-mail at /dev/mail, click its link, verify (${screen})`, async () => {
      const context = await newContext(started.browser, options);
      try {
        const flow = new Flow(await context.newPage(), { label: `dev-inbox-${screen}`, phone: screen === 'phone' });
        const person = newPerson(`dev-inbox-${screen}`);
        const [password] = person.passwords;
        await flow.step('sign up: the page says where the e-mail will be', async () => {
          await flow.page.goto(`${started.service.url}/sign-up`);
          await flow.arrive('Create an account', 'sign-up, development inbox on');
          await visible(mainLink(flow, 'development inbox'), 'the link to the development inbox');
          await field(flow, 'E-mail address').fill(person.email);
          await field(flow, 'Password').fill(password);
          await flow.press(button(flow, 'Create account'));
          await visible(status(flow, `We sent an e-mail to ${person.email}`), 'the status saying the e-mail is on its way');
          await flow.press(mainLink(flow, 'development inbox'));
        });
        const mail = await flow.step('the inbox lists the verification e-mail', async () => {
          await atPath(flow.page, '/dev/mail');
          await flow.arrive('Development inbox', 'development inbox');
          const article = flow.page.getByRole('article').filter({ hasText: `To ${person.email}` });
          // The outbox writes the file a moment after the answer: refresh until it is there.
          const deadline = Date.now() + 60_000;
          while ((await article.count()) === 0) {
            assert.ok(Date.now() < deadline, 'the verification e-mail never appeared in the inbox');
            await flow.press(button(flow, 'Refresh'));
            await flow.page.waitForTimeout(200);
          }
          await visible(article.getByRole('heading', { level: 2, name: /confirm your e-mail/i }), 'the e-mail subject');
          await flow.checkAccessible('development inbox, one e-mail');
          return article;
        });
        await flow.step('click the link in the e-mail', async () => {
          const link = mail.getByRole('link', { name: new RegExp(`^${started.service.url}/verify-email\\?key=`) });
          await flow.press(link);
          await atPath(flow.page, '/verify-email');
          await flow.arrive('Verify your e-mail address', 'verify-email from the development inbox');
          await field(flow, 'Password').fill(password);
          await flow.press(button(flow, 'Verify e-mail address'));
          await visible(status(flow, 'Your e-mail address is verified.'), 'the status saying the address is verified');
        });
        assert.equal(started.service.sink.messages.length, 0, 'nothing went to the SMTP sink');
        assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
      } finally {
        await context.close();
      }
    });
  }
});
