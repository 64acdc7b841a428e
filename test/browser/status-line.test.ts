// A page's status line says what was just done, and only that: a later action (asking before
// one, starting one, or failing) clears what an earlier one said, and so does going to another
// address, even one the same page component shows (/data/users/:user → /data); what the way
// back from a sign-in provider says shows once. Every change on the data pages that works says
// so there, a deletion that leaves its page on the page it lands on. A form's alert follows the
// same rule; a message under a field stays while its value does, until the page moves on. The
// data is made through the API; the browser does what is checked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContext, Locator, Request } from 'playwright-core';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { DESKTOP, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import type { BrowserService } from './harness.ts';
import { landscapePng } from './picture.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { alert, button, cardOf, field, mainLink, navLink, signIn, status } from './person-flow.ts';

async function call<T>(service: BrowserService, account: TestAccount, method: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Token ${account.token}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Uploads a picture named `name` to the app user's gallery. */
async function upload(service: BrowserService, account: TestAccount, userId: number, name: string): Promise<void> {
  const body = new FormData();
  body.set('name', name);
  body.set('file', new Blob([landscapePng()], { type: 'image/png' }), 'picture.png');
  const response = await fetch(`${service.url}/app/users/${userId}/gallery/`, {
    method: 'POST',
    headers: { authorization: `Token ${account.token}` },
    body,
  });
  assert.equal(response.status, 201, await response.text());
}

/** An app user with a profile, a topic and a list item "Saturday" (Bread, Milk). */
async function someData(service: BrowserService, account: TestAccount): Promise<{ userId: number; profileId: number; topicId: number }> {
  const user = await call<{ id: number }>(service, account, 'POST', '/app/users/', { name: 'Ada Lovelace', quote: '' });
  const profile = await call<{ id: number }>(service, account, 'POST', `/app/users/${user.id}/profiles/`, { name: 'Home' });
  const topic = await call<{ id: number }>(service, account, 'POST', `/app/profiles/${profile.id}/topics/`, {
    name: 'Groceries',
    topic_type: 3,
  });
  await call(service, account, 'POST', `/app/topics/${topic.id}/items/`, {
    name: 'Saturday',
    list_content: { entries: [{ text: 'Bread' }, { text: 'Milk' }] },
  });
  return { userId: user.id, profileId: profile.id, topicId: topic.id };
}

/** What the alert of `form` says now ('' for nothing: then it is hidden, so not found by role). */
async function alertText(form: Locator): Promise<string> {
  return ((await form.locator('[role="alert"]').textContent()) ?? '').trim();
}

/** What the status line says now ('' for nothing). */
async function statusText(flow: Flow): Promise<string> {
  return ((await flow.page.locator('p.status').textContent()) ?? '').trim();
}

describe("a page's status line", () => {
  const started = withServiceAndBrowser();

  /**
   * A desktop page signed in as `account`, given to `run` with its browser context; the page
   * must end with no uncaught exception or console error.
   */
  async function signedIn(account: TestAccount, label: string, run: (flow: Flow, context: BrowserContext) => Promise<void>) {
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label });
      await flow.step('sign in', async () => {
        await flow.page.goto(`${started.service.url}/sign-in`);
        await signIn(flow, account, account.password);
      });
      await run(flow, context);
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  }

  test('an earlier message is cleared by a later question, action or failure, and by going elsewhere', async () => {
    const account = await createAccount(started.service.server);
    const { userId, topicId } = await someData(started.service, account);
    await signedIn(account, 'status-line', async (flow) => {
      await flow.step('a topic: an item added, then asking to delete an entry clears "added"', async () => {
        await flow.page.goto(`${started.service.url}/data/topics/${topicId}`);
        await flow.arrive('Groceries', 'topic');
        await field(flow, 'List item name').fill('Sunday');
        await flow.press(button(flow, 'Add list item'));
        await visible(status(flow, 'Item Sunday added.'), 'the status saying the item is added');
        await flow.press(button(flow, 'Delete entry Bread'));
        await visible(flow.page.getByRole('group', { name: 'Delete the entry Bread?' }), 'the question');
        assert.equal(await statusText(flow), '', 'no "added" left beside the question');
        await flow.press(button(flow, 'Cancel'));
      });
      await flow.step('a topic: an item added, then saving another item clears "added"', async () => {
        await field(flow, 'List item name').fill('Monday');
        await flow.press(button(flow, 'Add list item'));
        await visible(status(flow, 'Item Monday added.'), 'the status saying the item is added');
        await flow.press(flow.page.getByText('Edit item Saturday'));
        await field(flow, 'Name of Saturday').fill('Saturday morning');
        await flow.press(button(flow, 'Save item Saturday'));
        await visible(status(flow, 'Item Saturday morning saved.'), 'the status saying the item is saved');
        assert.equal(await statusText(flow), 'Item Saturday morning saved.', 'no "Item Monday added." after another action');
        await flow.checkAccessible('topic, after saving an item');
      });
      await flow.step('one\'s own data by its path: "Saved.", then "Your data" (the same page component) shows none', async () => {
        await flow.page.goto(`${started.service.url}/data/users/${userId}`);
        await flow.arrive('Your data', 'your data, by its path');
        await field(flow, 'Quote').fill('That brain of mine is something more than merely mortal.');
        await flow.press(button(flow, 'Save'));
        await visible(status(flow, 'Saved.'), 'the status "Saved."');
        await flow.press(navLink(flow, 'Your data'));
        await atPath(flow.page, '/data');
        await visible(field(flow, 'Quote'), 'the form, on /data');
        assert.equal(await statusText(flow), '', 'no "Saved." from the other address');
      });
      await flow.step('export or delete: the unticked checkbox is an error in the alert, not the status', async () => {
        await flow.page.goto(`${started.service.url}/settings/export-and-delete`);
        await flow.arrive('Export or delete your account', 'export-and-delete');
        await flow.press(button(flow, 'Delete my account'));
        await visible(alert(flow, 'Tick "I understand this cannot be undone" first.'), 'the alert asking for the tick');
        assert.equal(await statusText(flow), '', 'nothing in the status');
        await flow.checkAccessible('export-and-delete, unticked');
      });
      await flow.step("sign-in providers: the way back's outcome shows once, a refusal in the alert", async () => {
        await flow.page.goto(`${started.service.url}/settings/identities#linked=google`);
        await flow.arrive('Sign-in providers', 'sign-in providers, linked');
        await visible(status(flow, 'google is linked: you can sign in with it.'), 'the status saying it is linked');
        // From another page: a change of the fragment alone would not load the page again.
        await flow.page.goto(`${started.service.url}/settings`);
        await flow.page.goto(`${started.service.url}/settings/identities#error=${encodeURIComponent('The provider said no.')}`);
        await visible(alert(flow, 'The provider said no.'), 'the refusal in the alert');
        assert.equal(await statusText(flow), '', 'nothing in the status');
      });
      await flow.step('a forgotten password: the address refused clears the last "on its way"', async () => {
        await flow.page.goto(`${started.service.url}/forgot-password`);
        await flow.arrive('Forgotten password', 'forgotten password');
        await field(flow, 'E-mail address').fill(account.email);
        await flow.press(button(flow, 'Send reset link'));
        await visible(status(flow, `If ${account.email} is a verified address of an account`), 'the status saying the link is on its way');
        await field(flow, 'E-mail address').fill('not an address');
        await flow.press(button(flow, 'Send reset link'));
        await visible(flow.page.locator('.field-error'), "the field's error");
        assert.equal(await statusText(flow), '', 'no "on its way" beside the error');
        await flow.checkAccessible('forgotten password, refused');
      });
    });
  });

  test('every change on the data pages that works says what was done', async () => {
    const account = await createAccount(started.service.server);
    const { userId, profileId, topicId } = await someData(started.service, account);
    await call(started.service, account, 'POST', `/app/users/${userId}/emergency-items/`, { name: 'Allergy', description: 'Penicillin' });
    await call(started.service, account, 'POST', `/app/users/${userId}/emergency-contacts/`, {
      name: 'Grace Hopper',
      relation: 'Sister',
      phone_number: '5551234567',
    });
    await upload(started.service, account, userId, 'Sunset');
    await signedIn(account, 'status-line-said', async (flow) => {
      await flow.step("a topic: each entry's and item's change says so", async () => {
        await flow.page.goto(`${started.service.url}/data/topics/${topicId}`);
        await flow.arrive('Groceries', 'topic');
        const card = cardOf(flow, 'Saturday');
        await field(flow, 'New entry for Saturday').fill('Eggs');
        await flow.press(button(flow, 'Add entry to Saturday'));
        await visible(status(flow, 'Entry Eggs added.'), 'the status saying the entry is added');
        await flow.press(card.getByText('Edit entry Milk'));
        await field(flow, 'Text of entry Milk').fill('Oat milk');
        await flow.press(button(flow, 'Save entry Milk'));
        await visible(status(flow, 'Entry Oat milk saved.'), 'the status saying the entry is saved');
        await flow.press(button(flow, 'Delete entry Bread'));
        await flow.press(button(flow, 'Yes, delete it'));
        await visible(status(flow, 'Entry Bread deleted.'), 'the status saying the entry is deleted');
        await flow.press(flow.page.getByText('Edit item Saturday'));
        await field(flow, 'Name of Saturday').fill('Weekend');
        await flow.press(button(flow, 'Save item Saturday'));
        await visible(status(flow, 'Item Weekend saved.'), 'the status saying the item is saved');
        await flow.press(button(flow, 'Delete item Weekend'));
        await flow.press(button(flow, 'Yes, delete it'));
        await visible(status(flow, 'Item Weekend deleted.'), 'the status saying the item is deleted');
        await visible(flow.page.getByText('No items yet.', { exact: true }), 'the topic, empty');
        await flow.checkAccessible('topic, an item deleted');
      });
      await flow.step('emergency information: saving an item and a contact says so', async () => {
        await flow.page.goto(`${started.service.url}/data/emergency`);
        await flow.arrive('Emergency information', 'emergency information');
        await flow.press(cardOf(flow, 'Allergy').getByText('Edit Allergy'));
        await field(flow, 'Description of Allergy').fill('Penicillin and aspirin');
        await flow.press(button(flow, 'Save Allergy'));
        await visible(status(flow, 'Allergy is saved.'), 'the status saying the item is saved');
        await flow.press(cardOf(flow, 'Grace Hopper').getByText('Edit Grace Hopper'));
        await field(flow, 'Relation of Grace Hopper').fill('Neighbour');
        await flow.press(button(flow, 'Save Grace Hopper'));
        await visible(status(flow, 'Grace Hopper is saved.'), 'the status saying the contact is saved');
      });
      await flow.step('the gallery: a rename says so; the same name sends nothing and says the file keeps it', async () => {
        await flow.page.goto(`${started.service.url}/data/gallery`);
        await flow.arrive('Gallery', 'gallery');
        const renames: string[] = [];
        const seen = (request: Request) => {
          if (request.method() === 'PATCH') renames.push(request.url());
        };
        flow.page.on('request', seen);
        try {
          await flow.press(flow.page.getByText('Rename Sunset'));
          await flow.press(button(flow, 'Save Sunset'));
          await visible(status(flow, 'Sunset keeps its name.'), 'the status saying the name is unchanged');
          assert.deepEqual(renames, [], 'no rename sent for the same name');
          await field(flow, 'Name of Sunset').fill('Sunset over the hill');
          await flow.press(button(flow, 'Save Sunset'));
          await visible(status(flow, 'Sunset is now called Sunset over the hill.'), 'the status saying the file is renamed');
          assert.equal(renames.length, 1, 'the new name sent once');
        } finally {
          flow.page.off('request', seen);
        }
      });
      await flow.step("a deleted topic: its profile's page says so; a deleted profile: the app user's page", async () => {
        const profilePath = `/data/users/${userId}/profiles/${profileId}`;
        await flow.page.goto(`${started.service.url}${profilePath}`);
        await flow.arrive('Home', 'profile');
        await field(flow, 'Topic name').fill('Errands');
        await flow.press(button(flow, 'Add topic'));
        await flow.press(mainLink(flow, 'Errands'));
        await flow.arrive('Errands', 'topic, no items');
        await flow.press(button(flow, 'Delete topic'));
        await flow.press(button(flow, 'Yes, delete it'));
        await atPath(flow.page, profilePath);
        await visible(status(flow, 'Topic Errands deleted.'), 'the status saying the topic is deleted');
        await visible(mainLink(flow, 'Groceries'), "the profile's other topic");
        assert.equal(await mainLink(flow, 'Errands').count(), 0, 'no link to the deleted topic');
        await flow.checkAccessible('profile, a topic deleted');
        await flow.press(mainLink(flow, '← Your data'));
        await atPath(flow.page, `/data/users/${userId}`);
        await flow.press(mainLink(flow, 'Home'));
        await flow.arrive('Home', 'profile');
        assert.equal(await statusText(flow), '', 'no "deleted" on the next page');
        await flow.press(button(flow, 'Delete profile'));
        await flow.press(button(flow, 'Yes, delete it'));
        await atPath(flow.page, `/data/users/${userId}`);
        await visible(status(flow, 'Profile Home deleted.'), 'the status saying the profile is deleted');
        await visible(flow.page.getByText('No profiles yet.', { exact: true }), 'no profiles left');
      });
    });
  });

  test("a form's alert is cleared like the status line; a field's message stays until the page moves on", async () => {
    const account = await createAccount(started.service.server);
    const { userId, topicId } = await someData(started.service, account);
    const unreachable = 'The service could not be reached. Check the connection and try again.';
    await signedIn(account, 'status-line-forms', async (flow, context) => {
      /** Presses `name` with the network off: the form it submits says the service could not be reached. */
      async function pressOffline(name: string, form: Locator): Promise<void> {
        await context.setOffline(true);
        try {
          await flow.press(button(flow, name));
          await visible(form.getByRole('alert').filter({ hasText: unreachable }), `the alert of ${name}'s form`);
        } finally {
          await context.setOffline(false);
        }
      }
      await flow.step("a topic: a form's alert is cleared by another form's action, and by a question", async () => {
        await flow.page.goto(`${started.service.url}/data/topics/${topicId}`);
        await flow.arrive('Groceries', 'topic');
        const form = flow.page.locator('form').filter({ has: field(flow, 'Text of entry Milk') });
        await flow.press(cardOf(flow, 'Saturday').getByText('Edit entry Milk'));
        await field(flow, 'Text of entry Milk').fill('Oat milk');
        await pressOffline('Save entry Milk', form);
        await field(flow, 'List item name').fill('Sunday');
        await flow.press(button(flow, 'Add list item'));
        await visible(status(flow, 'Item Sunday added.'), 'the status saying the item is added');
        assert.equal(await alertText(form), '', 'no "could not be reached" after another action worked');
        await pressOffline('Save entry Milk', form);
        await flow.press(button(flow, 'Delete entry Bread'));
        await visible(flow.page.getByRole('group', { name: 'Delete the entry Bread?' }), 'the question');
        assert.equal(await alertText(form), '', 'no "could not be reached" beside the question');
        await flow.press(button(flow, 'Cancel'));
      });
      await flow.step("one's own data by its path: a field's message stays beside another form's failure", async () => {
        await flow.page.goto(`${started.service.url}/data/users/${userId}`);
        await flow.arrive('Your data', 'your data, by its path');
        await flow.press(button(flow, 'Add profile'));
        const fieldError = flow.page.locator('#add-profile .field-error');
        await visible(fieldError, 'the message under "Profile name"');
        await pressOffline('Save', flow.page.locator('#app-user'));
        assert.equal(await fieldError.count(), 1, 'the message under "Profile name" stays while its value does');
        await flow.checkAccessible('your data, two forms refused');
      });
      await flow.step('"Your data" (the same page component at another address) shows neither', async () => {
        await flow.press(navLink(flow, 'Your data'));
        await atPath(flow.page, '/data');
        await visible(field(flow, 'Quote'), 'the form, on /data');
        assert.equal(await alertText(flow.page.locator('#app-user')), '', 'no "could not be reached" from the other address');
        assert.equal(
          await flow.page.locator('#add-profile .field-error').count(),
          0,
          'no message under "Profile name" from the other address',
        );
        assert.equal(await field(flow, 'Profile name').getAttribute('aria-invalid'), null, '"Profile name" no longer marked invalid');
      });
    });
  });
});
