// Two people sharing in the web client (docs/sharing.md), as the browser test runs it: the owner
// invites the reader by e-mail address to read; the reader opens the e-mailed link to /shared,
// signs in on the way, accepts, and browses the owner's data with nothing offered that would fail; the
// owner makes a profile private and it is gone for the reader; the owner lets the reader edit
// and the reader adds a topic; the owner revokes and invites again, the reader accepts and
// leaves, and declines the invitation after that (asked first: cancelled, it stays).
// Labels, headings and buttons are web/README.md's.
import assert from 'node:assert/strict';
import type { BrowserService } from './harness.ts';
import { atPath, type Flow, visible } from './flow.ts';
import { linkTo, nextMail } from './mail-links.ts';
import { buildProfile, button, cardOf, field, mainLink, navLink, newPerson, type Person, signUpAndVerify, status } from './person-flow.ts';

export interface Pair {
  owner: Flow;
  reader: Flow;
}

export function twoPeople(label: string): { owner: Person; reader: Person } {
  const reader = newPerson(label);
  return {
    owner: newPerson(`owner.${label}`),
    reader: { ...reader, email: reader.email.replace(/^ada\./, 'bob.reader.'), firstName: 'Bob', lastName: 'Builder' },
  };
}

/** Where the reader finds the owner's data: its start page and the two profiles' pages. */
interface SharedPaths {
  start: string;
  home: string;
  diary: string;
}

/** Fails when <main> offers a way to change the data: a form, a field, a button or an "Edit" disclosure. */
async function offersNoChange(flow: Flow, where: string): Promise<void> {
  const main = flow.page.getByRole('main');
  const found = {
    forms: await main.locator('form').count(),
    fields: await main.locator('input, select, textarea').count(),
    buttons: await main.getByRole('button').count(),
    disclosures: await main.locator('details').count(),
  };
  assert.deepEqual(found, { forms: 0, fields: 0, buttons: 0, disclosures: 0 }, `${where}: a read-only share offers nothing to change`);
}

async function ownerBuildsData(owner: Flow, service: BrowserService, person: Person): Promise<void> {
  await signUpAndVerify(owner, service, person);
  await buildProfile(owner, person);
  await owner.step('add a second profile, "Diary"', async () => {
    await owner.press(navLink(owner, 'Your data'));
    await atPath(owner.page, '/data');
    await field(owner, 'Profile name').fill('Diary');
    await owner.press(button(owner, 'Add profile'));
    await visible(mainLink(owner, 'Diary'), 'the link to the new profile');
  });
}

async function ownerInvites(owner: Flow, service: BrowserService, reader: Person): Promise<string> {
  const seen = service.sink.messages.length;
  await owner.step('open the share page from "Your data"', async () => {
    await owner.press(mainLink(owner, 'Share'));
    await atPath(owner.page, '/data/share');
    await owner.arrive('Share your data', 'share, no one yet');
    await visible(owner.page.getByText('No one yet.', { exact: true }), 'the empty list of people');
  });
  await owner.step('invite the reader to read', async () => {
    await field(owner, 'Their e-mail address').fill(reader.email);
    assert.equal(await field(owner, 'Can edit').isChecked(), false, '"Can edit" starts unticked');
    assert.equal(await field(owner, 'Can see private profiles').isChecked(), false, '"Can see private profiles" starts unticked');
    await owner.press(button(owner, 'Invite'));
    await visible(status(owner, `We sent an invitation to ${reader.email}.`), 'the status saying the invitation is sent');
    const card = owner.page.getByRole('listitem').filter({ hasText: reader.email });
    await visible(card.getByText('Invited', { exact: true }), 'the invitation, marked "Invited"');
    await visible(button(owner, `Revoke ${reader.email}`), 'the button to revoke, naming the address');
    await owner.checkAccessible('share, one invited');
  });
  return owner.step('the invitation e-mail links to /shared', async () => {
    const mail = await nextMail(service.sink, reader.email, /./, seen);
    return linkTo(mail, `${service.url}/shared`);
  });
}

