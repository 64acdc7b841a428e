// What a share is limited to (docs/sharing.md, "Shares that end" and "Shares that show less"), as
// the web client says it: on /shared, to the person a share was given to, until when and that only
// some profiles are shared — never which, nor the owner's ids; and on the owner's share form, a
// private profile chosen only with private access, and a choice that shows no profile said so
// before it is saved. The data is made through the API; desktop, axe on every page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import type { TestServer } from '../helpers/server.ts';
import { DESKTOP, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { button, cardOf, mainLink, navLink, signIn, status } from './person-flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function call(server: TestServer, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const response = await server.request(method, path, { token, body });
  assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
  return response.body;
}

/** An account with an app user named `name` and these profiles (name → private). */
async function ownerWith<P extends string>(server: TestServer, name: string, profiles: Record<P, boolean>) {
  const account = await createAccount(server, { firstName: name.split(' ')[0], lastName: name.split(' ')[1] });
  const user = await call(server, 'POST', '/app/users/', account.token, { name });
  const ids = {} as Record<P, number>;
  for (const [profile, isPrivate] of Object.entries(profiles) as [P, boolean][]) {
    ids[profile] = (
      await call(server, 'POST', `/app/users/${user.id}/profiles/`, account.token, { name: profile, is_private: isPrivate })
    ).id;
  }
  return { account, user, ids };
}

/** A time as the web client writes it in English (the browser's time zone is UTC). */
const shown = (iso: string) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso));

