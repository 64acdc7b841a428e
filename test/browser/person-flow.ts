// What a person does in the web client, start to end, as the browser tests and the screenshot
// script run it: sign up, verify through the e-mailed link, sign in, build a profile with a
// topic, a list item and an image item, upload a picture, keep emergency information, change
// the password, and reset a forgotten one through the e-mailed link. Labels, headings and buttons are web/README.md's.
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import type { BrowserService } from './harness.ts';
import { atPath, type Flow, pictureLoaded, visible } from './flow.ts';
import { linkIn, nextMail } from './mail-links.ts';
import { landscapePng } from './picture.ts';

export interface Person {
  email: string;
  firstName: string;
  lastName: string;
  /** At sign-up, after the change, and after the reset. */
  passwords: [string, string, string];
}

export function newPerson(label: string): Person {
  return {
    email: `ada.${label}.${process.pid}.${Date.now().toString(36)}@example.com`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    passwords: ['violet-lantern-47-quarry', 'amber-harbour-82-willow', 'copper-meadow-15-falcon'],
  };
}

export function field(flow: Flow, label: string): Locator {
  return flow.page.getByLabel(label, { exact: true });
}

export function button(flow: Flow, name: string): Locator {
  return flow.page.getByRole('button', { name, exact: true });
}

/** A link inside <main> (the header's navigation has some of the same names). */
export function mainLink(flow: Flow, name: string): Locator {
  return flow.page.getByRole('main').getByRole('link', { name, exact: true });
}

export function navLink(flow: Flow, name: string): Locator {
  return flow.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
}

/** The page's status line once it says `text`. */
export function status(flow: Flow, text: string | RegExp): Locator {
  return flow.page.getByRole('status').filter({ hasText: text });
}

/** A form's alert once it says something matching `text`. */
export function alert(flow: Flow, text: string | RegExp): Locator {
  return flow.page.getByRole('alert').filter({ hasText: text });
}

export async function signUpAndVerify(flow: Flow, service: BrowserService, person: Person): Promise<void> {
  const [password] = person.passwords;
  await flow.step('open the home page', async () => {
    await flow.page.goto(`${service.url}/`);
    await flow.arrive('Profile Service', 'home', 'home');
    await flow.press(mainLink(flow, 'Sign up'));
  });
  await flow.step('sign up', async () => {
    await atPath(flow.page, '/sign-up');
    await flow.arrive('Create an account', 'sign-up');
    await field(flow, 'E-mail address').fill(person.email);
    await field(flow, 'Password').fill(password);
    await field(flow, 'First name').fill(person.firstName);
    await field(flow, 'Last name').fill(person.lastName);
    await flow.press(button(flow, 'Create account'));
    await visible(status(flow, `We sent an e-mail to ${person.email}`), 'the status saying the e-mail is on its way');
    await flow.checkAccessible('sign-up, done');
  });
  const link = await flow.step('receive the verification e-mail', async () => {
    const mail = await nextMail(service.sink, person.email, /confirm your e-mail/i, 0);
    const link = linkIn(mail);
    assert.ok(link.startsWith(`${service.url}/verify-email?key=`), `the e-mailed link ${link} opens the service's verification page`);
    return link;
  });
  await flow.step('open the link from the e-mail', async () => {
    await flow.page.goto(link);
    await flow.arrive('Verify your e-mail address', 'verify-email', 'verify-email');
  });
  await flow.step('verify with a wrong password: the page says so, the key still works', async () => {
    await field(flow, 'Password').fill('not-my-password-at-all');
    await flow.press(button(flow, 'Verify e-mail address'));
    await visible(alert(flow, /password/i), 'an alert about the password');
    await flow.checkAccessible('verify-email, wrong password');
  });
  await flow.step('verify with the password', async () => {
    await field(flow, 'Password').fill(password);
    await flow.press(button(flow, 'Verify e-mail address'));
    await visible(status(flow, 'Your e-mail address is verified.'), 'the status saying the address is verified');
    await flow.checkAccessible('verify-email, done');
    await flow.press(mainLink(flow, 'Sign in'));
  });
}

/** From the sign-in page to "Your data". */
export async function signIn(flow: Flow, person: Pick<Person, 'email'>, password: string, shot?: string): Promise<void> {
  await atPath(flow.page, '/sign-in');
  await flow.arrive('Sign in', 'sign-in', shot);
  await field(flow, 'E-mail address').fill(person.email);
  await field(flow, 'Password').fill(password);
  await flow.press(button(flow, 'Sign in'));
  await atPath(flow.page, '/data');
  await visible(flow.heading('Your data'), 'the heading "Your data"');
}

