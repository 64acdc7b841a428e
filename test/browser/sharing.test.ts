// docs/sharing.md in a real browser: two people, each in a browser context of their own, share
// one's data through the web client — invitation by e-mail (read from the real SMTP sink),
// accepting on /shared, browsing read-only, a profile made private, write access, leaving —
// on a desktop screen and on a phone's, with axe on every page and no error in either console.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContextOptions } from 'playwright-core';
import { DESKTOP, PHONE, newContext } from './browser.ts';
import { Flow } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { sharingFlow } from './sharing-flow.ts';

describe('two people sharing in the web client', () => {
  const started = withServiceAndBrowser();

  async function run(label: string, options: BrowserContextOptions) {
    const phone = options === PHONE;
    const contexts = await Promise.all([newContext(started.browser, options), newContext(started.browser, options)]);
    try {
      const [owner, reader] = await Promise.all(
        contexts.map(
          async (context, i) => new Flow(await context.newPage(), { label: `${label}, ${i === 0 ? 'owner' : 'reader'}`, phone }),
        ),
      );
      await sharingFlow({ owner: owner!, reader: reader! }, started.service, label);
      assert.deepEqual([...owner!.pageErrors, ...reader!.pageErrors], [], 'no uncaught exception or console error in either page');
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  }

  test('on a desktop: invite, accept from the e-mailed link, browse read-only, a private profile disappears, write access adds a topic, revoke, decline', () =>
    run('desktop', DESKTOP));

  test('the same on a phone (375×667, touch)', () => run('phone', PHONE));
});
