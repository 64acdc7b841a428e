// Setting up two-step sign-in in a real browser: the QR code carries exactly the otpauth link
// the page shows, and the password just typed never shows up in the next form's code field
// (the forms used to share their inputs).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { totpCode } from '../accounts/mfa-flows.ts';
import { DESKTOP, newContext } from './browser.ts';
import { Flow, visible } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { button, field, newPerson, signIn, signUpAndVerify } from './person-flow.ts';
import { qrTextOfDataUrl } from './qr-code.ts';

describe('two-step sign-in in the web client', () => {
  const started = withServiceAndBrowser();

  test('set up: a QR code of the otpauth link, an empty code field, then on with recovery codes', async () => {
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'two-step', phone: false });
      const person = newPerson('two-step');
      const [password] = person.passwords;
      await signUpAndVerify(flow, started.service, person);
      await signIn(flow, person, password!);
      const secret = await flow.step('set up two-step sign-in', async () => {
        await flow.page.goto(`${started.service.url}/settings/mfa`);
        await flow.arrive('Two-step sign-in', 'two-step, off');
        await field(flow, 'Password').fill(password!);
        await flow.press(button(flow, 'Set up two-step sign-in'));
        const code = field(flow, 'Code from your authenticator app');
        await visible(code, 'the code field');
        assert.equal(await code.inputValue(), '', 'the password just typed is not in the code field');
        const uri = (await flow.page.locator('#totp-uri').textContent())!.trim();
        const link = flow.page.getByRole('link', { name: uri, exact: true });
        assert.equal(await link.getAttribute('href'), uri, 'the page says to open the link: it is one');
        const qr = flow.page.getByRole('img', { name: 'QR code of the link for your authenticator app' });
        await visible(qr, 'the QR code');
        assert.equal(qrTextOfDataUrl((await qr.getAttribute('src'))!), uri, 'the QR code carries exactly the otpauth link');
        await flow.checkAccessible('two-step, setting up');
        return (await flow.page.locator('#totp-secret').textContent())!.trim();
      });
      await flow.step('turn it on with a code', async () => {
        await field(flow, 'Code from your authenticator app').fill(totpCode(secret, started.service.server.clock.now()));
        await flow.press(button(flow, 'Turn on two-step sign-in'));
        await visible(flow.page.getByRole('heading', { level: 2, name: 'Your recovery codes' }), 'the recovery codes');
        assert.equal(await flow.page.locator('ul.codes code').count(), 10);
        const passwordField = field(flow, 'Password');
        await visible(passwordField, 'the form of two-step sign-in when on');
        assert.equal(await passwordField.inputValue(), '', 'nothing carried over into the password field');
        assert.equal(await field(flow, 'Code').inputValue(), '', 'nothing carried over into the code field');
        await flow.checkAccessible('two-step, on');
      });
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  });
});