async function readerAccepts(reader: Flow, person: Person, link: string, ownerName: string): Promise<string> {
  await reader.step('open the link from the e-mail, signed out: sign in first, then the page', async () => {
    await reader.page.goto(link);
    await atPath(reader.page, '/sign-in');
    await reader.arrive('Sign in', 'sign-in, on the way to /shared');
    await field(reader, 'E-mail address').fill(person.email);
    await field(reader, 'Password').fill(person.passwords[0]);
    await reader.press(button(reader, 'Sign in'));
    await atPath(reader.page, '/shared');
    await reader.arrive('Shared with me', 'shared with me, an invitation');
    await visible(cardOf(reader, ownerName), "the invitation, headed with the owner's name");
    await visible(reader.page.getByText('Nothing is shared with you yet.', { exact: true }), 'nothing shared yet');
  });
  await reader.step('accept it', async () => {
    await reader.press(button(reader, `Accept the invitation from ${ownerName}`));
    await visible(status(reader, `${ownerName} is now shared with you.`), 'the status saying it is shared');
    await visible(reader.page.getByText('No invitation is waiting for you.', { exact: false }), 'no invitation left');
    await visible(cardOf(reader, ownerName).getByText(/^You can view it\./), 'what the reader may do');
    await reader.checkAccessible('shared with me, one accepted');
  });
  return reader.step('open it', async () => {
    await reader.press(reader.page.getByRole('link', { name: `Open ${ownerName}`, exact: true }));
    await atPath(reader.page, /^\/data\/users\/\d+$/);
    return new URL(reader.page.url()).pathname;
  });
}

async function readerBrowses(reader: Flow, start: string, ownerName: string): Promise<SharedPaths> {
  const paths = await reader.step("the owner's data, read-only", async () => {
    await reader.arrive(ownerName, 'shared data, read-only');
    await visible(reader.page.getByText(`${ownerName} shares this with you. You can view it, not change it.`), 'the note saying so');
    await visible(mainLink(reader, 'Diary'), 'the profile "Diary"');
    await offersNoChange(reader, 'the shared start page');
    const href = async (name: string) => (await mainLink(reader, name).getAttribute('href')) ?? '';
    return { start, home: await href('Home'), diary: await href('Diary') };
  });
  assert.match(paths.home, /^\/data\/users\/\d+\/profiles\/\d+$/, "a shared profile's page is under the app user's");
  await reader.step('a profile, read-only', async () => {
    await reader.press(mainLink(reader, 'Home'));
    await atPath(reader.page, paths.home);
    await reader.arrive('Home', 'shared profile, read-only');
    await visible(mainLink(reader, 'Groceries'), 'the topic');
    await offersNoChange(reader, 'the shared profile');
  });
  await reader.step('a topic, read-only', async () => {
    await reader.press(mainLink(reader, 'Groceries'));
    await atPath(reader.page, /^\/data\/users\/\d+\/topics\/\d+\?profile=\d+$/);
    await reader.arrive('Groceries', 'shared topic, read-only');
    await visible(cardOf(reader, 'Saturday').getByText('Oat milk', { exact: true }), 'the list item with its entries');
    await offersNoChange(reader, 'the shared topic');
  });
  await reader.step('the gallery and the emergency information, read-only', async () => {
    await reader.page.goto(new URL(`${start}/gallery`, reader.page.url()).href);
    await reader.arrive(`Gallery of ${ownerName}`, 'shared gallery, read-only');
    await visible(reader.page.getByText('Nothing uploaded yet.', { exact: true }), 'the empty gallery');
    await offersNoChange(reader, 'the shared gallery');
    await reader.page.goto(new URL(`${start}/emergency`, reader.page.url()).href);
    await reader.arrive(`Emergency information of ${ownerName}`, 'shared emergency information, read-only');
    await visible(reader.page.getByText('No emergency contacts yet.', { exact: true }), 'the empty contacts');
    await offersNoChange(reader, 'the shared emergency information');
  });
  return paths;
}

async function ownerMakesDiaryPrivate(owner: Flow): Promise<void> {
  await owner.step('make "Diary" private', async () => {
    await owner.press(navLink(owner, 'Your data'));
    await atPath(owner.page, '/data');
    await owner.press(mainLink(owner, 'Diary'));
    await owner.arrive('Diary', 'profile, before private');
    await field(owner, 'Private profile').check();
    await owner.press(button(owner, 'Save profile'));
    await visible(status(owner, 'Profile saved.'), 'the status "Profile saved."');
    await visible(owner.page.locator('.badge', { hasText: 'Private profile' }), 'the profile marked private');
    await owner.checkAccessible('private profile');
  });
}

async function diaryGoneForReader(reader: Flow, paths: SharedPaths): Promise<void> {
  await reader.step('the private profile is gone for the reader', async () => {
    await reader.page.goto(new URL(paths.start, reader.page.url()).href);
    await visible(mainLink(reader, 'Home'), 'the profile "Home", still there');
    assert.equal(await mainLink(reader, 'Diary').count(), 0, 'no link to the private profile');
    await reader.page.goto(new URL(paths.diary, reader.page.url()).href);
    await reader.arrive('Page not found', 'private profile, not found');
  });
}

