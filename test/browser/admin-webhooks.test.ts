// The operators' console's webhook pages in a real browser (docs/webhooks.md): an operator adds
// an endpoint (its secret shown once), sends it a test event that a real receiver verifies with
// that secret, sees the delivery, disables and deletes the endpoint; every view axe-clean.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerOperator } from '../admin/admin-flows.ts';
import { waitFor } from '../helpers/wait.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { DESKTOP, newContext } from './browser.ts';
import { Flow, visible } from './flow.ts';
import { button, field, mainLink, status } from './person-flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';

describe("the console's webhook pages", () => {
  const started = withServiceAndBrowser({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  const receiver = new WebhookReceiver();
  before(() => receiver.listen());
  after(() => receiver.close());

  test('add an endpoint, test it, see the delivery, disable and delete it', async () => {
    const { url } = started.service;
    const operator = await registerOperator(started.service);
    const context = await newContext(started.browser, DESKTOP);
    try {
      // Signed in as the operator with both factors (the console's sign-in is operators.test.ts's).
      await context.addInitScript((token) => sessionStorage.setItem('profile-service-token', token), operator.token);
      const flow = new Flow(await context.newPage(), { label: 'admin-webhooks', phone: false });

      await flow.step('no endpoint yet', async () => {
        await flow.page.goto(`${url}/admin?view=webhooks`);
        await flow.arrive('Webhooks', 'webhooks, none');
        await visible(flow.page.getByText("No endpoint hears the service's events yet."), 'the sentence saying there is none');
      });

      let secret = '';
      await flow.step('add one for every event: the secret is shown once', async () => {
        await field(flow, 'URL').fill(receiver.url);
        await field(flow, 'Description (optional)').fill('CRM');
        await field(flow, 'Every event').check();
        await flow.press(button(flow, 'Add endpoint'));
        const shown = flow.page.locator('.secret code');
        await visible(shown, 'the signing secret');
        secret = (await shown.textContent())!.trim();
        assert.match(secret, /^whsec_/);
        receiver.secrets = [secret];
        const row = flow.page.getByRole('table', { name: 'Endpoints' }).getByRole('row').filter({ hasText: receiver.url });
        await visible(row, 'the endpoint in the table');
        assert.match((await row.textContent())!, /CRM.*\*.*Enabled/);
        await flow.checkAccessible('webhooks, one added');
      });

      await flow.step('its page sends a test event, which the receiver verifies with the secret', async () => {
        await flow.press(mainLink(flow, receiver.url));
        await flow.arrive(receiver.url, 'webhook endpoint');
        await flow.press(button(flow, 'Send a test event'));
        await visible(status(flow, 'A test event is on its way.'), 'the status line');
        await waitFor(() => receiver.received.length === 1, 'the test event delivered');
        const [event] = receiver.received;
        assert.equal(event!.payload.type, 'webhook.test');
        assert.equal(event!.verifiedWith.get(secret), true, 'signed with the secret the page showed');
      });

      await flow.step('the delivery is listed as delivered', async () => {
        await flow.page.reload();
        await flow.arrive(receiver.url, 'webhook endpoint, delivered');
        const deliveries = flow.page.getByRole('table', { name: 'Newest first, kept 30 days' });
        const row = deliveries.getByRole('row').filter({ hasText: receiver.received[0]!.id });
        await visible(row, 'the delivery row');
        assert.match((await row.textContent())!, /webhook\.test.*delivered.*1.*204/);
        assert.equal(await row.getByRole('button').count(), 0, 'a delivered event has no retry');
      });

      await flow.step('disabled, it sends no test event', async () => {
        await flow.press(button(flow, 'Disable endpoint'));
        await visible(status(flow, 'The endpoint is disabled: its events wait.'), 'the status line');
        await visible(button(flow, 'Enable endpoint'), 'the button to enable it again');
        assert.equal(await button(flow, 'Send a test event').isDisabled(), true);
      });

      await flow.step('deleted after a confirmation', async () => {
        await flow.press(button(flow, 'Delete endpoint'));
        await flow.press(button(flow, 'Yes, delete it'));
        await flow.arrive('Endpoint deleted', 'webhook deleted');
        await flow.press(mainLink(flow, 'Back to the webhooks'));
        await flow.arrive('Webhooks', 'webhooks, none again');
        await visible(flow.page.getByText("No endpoint hears the service's events yet."), 'no endpoint left');
      });
      assert.equal(receiver.received.length, 1, 'nothing else was sent');
    } finally {
      await context.close();
    }
  });
});