export interface Built {
  /** The topic page's path, /data/topics/<id>. */
  topicPath: string;
}

export async function buildProfile(flow: Flow, person: Person): Promise<Built> {
  await flow.step('sign in', () => signIn(flow, person, person.passwords[0], 'sign-in'));
  await flow.step('create the app user', async () => {
    await visible(field(flow, 'Name'), 'the form to save the app user');
    await flow.checkAccessible('your data, no app user yet');
    await field(flow, 'Name').fill(`${person.firstName} ${person.lastName}`);
    await field(flow, 'Quote').fill('The more I study, the more insatiable do I feel my genius for it to be.');
    await flow.press(button(flow, 'Save'));
    await visible(status(flow, 'Saved.'), 'the status "Saved."');
    await visible(field(flow, 'Profile name'), 'the form to add a profile');
  });
  await flow.step('add a profile', async () => {
    await field(flow, 'Profile name').fill('Home');
    await field(flow, 'Default profile').check();
    await flow.press(button(flow, 'Add profile'));
    await visible(mainLink(flow, 'Home'), 'the link to the new profile');
    await flow.checkAccessible('your data', 'your-data');
    await flow.press(mainLink(flow, 'Home'));
  });
  await flow.step('add a topic', async () => {
    await atPath(flow.page, /^\/data\/profiles\/\d+$/);
    await flow.arrive('Home', 'profile');
    await field(flow, 'Topic name').fill('Groceries');
    await field(flow, 'Topic type').selectOption({ label: 'text topic' });
    await flow.press(button(flow, 'Add topic'));
    await visible(mainLink(flow, 'Groceries'), 'the link to the new topic');
    await flow.checkAccessible('profile with a topic', 'profile');
    await flow.press(mainLink(flow, 'Groceries'));
  });
  return flow.step('add a list item with entries', async () => {
    await atPath(flow.page, /^\/data\/topics\/\d+\?profile=\d+$/);
    await flow.arrive('Groceries', 'topic, no items yet');
    await field(flow, 'List item name').fill('Saturday');
    await field(flow, 'Entries (one per line)').fill('Bread\nMilk');
    await flow.press(button(flow, 'Add list item'));
    const card = cardOf(flow, 'Saturday');
    for (const entry of ['Bread', 'Milk']) await visible(card.getByText(entry, { exact: true }), `the entry "${entry}"`);
    await field(flow, 'New entry for Saturday').fill('Eggs');
    await flow.press(button(flow, 'Add entry to Saturday'));
    await visible(card.getByText('Eggs', { exact: true }), 'the added entry "Eggs"');
    await visible(button(flow, 'Delete entry Eggs'), 'the button to delete "Eggs"');
    // Deleting asks first; cancelled, nothing is deleted.
    await flow.press(button(flow, 'Delete entry Eggs'));
    const question = flow.page.getByRole('group', { name: 'Delete the entry Eggs?' });
    await visible(question, 'the question before deleting "Eggs"');
    await flow.press(question.getByRole('button', { name: 'Cancel' }));
    await visible(button(flow, 'Delete entry Eggs'), 'the button again, "Eggs" kept');
    await visible(card.getByText('Eggs', { exact: true }), 'the entry "Eggs", not deleted');
    await flow.press(card.getByText('Edit entry Milk'));
    await field(flow, 'Text of entry Milk').fill('Oat milk');
    await flow.press(button(flow, 'Save entry Milk'));
    await visible(card.getByText('Oat milk', { exact: true }), 'the changed entry "Oat milk"');
    return { topicPath: new URL(flow.page.url()).pathname };
  });
}

/** A card (an item on a topic page, an emergency item or contact): the list item whose heading is `name`. */
export function cardOf(flow: Flow, name: string): Locator {
  return flow.page.getByRole('listitem').filter({ has: flow.page.getByRole('heading', { level: 3, name, exact: true }) });
}

