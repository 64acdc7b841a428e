// An emergency contact's number, typed as people write it, is saved as the number it is: an
// international one keeps its "+", so the "Call" link on the page an emergency link opens dials
// it (and shows what it dials). What cannot be a number is refused under its field, before
// anything is sent. The account and its emergency link are made through the API; the browser
// does what is checked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../helpers/accounts.ts';
import { DESKTOP, PHONE, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { button, cardOf, field, signIn, status } from './person-flow.ts';

describe("an emergency contact's phone number", () => {
  const started = withServiceAndBrowser();

  test('typed with spaces and a +, it is the tel: link and the text on the public page; junk is refused', async () => {
    const { server, url } = started.service;
    const account = await createAccount(server);
    const created = await server.request('POST', '/app/users/', { token: account.token, body: { name: 'Ada Lovelace' } });
    assert.equal(created.status, 201, created.text);
    const userId = (created.body as { id: number }).id;

    const ownerContext = await newContext(started.browser, DESKTOP);
    const strangerContext = await newContext(started.browser, PHONE);
    try {
      const flow = new Flow(await ownerContext.newPage(), { label: 'owner' });
      await flow.step('sign in and open the emergency information', async () => {
        await flow.page.goto(`${url}/sign-in`);
        await signIn(flow, account, account.password);
        await flow.page.goto(`${url}/data/emergency`);
        await flow.arrive('Emergency information', 'emergency information');
      });

      await flow.step('letters in a number are refused under its field, and nothing is sent', async () => {
        const sent: string[] = [];
        flow.page.on('request', (request) => {
          if (request.url().includes('/emergency-contacts/') && request.method() === 'POST') sent.push(request.url());
        });
        await field(flow, 'Contact name').fill('Mary Somerville');
        await field(flow, 'Phone number').fill('+44 20 7946 OO18');
        await flow.press(button(flow, 'Add contact'));
        const phone = field(flow, 'Phone number');
        await visible(
          flow.page.getByText(/^A phone number has only digits, with a \+ before the country code/),
          'the message under the field',
        );
        assert.equal(await phone.getAttribute('aria-invalid'), 'true', 'the field is marked wrong');
        assert.match((await phone.getAttribute('aria-describedby')) ?? '', /-error/, 'the message describes the field');
        assert.deepEqual(sent, [], 'nothing sent to the API');
        await flow.checkAccessible('emergency information, a number refused');
      });

      await flow.step('a number with too few digits after the + is refused', async () => {
        await field(flow, 'Phone number').fill('+44 20');
        await flow.press(button(flow, 'Add contact'));
        await visible(
          flow.page.getByText('After the +, a phone number has 7 to 15 digits, the country code included.'),
          'the length message',
        );
      });

      await flow.step('+44 20 7946 0018 is saved with its +, the other number without its brackets and dashes', async () => {
        await field(flow, 'Phone number').fill('+44 20 7946 0018');
        await field(flow, 'Other phone number').fill('(555) 123-4567');
        await flow.press(button(flow, 'Add contact'));
        await visible(status(flow, 'Mary Somerville added.'), 'the status saying the contact is added');
        const card = cardOf(flow, 'Mary Somerville');
        assert.equal(await card.getByRole('link', { name: '+442079460018', exact: true }).getAttribute('href'), 'tel:+442079460018');
        assert.equal(await card.getByRole('link', { name: '5551234567', exact: true }).getAttribute('href'), 'tel:5551234567');
      });

      const saved = await server.request('GET', `/app/users/${userId}/emergency-contacts/`, { token: account.token });
      const [contact] = saved.body as { phone_number: string; alt_phone_number: string }[];
      assert.deepEqual([contact?.phone_number, contact?.alt_phone_number], ['+442079460018', '5551234567'], 'what the API keeps');

      const linkAnswer = await server.request('POST', `/app/users/${userId}/emergency-links/`, {
        token: account.token,
        body: { label: 'Wallet card', expires_at: null },
      });
      assert.equal(linkAnswer.status, 201, linkAnswer.text);
      const link = (linkAnswer.body as { link: string }).link;

      const stranger = new Flow(await strangerContext.newPage(), { label: 'stranger', phone: true });
      await stranger.step('the public page offers to call the number as typed, + included', async () => {
        await stranger.page.goto(link);
        await visible(stranger.heading('Ada Lovelace'), "the person's name");
        const card = cardOf(stranger, 'Mary Somerville');
        const call = card.getByRole('link', { name: 'Call +442079460018', exact: true });
        await visible(call, 'the link to call +442079460018');
        assert.equal(await call.getAttribute('href'), 'tel:+442079460018', 'it dials the number it shows');
        await stranger.checkAccessible('public page');
      });
      await atPath(flow.page, '/data/emergency');
      assert.deepEqual(flow.pageErrors, [], "no uncaught exception or console error on the owner's page");
      assert.deepEqual(stranger.pageErrors, [], 'no uncaught exception or console error on the public page');
    } finally {
      await ownerContext.close();
      await strangerContext.close();
    }
  });
});