async function ownerLetsReaderEdit(owner: Flow, reader: Person): Promise<void> {
  await owner.step('let the reader edit', async () => {
    await owner.press(navLink(owner, 'Your data'));
    await owner.press(mainLink(owner, 'Share'));
    await owner.arrive('Share your data', 'share, one accepted');
    const card = owner.page.getByRole('listitem').filter({ hasText: reader.email });
    await visible(
      card.getByText(`Accepted by ${reader.firstName} ${reader.lastName}`, { exact: true }),
      "the acceptance, with the reader's name",
    );
    await field(owner, `Can edit (${reader.email})`).check();
    // And only "Home" from now on: "Diary" (private, and not theirs to see) stays out even if made public.
    await card.getByLabel('Every profile, those added later too').uncheck();
    const diary = card.getByLabel('Diary (private)', { exact: true });
    assert.equal(await diary.isChecked(), false, 'a private profile is not ticked without private access');
    assert.equal(await diary.isDisabled(), true, 'nor can it be');
    await owner.press(button(owner, `Save what ${reader.email} may do`));
    await visible(status(owner, `What ${reader.email} may do is saved.`), 'the status saying the permissions are saved');
    await owner.page.reload();
    await owner.arrive('Share your data', 'share, limited to one profile');
    const saved = owner.page.getByRole('listitem').filter({ hasText: reader.email });
    assert.equal(await saved.getByLabel('Every profile, those added later too').isChecked(), false, 'no longer every profile');
    assert.equal(await saved.getByLabel('Home', { exact: true }).isChecked(), true, '"Home" shown');
    assert.equal(await saved.getByLabel('Diary (private)', { exact: true }).isChecked(), false, '"Diary" not shown');
  });
}

async function readerAddsTopic(reader: Flow, paths: SharedPaths, ownerName: string): Promise<void> {
  await reader.step('the reader, now an editor, adds a topic; owner-only things stay hidden', async () => {
    await reader.page.goto(new URL(paths.start, reader.page.url()).href);
    await reader.arrive(ownerName, 'shared data, can edit');
    await visible(reader.page.getByText(`${ownerName} shares this with you. You can view and change it.`), 'the note saying so');
    await visible(button(reader, 'Add profile'), 'the form to add a profile');
    for (const label of ['Name', 'Quote', 'Private profile'])
      assert.equal(await field(reader, label).count(), 0, `no "${label}" field: the owner's alone`);
    assert.equal(await button(reader, 'Delete all my personal data').count(), 0, 'no deleting the owner’s data');
    assert.equal(await mainLink(reader, 'Share').count(), 0, 'no sharing the owner’s data');
    await reader.press(mainLink(reader, 'Home'));
    await reader.arrive('Home', 'shared profile, can edit');
    await field(reader, 'Topic name').fill('Medicines');
    await field(reader, 'Topic type').selectOption({ label: 'text topic' });
    await reader.press(button(reader, 'Add topic'));
    await visible(mainLink(reader, 'Medicines'), 'the link to the added topic');
    assert.equal(await field(reader, 'Private profile').count(), 0, 'no "Private profile": the owner sets it');
    await reader.checkAccessible('shared profile, a topic added');
  });
}

async function ownerRevokesAndInvitesAgain(owner: Flow, service: BrowserService, reader: Person): Promise<void> {
  await owner.step("revoke the reader's access", async () => {
    await owner.page.goto(new URL('/data/share', owner.page.url()).href);
    await owner.arrive('Share your data', 'share, before revoking');
    await owner.press(button(owner, `Revoke ${reader.email}`));
    await owner.press(button(owner, 'Yes, revoke'));
    await visible(status(owner, `${reader.email} no longer sees your data.`), 'the status saying the access is revoked');
    await visible(owner.page.getByText('No one yet.', { exact: true }), 'the empty list of people');
  });
  await owner.step('invite the reader again, to edit', async () => {
    const seen = service.sink.messages.length;
    await field(owner, 'Their e-mail address').fill(reader.email);
    await field(owner, 'Can edit').check();
    await owner.press(button(owner, 'Invite'));
    await visible(status(owner, `We sent an invitation to ${reader.email}.`), 'the status saying the invitation is sent');
    assert.equal(await field(owner, `Can edit (${reader.email})`).isChecked(), true, 'the invitation lets them edit');
    await nextMail(service.sink, reader.email, /./, seen);
  });
}

async function readerRevokedAcceptsAgainAndLeaves(reader: Flow, paths: SharedPaths, ownerName: string): Promise<void> {
  await reader.step('the revoked reader no longer sees the data', async () => {
    await reader.page.goto(new URL(paths.start, reader.page.url()).href);
    await reader.arrive('Page not found', 'shared data after revocation');
  });
  await reader.step('accept the new invitation on "Shared with me", then leave', async () => {
    await reader.press(navLink(reader, 'Shared with me'));
    await atPath(reader.page, '/shared');
    await reader.press(button(reader, `Accept the invitation from ${ownerName}`));
    await visible(cardOf(reader, ownerName).getByText(/You can view and change it\./), 'the share, to edit');
    await reader.checkAccessible('shared with me, accepted again');
    await reader.press(button(reader, `Leave ${ownerName}`));
    await reader.press(button(reader, 'Yes, leave'));
    await visible(status(reader, `You left ${ownerName}: it is no longer shared with you.`), 'the status saying they left');
    await visible(reader.page.getByText('Nothing is shared with you yet.', { exact: true }), 'nothing shared');
    await reader.page.goto(new URL(paths.start, reader.page.url()).href);
    await reader.arrive('Page not found', 'shared data after leaving');
  });
}