export async function uploadPicture(flow: Flow): Promise<void> {
  await flow.step('open the gallery', async () => {
    await flow.press(navLink(flow, 'Gallery'));
    await atPath(flow.page, '/data/gallery');
    await flow.arrive('Gallery', 'gallery, empty');
  });
  await flow.step('choose a picture: the page previews it', async () => {
    await field(flow, 'Name').fill('Sunset');
    await field(flow, 'File').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: landscapePng() });
    await pictureLoaded(flow.page, flow.page.getByRole('img', { name: 'Preview of the chosen file' }), 'the preview');
  });
  await flow.step('upload it and see it in the gallery', async () => {
    await flow.press(button(flow, 'Upload'));
    await visible(status(flow, 'Sunset is uploaded.'), 'the status saying the upload is done');
    const width = await pictureLoaded(flow.page, flow.page.getByRole('img', { name: 'Sunset', exact: true }), 'the uploaded picture');
    assert.equal(width, 320, 'the picture the service sends back is the one uploaded');
  });
  await flow.step('rename it', async () => {
    await flow.press(flow.page.getByText('Rename Sunset'));
    await field(flow, 'Name of Sunset').fill('Sunset over the hill');
    await flow.press(button(flow, 'Save Sunset'));
    await visible(status(flow, 'Sunset is now called Sunset over the hill.'), 'the status saying the file is renamed');
    await pictureLoaded(flow.page, flow.page.getByRole('img', { name: 'Sunset over the hill', exact: true }), 'the renamed picture');
    await flow.checkAccessible('gallery', 'gallery');
  });
}

export async function addImageItem(flow: Flow, built: Built): Promise<void> {
  await flow.step('go back to the topic through the pages', async () => {
    await flow.press(navLink(flow, 'Your data'));
    await atPath(flow.page, '/data');
    await flow.press(mainLink(flow, 'Home'));
    await visible(flow.heading('Home'), 'the profile page');
    await flow.press(mainLink(flow, 'Groceries'));
    await atPath(flow.page, built.topicPath);
    await visible(flow.heading('Groceries'), 'the topic page');
  });
  await flow.step('add an image item with the uploaded picture', async () => {
    await field(flow, 'Image item name').fill('Picnic spot');
    await field(flow, 'Image description').fill('The hill behind the house');
    await field(flow, 'Image').selectOption({ label: 'Sunset over the hill' });
    await flow.press(button(flow, 'Add image item'));
    const card = cardOf(flow, 'Picnic spot');
    await pictureLoaded(flow.page, card.getByRole('img', { name: 'The hill behind the house' }), "the image item's picture");
    await visible(cardOf(flow, 'Saturday'), 'the list item, still there');
    await flow.checkAccessible('topic with both kinds of item', 'topic');
  });
}

export async function keepEmergencyInformation(flow: Flow): Promise<void> {
  await flow.step('open the emergency information', async () => {
    await flow.press(navLink(flow, 'Emergency'));
    await atPath(flow.page, '/data/emergency');
    await flow.arrive('Emergency information', 'emergency information, empty');
  });
  await flow.step('add an emergency item with the uploaded picture', async () => {
    await field(flow, 'Emergency item name').fill('Allergy');
    await field(flow, 'Emergency item description').fill('Penicillin');
    await field(flow, 'Emergency item image').selectOption({ label: 'Sunset over the hill' });
    await flow.press(button(flow, 'Add emergency item'));
    await visible(status(flow, 'Allergy added.'), 'the status saying the item is added');
    const card = cardOf(flow, 'Allergy');
    await visible(card.getByRole('paragraph').filter({ hasText: 'Penicillin' }), "the item's description");
    await pictureLoaded(flow.page, card.getByRole('img', { name: 'Sunset over the hill', exact: true }), "the item's picture");
  });
  await flow.step('add a contact, and change its relation', async () => {
    await field(flow, 'Contact name').fill('Grace Hopper');
    await field(flow, 'Relation').fill('Friend');
    await field(flow, 'Phone number').fill('555 123 4567');
    await flow.press(button(flow, 'Add contact'));
    await visible(status(flow, 'Grace Hopper added.'), 'the status saying the contact is added');
    const card = cardOf(flow, 'Grace Hopper');
    await visible(card.getByRole('link', { name: '5551234567', exact: true }), 'the phone number, as digits, to call');
    await flow.checkAccessible('emergency information', 'emergency');
    await flow.press(card.getByText('Edit Grace Hopper'));
    await field(flow, 'Relation of Grace Hopper').fill('Neighbour');
    await flow.press(button(flow, 'Save Grace Hopper'));
    await visible(card.getByText(/^Neighbour ·/), 'the changed relation');
    await flow.checkAccessible('emergency information, a contact changed');
  });
  await flow.step('delete the emergency item', async () => {
    await flow.press(button(flow, 'Delete Allergy'));
    await visible(flow.page.getByRole('group', { name: 'Delete Allergy?' }), 'the question before deleting');
    await flow.checkAccessible('emergency information, asking before deleting');
    await flow.press(button(flow, 'Yes, delete it'));
    await visible(status(flow, 'Allergy is deleted.'), 'the status saying the item is deleted');
    await visible(flow.page.getByText('No emergency items yet.', { exact: true }), 'the empty list of items');
    await visible(cardOf(flow, 'Grace Hopper'), 'the contact, still there');
  });
}

