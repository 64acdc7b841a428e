// startServiceAndBrowser leaves nothing running when one part fails: a service that refuses
// its settings takes the browser launched beside it down with it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServiceAndBrowser } from './service-and-browser.ts';

/** Child processes still running (a launched Chromium is one) and servers still listening. */
function stillOpen(): string[] {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'ProcessWrap' || resource === 'TCPServerWrap');
}

test('a service that fails to start: the browser launched beside it is closed, nothing is left open', async () => {
  assert.deepEqual(stillOpen(), [], 'nothing open before');
  await assert.rejects(startServiceAndBrowser({ OUTBOX_POLL_INTERVAL: 'soon' }), /OUTBOX_POLL_INTERVAL must be a number of seconds/);
  assert.deepEqual(stillOpen(), [], 'nothing left open after');
});
