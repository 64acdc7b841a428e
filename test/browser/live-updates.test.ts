// Changes made elsewhere appear without a reload (docs/offline-and-live.md): a page open in the browser
// follows the app user's live stream, and a topic added from another device (a second session
// of the same person, over the API) shows up on it; so does an emergency contact.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DESKTOP, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { buildProfile, mainLink, newPerson, signUpAndVerify } from './person-flow.ts';

describe('live updates in the web client', () => {
  const started = withServiceAndBrowser();

  test('a topic and a contact added on another device appear on the open pages without a reload', async () => {
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label: 'live-updates', phone: false });
      const person = newPerson('live');
      await signUpAndVerify(flow, started.service, person);
      await buildProfile(flow, person);
      const other = await started.service.server.request('POST', '/auth/login/', {
        body: { username: person.email, password: person.passwords[0] },
      });
      assert.equal(other.status, 200, other.text);
      const token = other.body.token as string;
      const users = await started.service.server.request('GET', '/app/users/', { token });
      const appUserId = users.body[0].id as number;
      const profiles = await started.service.server.request('GET', `/app/users/${appUserId}/profiles/`, { token });
      const home = profiles.body[0];

      await flow.step('a topic added elsewhere appears on the profile page', async () => {
        await flow.page.goto(`${started.service.url}/data/profiles/${home.id}`);
        await atPath(flow.page, `/data/profiles/${home.id}`);
        await flow.arrive('Home', 'profile');
        await visible(mainLink(flow, 'Groceries'), 'the topic made in the browser');
        let loads = 0;
        flow.page.on('load', () => {
          loads += 1;
        });
        const added = await started.service.server.request('POST', `/app/profiles/${home.id}/topics/`, {
          token,
          body: { name: 'Travel', topic_type: 3 },
        });
        assert.equal(added.status, 201, added.text);
        await visible(mainLink(flow, 'Travel'), 'the topic added on the other device');
        assert.equal(loads, 0, 'the page was not reloaded');
      });

      await flow.step('an emergency contact added elsewhere appears on the emergency page', async () => {
        await flow.page.goto(`${started.service.url}/data/emergency`);
        await flow.arrive(/Emergency/, 'emergency');
        const added = await started.service.server.request('POST', `/app/users/${appUserId}/emergency-contacts/`, {
          token,
          body: { name: 'Grace Hopper', phone_number: '0123456789' },
        });
        assert.equal(added.status, 201, added.text);
        await visible(flow.page.getByRole('heading', { level: 3, name: 'Grace Hopper' }), 'the contact added on the other device');
        await flow.checkAccessible('emergency, after a live update');
      });
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  });
});
