// docs/activity.md in a real browser: an owner whose data someone read and changed, and whose
// share with them ended, reads both logs — /data/activity and /settings/activity — on a desktop
// screen and on a phone's: the sentences a person reads, newest first, each with its time as
// "2 hours ago", and "Show older" for the events past the first 100; axe on every page, and the
// page's language said. The accounts, the share and the accessor's actions go through the API
// (old events straight into the log, as test/activity does); the browser reads.
// The page's clock is the service's (a test clock the share's expiry moves on), so times are exact.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContextOptions, Locator } from 'playwright-core';
import { recordActivity, recordSecurityEvent } from '../../src/activity/activity-events.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import type { TestServer } from '../helpers/server.ts';
import { DESKTOP, newContext, PHONE } from './browser.ts';
import { atPath, Flow, visible } from './flow.ts';
import { button, signIn } from './person-flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Older events put in each log first, so that its first page (100) leaves some for "Show older". */
const OLDER = 104;

async function call(server: TestServer, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const response = await server.request(method, path, { token, body });
  assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
  return response.body;
}

interface Story {
  owner: TestAccount;
  ben: TestAccount;
  /** The accessor's (Ben's) invited address. */
  benEmail: string;
  /** The end date the owner gave Ben's share. */
  shareEnd: Date;
}

/**
 * The owner's data read and changed by Ben, whose share then ended an hour after the changes;
 * the service's clock is left two hours after them.
 */
async function tellStory(server: TestServer, label: string): Promise<Story> {
  const owner = await createAccount(server, { firstName: 'Olive', lastName: `Owner ${label}` });
  const ben = await createAccount(server, { firstName: 'Ben', lastName: 'Lovelace' });
  const db = server.server.ctx.db.kysely;
  const appUser = await call(server, 'POST', '/app/users/', owner.token, { name: 'Olive Owner' });
  const profile = await call(server, 'POST', `/app/users/${appUser.id}/profiles/`, owner.token, { name: 'Home' });
  const topic = await call(server, 'POST', `/app/profiles/${profile.id}/topics/`, owner.token, { name: 'Allergies', topic_type: 3 });

  const start = server.clock.now();
  for (let i = 0; i < OLDER; i++) {
    await recordActivity(db, {
      accountId: owner.id,
      appUserId: appUser.id,
      at: start - 3 * DAY,
      actor: { kind: 'accessor', id: ben.id },
      action: 'updated',
      object: { type: 'item', id: null, name: `Old note ${i}` },
      via: 'api',
    });
    await recordSecurityEvent(db, owner.id, start - 3 * DAY, 'recovery_code_used', 'api');
  }

  const accessor = await call(server, 'POST', `/app/users/${appUser.id}/accessors/`, owner.token, { email: ben.email, can_write: true });
  await call(server, 'POST', `/app/accessors/${accessor.id}/accept/`, ben.token);
  await call(server, 'GET', `/app/users/${appUser.id}/profiles/`, ben.token);
  await call(server, 'POST', `/app/topics/${topic.id}/items/`, ben.token, {
    name: 'Penicillin',
    list_content: { entries: [{ text: 'rash' }] },
  });
  await call(server, 'PATCH', `/app/accessors/${accessor.id}/`, owner.token, { expires_at: new Date(start + HOUR).toISOString() });
  const link = await call(server, 'POST', `/app/users/${appUser.id}/emergency-links/`, owner.token, {
    label: 'Wallet card',
    expires_at: new Date(start + HOUR).toISOString(),
  });
  // A responder opens it on a phone.
  const opened = await server.request('GET', `/public/emergency/${new URL(link.link).pathname.split('/').pop()}/`, {
    headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36' },
  });
  assert.equal(opened.status, 200, opened.text);
  // The owner signs in on another computer, and logs out there.
  const firefox = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0' };
  const elsewhere = await server.request('POST', '/auth/login/', {
    headers: firefox,
    body: { username: owner.email, password: owner.password },
  });
  assert.equal(elsewhere.status, 200, elsewhere.text);
  assert.equal((await server.request('POST', '/auth/logout/', { token: elsewhere.body.token, headers: firefox })).status, 204);
  server.clock.advance(2 * HOUR);
  const told = await server.server.shareExpiry.runOnce();
  assert.ok(told >= 1, 'the expiry pass told the share’s end');
  assert.ok((await server.server.linkExpiry.runOnce()) >= 1, 'the link’s end recorded');
  return { owner, ben, benEmail: ben.email, shareEnd: new Date(start + HOUR) };
}

/** Each row of the log: its sentence and its time as shown, and the time it stands for. */
async function rows(list: Locator): Promise<{ sentence: string; ago: string; at: string }[]> {
  const shown = await list.getByRole('listitem').evaluateAll((items) =>
    items.map((item) => {
      const sentence = item.querySelector('span');
      const time = item.querySelector('time');
      return {
        sentence: sentence?.textContent ?? '',
        ago: time?.textContent ?? '',
        at: time?.getAttribute('datetime') ?? '',
        // The time on a line of its own under the sentence, and whole ("2 hours ago", not "2" and "hours ago").
        laidOut:
          !!sentence &&
          !!time &&
          time.getBoundingClientRect().top >= sentence.getBoundingClientRect().bottom - 1 &&
          time.getClientRects().length === 1 &&
          time.getBoundingClientRect().height < 1.5 * (sentence.getClientRects()[0]?.height ?? 0),
      };
    }),
  );
  const misplaced = shown.filter((row) => !row.laidOut).map((row) => `${row.sentence} ${row.ago}`);
  assert.deepEqual(misplaced, [], 'each time whole, on a line under its sentence');
  return shown.map(({ sentence, ago, at }) => ({ sentence, ago, at }));
}

