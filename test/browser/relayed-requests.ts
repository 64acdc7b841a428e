// A page's requests passed to the service by Playwright rather than sent by the page, so that
// the service's answer to each is awaited even after the page that asked has gone. A page that
// leaves cancels its requests in the browser, but one already sent is still taken by the
// service, at a moment the test does not know: a test that changes the service's world (its
// clock) behind a page first leaves the page, then waits for `answered()`. Each answer is read
// whole before the page gets it: not for a page with a live stream, whose answer never ends.
import type { Page, Route } from 'playwright-core';

export interface RelayedRequests {
  /** Resolves once the service has answered every request the page made so far. */
  answered(): Promise<void>;
  /** The page's requests go out on their own again. */
  stop(): Promise<void>;
}

export async function relayRequests(page: Page): Promise<RelayedRequests> {
  const inFlight = new Set<Promise<void>>();
  const relay = (route: Route): Promise<void> => {
    const passed = route.fetch().then(
      // The page may be gone by now: its request is then handled by nobody.
      (response) => route.fulfill({ response }).catch(() => undefined),
      () => route.abort().catch(() => undefined),
    );
    inFlight.add(passed);
    void passed.finally(() => inFlight.delete(passed));
    return passed;
  };
  await page.route('**/*', relay);
  return {
    async answered() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    stop: () => page.unroute('**/*', relay),
  };
}