export async function changePassword(flow: Flow, person: Person): Promise<void> {
  const [old, changed] = person.passwords;
  await flow.step('open the account', async () => {
    await flow.press(navLink(flow, 'Account'));
    await atPath(flow.page, '/settings');
    await flow.arrive('Account', 'account');
    await visible(flow.page.getByRole('main').getByText(person.email, { exact: true }), 'the e-mail address on the account page');
    await flow.screenshot('account');
  });
  await flow.step('change the password', async () => {
    await flow.press(flow.page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Password', exact: true }));
    await atPath(flow.page, '/settings/password');
    await flow.arrive('Change password', 'change password');
    await field(flow, 'Current password').fill(old);
    await field(flow, 'New password').fill(changed);
    await flow.press(button(flow, 'Change password'));
    await visible(status(flow, 'Your password is changed.'), 'the status saying the password is changed');
  });
  await flow.step('sign out, and sign in with the new password', async () => {
    await flow.press(button(flow, 'Sign out'));
    await signIn(flow, person, changed);
  });
}

export async function resetForgottenPassword(flow: Flow, service: BrowserService, person: Person): Promise<void> {
  const [, forgotten, chosen] = person.passwords;
  const seen = service.sink.messages.length;
  await flow.step('sign out and ask for a reset link', async () => {
    await flow.press(button(flow, 'Sign out'));
    await atPath(flow.page, '/sign-in');
    await flow.press(mainLink(flow, 'Forgotten your password?'));
    await atPath(flow.page, '/forgot-password');
    await flow.arrive('Forgotten password', 'forgotten password');
    await field(flow, 'E-mail address').fill(person.email);
    await flow.press(button(flow, 'Send reset link'));
    await visible(status(flow, `If ${person.email} is a verified address`), 'the status saying the link is on its way');
    await flow.checkAccessible('forgotten password, sent');
  });
  const link = await flow.step('receive the reset e-mail', async () => {
    const link = linkIn(await nextMail(service.sink, person.email, /reset your password/i, seen));
    assert.ok(link.startsWith(`${service.url}/reset-password?key=`), `the e-mailed link ${link} opens the service's reset page`);
    return link;
  });
  await flow.step('open the link from the e-mail and choose a new password', async () => {
    await flow.page.goto(link);
    await flow.arrive('Choose a new password', 'reset password');
    await field(flow, 'New password').fill(chosen);
    await flow.press(button(flow, 'Set new password'));
    await visible(status(flow, 'Your password is changed.'), 'the status saying the password is changed');
    await flow.checkAccessible('reset password, done');
    await flow.press(mainLink(flow, 'Sign in'));
  });
  await flow.step('the forgotten password no longer signs in', async () => {
    await atPath(flow.page, '/sign-in');
    await field(flow, 'E-mail address').fill(person.email);
    await field(flow, 'Password').fill(forgotten);
    await flow.press(button(flow, 'Sign in'));
    await visible(alert(flow, /./), 'an alert saying the sign-in failed');
    await flow.checkAccessible('sign-in, wrong password');
  });
  await flow.step('sign in with the new password', async () => {
    await field(flow, 'Password').fill(chosen);
    await flow.press(button(flow, 'Sign in'));
    await atPath(flow.page, '/data');
    await visible(flow.heading('Your data'), 'the heading "Your data"');
  });
}

/** Everything above, in order. */
export async function mainFlow(flow: Flow, service: BrowserService, person: Person): Promise<void> {
  await signUpAndVerify(flow, service, person);
  const built = await buildProfile(flow, person);
  await uploadPicture(flow);
  await addImageItem(flow, built);
  await keepEmergencyInformation(flow);
  await changePassword(flow, person);
  await resetForgottenPassword(flow, service, person);
}

/** The pages the main flow does not pass through, each checked with axe (signed in). */
export async function visitOtherPages(flow: Flow, service: BrowserService): Promise<void> {
  const pages: Array<[path: string, title: string]> = [
    ['/settings/sessions', 'Sessions'],
    ['/settings/mfa', 'Two-step sign-in'],
    ['/settings/passkeys', 'Passkeys'],
    ['/settings/export-and-delete', 'Export or delete your account'],
    ['/data/emergency', 'Emergency information'],
    ['/data/no-such-page', 'Page not found'],
  ];
  for (const [path, title] of pages) {
    await flow.step(`open ${path}`, async () => {
      await flow.page.goto(`${service.url}${path}`);
      await flow.arrive(title, title.toLowerCase());
    });
  }
}
