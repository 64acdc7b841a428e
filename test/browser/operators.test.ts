// The operators' console in a real browser (docs/operators.md): an account made an operator by the
// command line turns two-step sign-in on, signs in again with it, opens /admin from the menu,
// finds an account and disables it — whose token then answers 401 — and sees it in the audit;
// deleting an account asks for its address to be typed; no word of the audit cut across lines;
// every view axe-clean.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { grantOperator } from '../../src/admin/admin-service.ts';
import { STEP_MS, totpCode } from '../accounts/mfa-flows.ts';
import { runAccountsCli } from '../admin/admin-flows.ts';
import { createAccount } from '../helpers/accounts.ts';
import { DESKTOP, PHONE, newContext } from './browser.ts';
import { Flow, visible } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { wordsCut } from './words-cut.ts';
import { button, field, mainLink, navLink, newPerson, signIn, signUpAndVerify, status } from './person-flow.ts';

describe("the operators' console in the web client", () => {
  const started = withServiceAndBrowser();

  /** Signs in with the password, then the authenticator's code of a step no request has spent yet. */
  async function signInWithCode(flow: Flow, email: string, password: string, secret: string, shot: string): Promise<void> {
    const { server } = started.service;
    await flow.page.goto(`${started.service.url}/sign-in`);
    await flow.arrive('Sign in', shot);
    await field(flow, 'E-mail address').fill(email);
    await field(flow, 'Password').fill(password);
    await flow.press(button(flow, 'Sign in'));
    const code = field(flow, 'Code from your authenticator app or a recovery code');
    await visible(code, 'the second step');
    server.clock.advance(STEP_MS);
    await code.fill(totpCode(secret, server.clock.now()));
    await flow.press(button(flow, 'Verify code'));
    await visible(flow.heading('Your data'), 'the heading "Your data"');
  }

  test('granted by the CLI, with two-step sign-in on and used: find an account, disable it, see it in the audit', async () => {
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'operators', phone: false });
      const person = newPerson('operator');
      const [password] = person.passwords;
      const target = await createAccount(started.service.server, { email: `someone.${Date.now().toString(36)}@example.com` });
      await signUpAndVerify(flow, started.service, person);
      await flow.step('grant the role from the command line', async () => {
        const granted = await runAccountsCli(started.service.server.server.ctx.config.databaseUrl, 'grant-operator', person.email);
        assert.equal(granted.code, 0, granted.stderr);
      });
      await signIn(flow, person, password!);
      await flow.step('without a second factor the console says to turn one on', async () => {
        await flow.press(navLink(flow, 'Operators'));
        await flow.arrive('Operators', 'operators, no second factor');
        await visible(flow.page.getByRole('alert').filter({ hasText: /second factor/ }), 'the sentence about a second factor');
      });
      let secret = '';
      await flow.step('turn two-step sign-in on', async () => {
        await flow.page.goto(`${started.service.url}/settings/mfa`);
        await flow.arrive('Two-step sign-in', 'two-step, off');
        await field(flow, 'Password').fill(password!);
        await flow.press(button(flow, 'Set up two-step sign-in'));
        await visible(field(flow, 'Code from your authenticator app'), 'the code field');
        secret = (await flow.page.locator('#totp-secret').textContent())!.trim();
        await field(flow, 'Code from your authenticator app').fill(totpCode(secret, started.service.server.clock.now()));
        await flow.press(button(flow, 'Turn on two-step sign-in'));
        await visible(flow.page.getByRole('heading', { level: 2, name: 'Your recovery codes' }), 'the recovery codes');
      });
      await flow.step('the session signed in by the password alone is told to sign in again with the code', async () => {
        await flow.press(navLink(flow, 'Operators'));
        await flow.arrive('Operators', 'operators, one-factor session');
        await visible(flow.page.getByRole('alert').filter({ hasText: /sign in again/ }), 'the sentence saying to sign in again');
      });
      await flow.step('sign out, and sign in with the password and a code', async () => {
        await flow.press(button(flow, 'Sign out'));
        await signInWithCode(flow, person.email, password!, secret, 'sign-in, operator');
      });
      await flow.step('find the account', async () => {
        await flow.press(navLink(flow, 'Operators'));
        await flow.arrive('Find accounts', 'operators, find');
        await field(flow, 'E-mail address contains').fill(target.email.slice(0, 12).toUpperCase());
        await flow.press(button(flow, 'Find'));
        await visible(mainLink(flow, target.email), 'the account found');
        await flow.checkAccessible('operators, found');
        await flow.press(mainLink(flow, target.email));
        await flow.arrive(target.email, 'operators, account');
      });
      await flow.step('disabling asks for confirmation, then disables', async () => {
        await field(flow, 'Reason (kept in the audit)').fill('Reported as stolen by its owner');
        await flow.press(button(flow, 'Disable account'));
        await visible(
          flow.page.getByRole('alert').filter({ hasText: 'I have checked this is the right account' }),
          'the request to confirm',
        );
        await field(flow, 'I have checked this is the right account').check();
        await flow.press(button(flow, 'Disable account'));
        await visible(status(flow, /The account is disabled/), 'the status saying it is disabled');
        await visible(button(flow, 'Enable account'), 'the button to enable it again');
        await flow.checkAccessible('operators, account disabled');
      });
      const refused = await started.service.server.request('GET', '/account/profile/', { token: target.token });
      assert.equal(refused.status, 401, 'the disabled account’s token is refused');
      await flow.step('the outbox and the audit', async () => {
        await flow.press(flow.page.getByRole('navigation', { name: 'Operators' }).getByRole('link', { name: 'Outbox' }));
        await flow.arrive('Outbox', 'operators, outbox');
        await flow.press(flow.page.getByRole('navigation', { name: 'Operators' }).getByRole('link', { name: 'Audit' }));
        await flow.arrive('Audit', 'operators, audit');
        const row = flow.page.getByRole('row').filter({ hasText: 'Reported as stolen by its owner' });
        await visible(row, 'the disabling in the audit');
        assert.match(await row.innerText(), new RegExp(`disable[\\s\\S]*${target.id}`));
      });
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  });

  /** An operator with two-step sign-in on, made without the browser, signed in with it on `flow`'s page. */
  async function signInAsOperator(flow: Flow, label: string): Promise<void> {
    const { server } = started.service;
    const operator = await createAccount(server, { email: `operator.${label}.${Date.now().toString(36)}@example.com` });
    await grantOperator(server.server.ctx, { via: 'cli', user: 'test@localhost' }, operator.id);
    // Two-step sign-in on (through the API), then used to sign in: the console opens.
    const enrolled = await server.request('POST', '/account/mfa/totp/', { token: operator.token, body: { password: operator.password } });
    assert.equal(enrolled.status, 201, enrolled.text);
    const secret: string = enrolled.body.secret;
    const confirmed = await server.request('POST', '/account/mfa/totp/confirm/', {
      token: operator.token,
      body: { code: totpCode(secret, server.clock.now()) },
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    await flow.step('sign in with the password and a code', () =>
      signInWithCode(flow, operator.email, operator.password, secret, 'sign-in'),
    );
  }

  test("deleting an account works only once the account's address is typed", async () => {
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'operators, delete' });
      const { server } = started.service;
      const target = await createAccount(server, { email: `to.delete.${Date.now().toString(36)}@example.com` });
      await signInAsOperator(flow, 'delete');
      const remove = button(flow, 'Delete account');
      const typed = field(flow, `To confirm, type the account's address: ${target.email}`);
      await flow.step("the account's page: Delete account is disabled, the tick does not arm it", async () => {
        await flow.page.goto(`${started.service.url}/admin?account=${target.id}`);
        await flow.arrive(target.email, 'operators, account, delete not armed');
        await visible(flow.page.getByRole('heading', { level: 2, name: 'Delete this account' }), 'the section to delete it');
        assert.equal(await remove.isDisabled(), true, 'disabled at first');
        await field(flow, 'I have checked this is the right account').check();
        assert.equal(await remove.isDisabled(), true, 'still disabled once the other actions are armed');
      });
      await flow.step('another address, or a part of it, leaves it disabled', async () => {
        await typed.fill(`x${target.email}`);
        assert.equal(await remove.isDisabled(), true, 'another address');
        await typed.fill(target.email.slice(0, -1));
        assert.equal(await remove.isDisabled(), true, 'the address less its last letter');
      });
      await flow.step('the address typed arms it, and it deletes the account', async () => {
        await field(flow, 'Reason for deleting (kept in the audit)').fill('Asked for by its owner, ticket 4521');
        await typed.fill(` ${target.email} `);
        assert.equal(await remove.isEnabled(), true, 'enabled once the address is typed');
        await flow.checkAccessible('operators, account, delete armed');
        await flow.press(remove);
        await visible(status(flow, /^The account is deleted, with everything it held\./), 'the status saying it is deleted');
        await flow.arrive('Account deleted', 'operators, account deleted');
      });
      assert.equal((await server.request('GET', '/account/profile/', { token: target.token })).status, 401, 'its token is gone');
      await flow.step('the deletion is in the audit, with its reason', async () => {
        await flow.page.goto(`${started.service.url}/admin?view=audit`);
        await flow.arrive('Audit', 'operators, audit');
        await visible(flow.page.getByRole('row').filter({ hasText: 'Asked for by its owner, ticket 4521' }), 'the deletion in the audit');
        assert.deepEqual(await flow.page.evaluate(wordsCut('table.audit')), [], 'words of the audit cut across lines');
      });
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  });

  test('on a phone: every view of the console fits the screen and passes axe', async () => {
    const context = await newContext(started.browser, PHONE);
    try {
      const flow = new Flow(await context.newPage(), { label: 'operators, phone', phone: true });
      const { server } = started.service;
      const target = await createAccount(server, { email: `a.rather.long.address.${Date.now().toString(36)}@example.com` });
      await signInAsOperator(flow, 'phone');
      await flow.step('find, open, and end the sessions of an account', async () => {
        await flow.press(navLink(flow, 'Operators'));
        await flow.arrive('Find accounts', 'operators, find');
        await field(flow, 'E-mail address contains').fill(target.email);
        await flow.press(button(flow, 'Find'));
        await visible(mainLink(flow, target.email), 'the account found');
        await flow.checkAccessible('operators, found');
        await flow.press(mainLink(flow, target.email));
        await flow.arrive(target.email, 'operators, account');
        await field(flow, 'I have checked this is the right account').check();
        await flow.press(button(flow, 'End all sessions'));
        await visible(status(flow, 'Every session of the account is ended.'), 'the status');
        await flow.checkAccessible('operators, sessions ended');
      });
      await flow.step('the outbox and the audit', async () => {
        await flow.page.goto(`${started.service.url}/admin?view=outbox`);
        await flow.arrive('Outbox', 'operators, outbox');
        await flow.page.goto(`${started.service.url}/admin?view=audit`);
        await flow.arrive('Audit', 'operators, audit');
        await visible(flow.page.locator('table.audit tbody tr').first(), 'a record of the audit');
        assert.deepEqual(await flow.page.evaluate(wordsCut('table.audit')), [], 'words of the audit cut across lines');
      });
      assert.equal((await server.request('GET', '/account/profile/', { token: target.token })).status, 401);
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  });
});