function newestFirst(shown: { at: string }[], where: string): void {
  const times = shown.map((row) => Date.parse(row.at));
  assert.ok(
    times.every((t, i) => i === 0 || t <= times[i - 1]!),
    `${where}: newest first`,
  );
}

async function htmlLang(flow: Flow): Promise<string | null> {
  return flow.page.locator('html').getAttribute('lang');
}

describe('the activity logs in the web client', () => {
  const started = withServiceAndBrowser();

  async function run(label: string, options: BrowserContextOptions) {
    const { server, url } = started.service;
    const story = await tellStory(server, label);
    const context = await newContext(started.browser, options);
    try {
      const flow = new Flow(await context.newPage(), { label, phone: options === PHONE });
      // The page's "now" is the service's: the times it shows are exact.
      await flow.page.clock.setFixedTime(server.clock.now());

      await flow.step('sign in', async () => {
        await flow.page.goto(`${url}/sign-in`);
        await signIn(flow, story.owner, story.owner.password);
      });

      await flow.step('/data/activity: what Ben did, newest first, with its time', async () => {
        await flow.page.goto(`${url}/data/activity`);
        await atPath(flow.page, '/data/activity');
        await flow.arrive('Activity', 'data activity');
        assert.equal(await htmlLang(flow), 'en', '<html lang="en">');
        const list = flow.page.getByRole('list', { name: 'Activity on your data', exact: true });
        await visible(list, 'the list of events');
        const shown = await rows(list);
        assert.equal(shown.length, 100, 'the first 100 events');
        assert.deepEqual(
          shown.slice(0, 9).map(({ sentence, ago }) => [sentence, ago]),
          [
            ["Your emergency link 'Wallet card' reached its end date.", '1 hour ago'],
            [`Your share with ${story.benEmail} ended on its end date.`, '1 hour ago'],
            ["Your emergency link 'Wallet card' was opened from a phone.", '2 hours ago'],
            ["You made the emergency link 'Wallet card'.", '2 hours ago'],
            [
              `You changed what ${story.benEmail} may do: ends on ${new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(story.shareEnd)}.`,
              '2 hours ago',
            ],
            ["Ben Lovelace added 'Penicillin' (item) to 'Allergies'.", '2 hours ago'],
            ['Ben Lovelace viewed your data.', '2 hours ago'],
            ['Ben Lovelace accepted your invitation.', '2 hours ago'],
            [`You invited ${story.benEmail} to see your data.`, '2 hours ago'],
          ],
        );
        assert.deepEqual(shown[9], {
          sentence: `Ben Lovelace changed 'Old note ${OLDER - 1}' (item).`,
          ago: '3 days ago',
          at: shown[9]!.at,
        });
        newestFirst(shown, 'data activity');
      });

      await flow.step('/data/activity: "Show older" adds the rest, then is gone', async () => {
        await flow.press(button(flow, 'Show older'));
        const list = flow.page.getByRole('list', { name: 'Activity on your data', exact: true });
        await visible(list.getByText("Ben Lovelace changed 'Old note 0' (item).", { exact: true }), 'the oldest event');
        const shown = await rows(list);
        assert.equal(shown.length, OLDER + 9, 'every event, once');
        assert.equal(new Set(shown.map((row) => row.sentence)).size, shown.length, 'no event twice');
        newestFirst(shown, 'data activity, all');
        assert.equal(await button(flow, 'Show older').count(), 0, 'nothing older');
        await flow.checkAccessible('data activity, all');
      });

      await flow.step('/settings/activity: the sign-in, newest first, then older events', async () => {
        await flow.page.goto(`${url}/settings/activity`);
        await flow.arrive('Security activity', 'security activity');
        assert.equal(await htmlLang(flow), 'en', '<html lang="en">');
        const list = flow.page.getByRole('list', { name: "Your account's security activity", exact: true });
        await visible(list, 'the list of events');
        const shown = await rows(list);
        assert.equal(shown.length, 100, 'the first 100 events');
        assert.equal(
          shown[0]!.sentence,
          'You signed in with your password from Chrome on Linux (127.0.0.1).',
          'the browser named as a person knows it',
        );
        assert.equal(shown[0]!.ago, 'just now');
        const logged = await server.request('GET', '/account/activity/', { token: story.owner.token });
        assert.equal(logged.body.events[0].action, 'signed_in');
        assert.equal(logged.body.events[0].via, 'web', 'signed in through the web client');
        assert.deepEqual(
          shown.slice(1).map(({ sentence, ago }) => [sentence, ago]),
          [
            ['The session on Firefox on Windows (127.0.0.1) was ended.', '2 hours ago'],
            ['You signed in with your password from Firefox on Windows (127.0.0.1).', '2 hours ago'],
            ...Array.from({ length: 97 }, () => ['A recovery code was used to sign in.', '3 days ago']),
          ],
        );
        newestFirst(shown, 'security activity');
        await flow.press(button(flow, 'Show older'));
        await visible(list.getByRole('listitem').nth(OLDER + 2), 'the older events');
        assert.equal((await rows(list)).length, OLDER + 3, 'every event, once');
        assert.equal(await button(flow, 'Show older').count(), 0, 'nothing older');
        await flow.checkAccessible('security activity, all');
      });

      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error');
    } finally {
      await context.close();
    }
  }

  test('on a desktop: who read and changed the data, the share’s end, the sign-in; older ones on demand', () => run('desktop', DESKTOP));

  test('the same on a phone (375×667, touch)', () => run('phone', PHONE));
});
