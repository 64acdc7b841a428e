// What a share is limited to (docs/sharing.md, "Shares that end" and "Shares that show less"), as
// the web client says it: on /shared, to the person a share was given to, until when and that only
// some profiles are shared — never which, nor the owner's ids. The shares are made through the
// API; the browser reads, desktop, axe on every page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import type { TestServer } from '../helpers/server.ts';
import { DESKTOP, newContext } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { cardOf, navLink, signIn } from './person-flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function call(server: TestServer, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const response = await server.request(method, path, { token, body });
  assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
  return response.body;
}

/** An account with an app user named `name` and these profiles (name → private). */
async function ownerWith(server: TestServer, name: string, profiles: Record<string, boolean>) {
  const account = await createAccount(server, { firstName: name.split(' ')[0], lastName: name.split(' ')[1] });
  const user = await call(server, 'POST', '/app/users/', account.token, { name });
  const ids: Record<string, number> = {};
  for (const [profile, isPrivate] of Object.entries(profiles)) {
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
        for (const hidden of ['Home', 'Diary', `${ada.ids.Home}`, `${ada.ids.Diary}`]) {
          assert.ok(!said.split(shown(invitationEnd)).join('').includes(hidden), `the card names no profile nor id (${hidden}): ${said}`);
        }
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
});
