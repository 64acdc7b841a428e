// The service and a browser, started together for a file of browser tests and closed together:
// the browser, then the service — whichever of them started, also when the other did not.
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { type BrowserService, startBrowserService } from './harness.ts';

export interface ServiceAndBrowser {
  readonly service: BrowserService;
  readonly browser: Browser;
}

/**
 * Both at once, with startBrowserService's arguments. When one fails, the other is closed
 * before the failure is thrown: nobody else holds it to close it.
 */
export async function startServiceAndBrowser(
  env: Record<string, string> = {},
  host = '127.0.0.1',
  fixedPort?: number,
): Promise<ServiceAndBrowser> {
  const [service, browser] = await Promise.allSettled([startBrowserService(env, host, fixedPort), launchBrowser()]);
  if (service.status === 'rejected') {
    if (browser.status === 'fulfilled') await browser.value.close();
    throw service.reason;
  }
  if (browser.status === 'rejected') {
    await service.value.close();
    throw browser.reason;
  }
  return { service: service.value, browser: browser.value };
}

/**
 * Registers hooks on the current describe: before its tests, startServiceAndBrowser(env, host);
 * after them, both closed. The returned object's `service` and `browser` are read in tests.
 */
export function withServiceAndBrowser(env: Record<string, string> = {}, host = '127.0.0.1'): ServiceAndBrowser {
  let started: ServiceAndBrowser | undefined;
  before(async () => {
    started = await startServiceAndBrowser(env, host);
  });
  after(async () => {
    try {
      await started?.browser.close();
    } finally {
      await started?.service.close();
    }
  });
  const running = (): ServiceAndBrowser => {
    if (!started) throw new Error('the service and the browser start in before(): read them in a test or a later hook');
    return started;
  };
  return {
    get service() {
      return running().service;
    },
    get browser() {
      return running().browser;
    },
  };
}