describe('what a share is limited to, in the web client', () => {
  const started = withServiceAndBrowser();

  async function onAPage(label: string, account: TestAccount, run: (flow: Flow) => Promise<void>) {
    const context = await newContext(started.browser, DESKTOP);
    try {
      const flow = new Flow(await context.newPage(), { label });
      await flow.step('sign in', async () => {
        await flow.page.goto(`${started.service.url}/sign-in`);
        await signIn(flow, account, account.password);
      });
      await run(flow);
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  }

  test('/shared: an invitation and an accepted share say until when and that only some profiles are shared; an ended one says so, with nothing to open', async () => {
    const { server } = started.service;
    const reader = await createAccount(server, { firstName: 'Rita', lastName: 'Reader' });
    const now = server.clock.now();

    const ada = await ownerWith(server, 'Ada Lovelace', { Home: false, Diary: true });
    const invitationEnd = new Date(now + 10 * DAY).toISOString();
    await call(server, 'POST', `/app/users/${ada.user.id}/accessors/`, ada.account.token, {
      email: reader.email,
      expires_at: invitationEnd,
      profiles: [ada.ids.Home, ada.ids.Diary],
    });

    const grace = await ownerWith(server, 'Grace Hopper', { Work: false });
    const ended = await call(server, 'POST', `/app/users/${grace.user.id}/accessors/`, grace.account.token, {
      email: reader.email,
      can_write: true,
      expires_at: new Date(now + MINUTE).toISOString(),
    });
    await call(server, 'POST', `/app/accessors/${ended.id}/accept/`, reader.token);

    const mary = await ownerWith(server, 'Mary Somerville', { Garden: false, Letters: false });
    const limited = await call(server, 'POST', `/app/users/${mary.user.id}/accessors/`, mary.account.token, {
      email: reader.email,
      expires_at: new Date(now + 20 * DAY).toISOString(),
      profiles: [mary.ids.Letters],
    });
    await call(server, 'POST', `/app/accessors/${limited.id}/accept/`, reader.token);

    const charles = await ownerWith(server, 'Charles Babbage', { Engine: false });
    const open = await call(server, 'POST', `/app/users/${charles.user.id}/accessors/`, charles.account.token, { email: reader.email });
    await call(server, 'POST', `/app/accessors/${open.id}/accept/`, reader.token);

    server.clock.advance(MINUTE);
    const graceEnd: string = (await call(server, 'GET', `/app/accessors/${ended.id}/`, reader.token)).expires_at;
    const maryEnd: string = (await call(server, 'GET', `/app/accessors/${limited.id}/`, reader.token)).expires_at;

    await onAPage('shared limits', reader, async (flow) => {
      await flow.step('open "Shared with me"', async () => {
        await flow.press(navLink(flow, 'Shared with me'));
        await atPath(flow.page, '/shared');
        await flow.arrive('Shared with me', 'shared with me, limited shares');
      });
      await flow.step('the invitation: some profiles, until a date', async () => {
        const card = cardOf(flow, 'Ada Lovelace');
        await visible(card.getByText('Only some of the profiles are shared with you.', { exact: true }), 'that some profiles are shared');
        await visible(card.getByText(`The share ends on ${shown(invitationEnd)}, unless it is extended.`), 'the end date');
        assert.equal(await card.locator('time').getAttribute('datetime'), invitationEnd, 'the date, machine-readable');
        const said = await card.innerText();
        for (const name of ['Home', 'Diary']) assert.ok(!said.includes(name), `the card names no profile (${name}): ${said}`);
      });
      await flow.step('an accepted share limited to some profiles, until a date', async () => {
        const card = cardOf(flow, 'Mary Somerville');
        await visible(card.getByText(/^You can view it\./), 'what the reader may do');
        await visible(card.getByText('Only some of the profiles are shared with you.', { exact: true }), 'that some profiles are shared');
        await visible(card.getByText(`The share ends on ${shown(maryEnd)}, unless it is extended.`), 'the end date');
        assert.ok(!(await card.innerText()).includes('Letters'), 'the card names no profile');
        await visible(card.getByRole('link', { name: 'Open Mary Somerville', exact: true }), 'the link to open it');
      });
      await flow.step('an accepted share that ended: when, and nothing to open', async () => {
        const card = cardOf(flow, 'Grace Hopper');
        await visible(
          card.getByText(`Your access ended on ${shown(graceEnd)}. The person who shared it can give it back without a new invitation.`),
          'when it ended',
        );
        assert.equal(await card.getByText(/You can view/).count(), 0, 'no "You can view" for an ended share');
        assert.equal(await card.getByRole('link', { name: 'Open Grace Hopper' }).count(), 0, 'nothing to open');
        await visible(card.getByRole('button', { name: 'Leave Grace Hopper', exact: true }), 'it can still be left');
      });
      await flow.step('a share without limits says none', async () => {
        const card = cardOf(flow, 'Charles Babbage');
        await visible(card.getByText(/^You can view it\./), 'what the reader may do');
        assert.equal(await card.getByText(/Only some|ends on|ended on/).count(), 0, 'no limit said');
      });
    });
  });

  test('the share form: a private profile only with private access, never ticked without it; a choice showing no profile says so', async () => {
    const { server } = started.service;
    const ada = await ownerWith(server, 'Ada Lovelace', { Home: false, Diary: true, Work: false });
    const stamp = Date.now().toString(36);
    const first = `first.${stamp}@example.com`;
    const second = `second.${stamp}@example.com`;
    const accessorOf = async (email: string) => {
      const listed = await call(server, 'GET', `/app/users/${ada.user.id}/accessors/`, ada.account.token);
      return (listed as { email: string; profiles: number[] | null; has_private_profile_access: boolean }[]).find(
        (a) => a.email === email,
      )!;
    };
    const noProfileHint =
      'No profile is ticked: this person will see none of your profiles, only your emergency information and your gallery.';
    const privateHint = 'Private profiles can be chosen once "Can see private profiles" is ticked.';

    await onAPage('share form', ada.account, async (flow) => {
      const invite = flow.page.locator('form#invite');
      const every = invite.getByLabel('Every profile, those added later too', { exact: true });
      const seesPrivate = invite.getByLabel('Can see private profiles', { exact: true });
      const profile = (name: string) => invite.getByLabel(name, { exact: true });
      await flow.step('open the share page', async () => {
        await flow.press(mainLink(flow, 'Share'));
        await atPath(flow.page, '/data/share');
        await flow.arrive('Share your data', 'share');
      });
      await flow.step('without private access, unticking "Every profile" ticks the other profiles, not the private one', async () => {
        await every.uncheck();
        assert.equal(await profile('Home').isChecked(), true);
        assert.equal(await profile('Work').isChecked(), true);
        assert.equal(await profile('Diary (private)').isChecked(), false, 'the private profile is not ticked');
        assert.equal(await profile('Diary (private)').isDisabled(), true, 'nor can it be');
        await visible(invite.getByText(privateHint, { exact: true }), 'the hint saying why');
        assert.equal(await invite.getByText(noProfileHint).count(), 0, 'profiles are shown');
        await flow.checkAccessible('share, a private profile not offered');
      });
      await flow.step('invite: the share shows the two profiles, not the private one', async () => {
        await invite.getByLabel('Their e-mail address', { exact: true }).fill(first);
        await flow.press(button(flow, 'Invite'));
        await visible(status(flow, `We sent an invitation to ${first}.`), 'the invitation sent');
        const made = await accessorOf(first);
        assert.deepEqual(
          made.profiles,
          [ada.ids.Home, ada.ids.Work].sort((a, b) => a - b),
        );
        assert.equal(made.has_private_profile_access, false);
      });
      await flow.step('the form starts afresh: every profile, no private access', async () => {
        assert.equal(await every.isChecked(), true, '"Every profile" ticked again');
        assert.equal(await seesPrivate.isChecked(), false);
        assert.equal(await profile('Home').count(), 0, 'no profile list while every profile is shown');
      });
      await flow.step('with private access the private profile can be chosen; without, it is not sent', async () => {
        await seesPrivate.check();
        await every.uncheck();
        assert.equal(await profile('Diary (private)').isDisabled(), false, 'choosable with private access');
        assert.equal(await profile('Diary (private)').isChecked(), true, 'ticked with the others, as private access is given');
        assert.equal(await invite.getByText(privateHint).count(), 0, 'no hint needed');
        await seesPrivate.uncheck();
        assert.equal(await profile('Diary (private)').isDisabled(), true, 'not choosable once private access is unticked');
        assert.equal(await profile('Diary (private)').isChecked(), false);
        await profile('Home').uncheck();
        await profile('Work').uncheck();
        await visible(invite.getByText(noProfileHint, { exact: true }), 'the hint that no profile would be shown');
        await flow.checkAccessible('share, a choice showing no profile');
      });
      await flow.step('a share showing no profile can still be sent', async () => {
        await invite.getByLabel('Their e-mail address', { exact: true }).fill(second);
        await flow.press(button(flow, 'Invite'));
        await visible(status(flow, `We sent an invitation to ${second}.`), 'the invitation sent');
        const made = await accessorOf(second);
        assert.deepEqual(made.profiles, [], 'an empty list, as chosen');
        assert.equal(made.has_private_profile_access, false);
      });
      await flow.step("that person's form says it shows no profile; private access, then the private profile, change it", async () => {
        const card = flow.page.getByRole('listitem').filter({ hasText: second });
        await visible(card.getByText(noProfileHint, { exact: true }), 'the hint on the saved share');
        const diary = card.getByLabel('Diary (private)', { exact: true });
        assert.equal(await diary.isDisabled(), true);
        await card.getByLabel(`Can see private profiles (${second})`, { exact: true }).check();
        assert.equal(await diary.isDisabled(), false, 'choosable with private access');
        assert.equal(await diary.isChecked(), false, 'not ticked for them');
        await visible(card.getByText(noProfileHint, { exact: true }), 'still no profile shown');
        await diary.check();
        assert.equal(await card.getByText(noProfileHint).count(), 0, 'a profile is shown now');
        await flow.press(button(flow, `Save what ${second} may do`));
        await visible(status(flow, `What ${second} may do is saved.`), 'the change saved');
        const saved = await accessorOf(second);
        assert.deepEqual(saved.profiles, [ada.ids.Diary]);
        assert.equal(saved.has_private_profile_access, true);
        await flow.checkAccessible('share, a private profile chosen');
      });
    });
  });
});