async function ownerInvitesOnceMore(owner: Flow, service: BrowserService, reader: Person): Promise<void> {
  await owner.step('the reader left: invite them once more', async () => {
    await owner.page.goto(new URL('/data/share', owner.page.url()).href);
    await owner.arrive('Share your data', 'share, after the reader left');
    await visible(owner.page.getByText('No one yet.', { exact: true }), 'the empty list of people');
    const seen = service.sink.messages.length;
    await field(owner, 'Their e-mail address').fill(reader.email);
    await field(owner, 'Can edit').check();
    await owner.press(button(owner, 'Invite'));
    await visible(status(owner, `We sent an invitation to ${reader.email}.`), 'the status saying the invitation is sent');
    await nextMail(service.sink, reader.email, /./, seen);
  });
}

async function readerDeclines(reader: Flow, ownerName: string): Promise<void> {
  const decline = button(reader, `Decline the invitation from ${ownerName}`);
  const question = reader.page.getByRole('group', {
    name: `Decline the invitation from ${ownerName}? It will be gone: you will not see ${ownerName} unless its owner invites you again.`,
  });
  await reader.step('the new invitation waits on "Shared with me"; declining asks first, and Cancel keeps it', async () => {
    await reader.press(navLink(reader, 'Shared with me'));
    await atPath(reader.page, '/shared');
    await visible(cardOf(reader, ownerName).getByText(/You could view and change it\./), 'the invitation, to edit');
    await visible(reader.page.getByText('Nothing is shared with you yet.', { exact: true }), 'nothing shared');
    await reader.checkAccessible('shared with me, invited again');
    await reader.press(decline);
    await visible(question, 'the question before declining');
    await reader.checkAccessible('shared with me, asking to decline');
    await reader.press(question.getByRole('button', { name: 'Cancel', exact: true }));
    await visible(decline, 'the button again');
    await reader.page.reload();
    await visible(decline, 'the invitation, still there after a reload');
    await visible(button(reader, `Accept the invitation from ${ownerName}`), 'the invitation, still to accept');
  });
  await reader.step('decline it', async () => {
    await reader.press(decline);
    await reader.press(question.getByRole('button', { name: 'Yes, decline', exact: true }));
    await visible(status(reader, `You declined the invitation from ${ownerName}.`), 'the status saying it is declined');
    await visible(reader.page.getByText('No invitation is waiting for you.', { exact: false }), 'no invitation left');
  });
}

async function ownerSeesTopicAndNoOne(owner: Flow, reader: Person): Promise<void> {
  await owner.step("the owner sees the reader's topic, and no one on the share page", async () => {
    await owner.press(navLink(owner, 'Your data'));
    await owner.press(mainLink(owner, 'Home'));
    await visible(mainLink(owner, 'Medicines'), 'the topic the reader added');
    await owner.page.goto(new URL('/data/share', owner.page.url()).href);
    await visible(owner.page.getByText('No one yet.', { exact: true }), 'the empty list of people');
    assert.equal(await owner.page.getByText(reader.email).count(), 0, 'the declined invitation is gone');
  });
}

/** The whole way, with the owner and the reader each in a browser of their own. */
export async function sharingFlow({ owner, reader }: Pair, service: BrowserService, label: string): Promise<void> {
  const people = twoPeople(label);
  const ownerName = `${people.owner.firstName} ${people.owner.lastName}`;
  await ownerBuildsData(owner, service, people.owner);
  await signUpAndVerify(reader, service, people.reader);
  const link = await ownerInvites(owner, service, people.reader);
  const start = await readerAccepts(reader, people.reader, link, ownerName);
  const paths = await readerBrowses(reader, start, ownerName);
  await ownerMakesDiaryPrivate(owner);
  await diaryGoneForReader(reader, paths);
  await ownerLetsReaderEdit(owner, people.reader);
  await readerAddsTopic(reader, paths, ownerName);
  await ownerRevokesAndInvitesAgain(owner, service, people.reader);
  await readerRevokedAcceptsAgainAndLeaves(reader, paths, ownerName);
  await ownerInvitesOnceMore(owner, service, people.reader);
  await readerDeclines(reader, ownerName);
  await ownerSeesTopicAndNoOne(owner, people.reader);
}
