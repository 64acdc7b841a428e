// Issue 14, docs/web-client.md: a person in a real browser (Debian's Chromium) against the real
// service serving its built web client, with mail through the real SMTP sink and the links
// opened as e-mailed. The whole way through, on a desktop screen and on a phone's, with axe
// on every page (no serious or critical violation) and no error in the page's console.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DESKTOP, PHONE, newContext } from './browser.ts';
import { Flow } from './flow.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';
import { mainFlow, newPerson, visitOtherPages } from './person-flow.ts';

describe('a person in the web client', () => {
  const started = withServiceAndBrowser();

  async function run(label: string, options: typeof DESKTOP, phone: boolean, more?: (flow: Flow) => Promise<void>) {
    const context = await newContext(started.browser, options);
    try {
      const flow = new Flow(await context.newPage(), { label, phone });
      await mainFlow(flow, started.service, newPerson(label));
      await more?.(flow);
      assert.deepEqual(flow.pageErrors, [], 'no uncaught exception or console error in the page');
    } finally {
      await context.close();
    }
  }

  test('on a desktop: signs up, verifies through the e-mailed link, builds a profile, uploads a picture, changes and resets the password; every page passes axe', () =>
    run('desktop', DESKTOP, false, (flow) => visitOtherPages(flow, started.service)));

  test('the same on a phone (375×667, touch)', () => run('phone', PHONE, true));
});
