// "E-mail me a code" (docs/accounts.md#codes-by-e-mail) in a browser: signing in with a code
// e-mailed to the address, verifying an address and resetting a password with the code from
// their e-mails instead of the link, and a new verification code asked for while signed in.
// Each page checked with axe.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { DESKTOP, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { nextMail, plainText } from './mail-links.ts';
import { button, field, mainLink, signIn, status } from './person-flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';

/** The 6-digit code of the newest e-mail to `to` whose subject matches, after the `seen` first messages of the sink. */
async function codeMailed(started: ReturnType<typeof withServiceAndBrowser>, to: string, subject: RegExp, seen: number): Promise<string> {
  const mail = await nextMail(started.service.sink, to, subject, seen);
  const code = /: (\d{6})\. The code works once/.exec(plainText(mail.raw))?.[1];
  assert.ok(code, `no code in "${mail.subject}"`);
  return code;
}

describe('codes by e-mail in the web client', () => {
  const started = withServiceAndBrowser();

  test('sign in with a code e-mailed from the sign-in page', async () => {
    const { server, url, sink } = started.service;
    const account = await createAccount(server);
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'email-code-sign-in' });
      const seen = sink.messages.length;
      await flow.step('from the sign-in page, ask for a code', async () => {
        await flow.page.goto(`${url}/sign-in`);
        await flow.arrive('Sign in', 'sign-in');
        await flow.press(mainLink(flow, 'E-mail me a code'));
        await atPath(flow.page, '/sign-in/code');
        await flow.arrive('Sign in with a code', 'sign-in with a code');
        await field(flow, 'E-mail address').fill(account.email);
        await flow.press(button(flow, 'E-mail me a code'));
        await visible(status(flow, /a sign-in code is on its way/), 'the status saying the code is on its way');
        await flow.checkAccessible('sign-in with a code, sent');
      });
      const code = await codeMailed(started, account.email, /sign-in code/i, seen);
      await flow.step('a wrong code is refused, the right one signs in', async () => {
        await field(flow, 'Code from the e-mail').fill(code === '000000' ? '111111' : '000000');
        await flow.press(button(flow, 'Sign in'));
        await visible(flow.page.getByText(/wrong or no longer valid/), 'the refusal');
        await flow.checkAccessible('sign-in with a code, wrong code');
        await field(flow, 'Code from the e-mail').fill(code);
        await flow.press(button(flow, 'Sign in'));
        await atPath(flow.page, '/data');
      });
    } finally {
      await context.close();
    }
  });

  test('verify an address and reset a password with the codes from their e-mails', async () => {
    const { server, url, sink } = started.service;
    const email = `coded-${Date.now()}@example.com`;
    const password = 'violet-lantern-47-quarry';
    const seen = sink.messages.length;
    const registered = await server.request('POST', '/auth/register/', { body: { email, password } });
    assert.equal(registered.status, 201, registered.text);
    const verificationCode = await codeMailed(started, email, /confirm your e-mail/i, seen);
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'email-codes' });
      await flow.step('verify with the address, the code and the password', async () => {
        await flow.page.goto(`${url}/verify-email`);
        await flow.arrive('Verify your e-mail address', 'verify-email by code');
        await field(flow, 'E-mail address').fill(email);
        await field(flow, 'Code from the e-mail').fill(verificationCode);
        await field(flow, 'Password').fill(password);
        await flow.press(button(flow, 'Verify e-mail address'));
        await visible(status(flow, 'Your e-mail address is verified.'), 'the status saying the address is verified');
      });
      const beforeReset = sink.messages.length;
      await flow.step('ask for a reset, then follow "Enter the code from the e-mail"', async () => {
        await flow.page.goto(`${url}/forgot-password`);
        await flow.arrive('Forgotten password', 'forgotten password');
        await field(flow, 'E-mail address').fill(email);
        await flow.press(button(flow, 'Send reset link'));
        await visible(status(flow, /on its way/), 'the status saying the e-mail is on its way');
        await flow.press(mainLink(flow, 'Enter the code from the e-mail'));
        await atPath(flow.page, '/reset-password');
        await flow.arrive('Choose a new password', 'reset-password by code');
      });
      const resetCode = await codeMailed(started, email, /reset your password/i, beforeReset);
      await flow.step('the code and a new password change it', async () => {
        assert.equal(await field(flow, 'E-mail address').inputValue(), email, 'the address carried over');
        await field(flow, 'Code from the e-mail').fill(resetCode);
        await field(flow, 'New password').fill('amber-harbour-82-willow');
        await flow.press(button(flow, 'Set new password'));
        await visible(status(flow, /Your password is changed/), 'the status saying the password is changed');
        await flow.checkAccessible('reset-password by code, done');
      });
    } finally {
      await context.close();
    }
  });
  test('signed in, "E-mail me a new code" on the verification page, then verify with it', async () => {
    const { server, url, sink } = started.service;
    const account = await createAccount(server);
    const added = `added-${Date.now()}@example.com`;
    const adding = await server.request('POST', '/account/emails/', { token: account.token, body: { email: added } });
    assert.equal(adding.status, 201, adding.text);
    server.clock.advance(61_000); // past the per-address wait between verification e-mails
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'email-codes-new-code' });
      await flow.page.goto(`${url}/sign-in`);
      await signIn(flow, account, account.password);
      const seen = sink.messages.length;
      await flow.step('ask for a new code for the added address', async () => {
        await flow.page.goto(`${url}/verify-email`);
        await flow.arrive('Verify your e-mail address', 'verify-email, signed in');
        await flow.press(button(flow, `E-mail me a new code at ${added}`));
        await visible(
          status(flow, `A new code is on its way to ${added}. It works for 10 minutes.`),
          'the status saying the code is on its way',
        );
        assert.equal(await field(flow, 'E-mail address').inputValue(), added, 'the address filled in');
        await flow.checkAccessible('verify-email, new code sent');
      });
      const code = await codeMailed(started, added, /confirm your e-mail/i, seen);
      await flow.step('the new code and the password verify it', async () => {
        await field(flow, 'Code from the e-mail').fill(code);
        await field(flow, 'Password').fill(account.password);
        await flow.press(button(flow, 'Verify e-mail address'));
        await visible(status(flow, 'Your e-mail address is verified.'), 'the status saying the address is verified');
      });
    } finally {
      await context.close();
    }
  });
});
