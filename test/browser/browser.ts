// Debian's Chromium driven by playwright-core (no downloaded browser): one browser per test
// process, a fresh context (cookies, storage, viewport) per flow.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

/** Where Chromium is: CHROMIUM_PATH, or Debian's package (`.ci/run` installs it when missing). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The longest any single wait may take (an element to appear, a page to load, an e-mail to
 * arrive). Only an upper bound for a failure to be reported: every wait ends as soon as its
 * condition holds, and the machine may be busy.
 */
export const WAIT_MS = Number(process.env.BROWSER_WAIT_MS ?? 60_000);

/** A phone (an iPhone SE's screen): what the suite runs the main flow at a second time. */
export const PHONE: BrowserContextOptions = { viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

// async: no Chromium rejects, as a failed launch does, instead of throwing at the call.
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newContext(browser: Browser, options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext({ ...options, locale: 'en-GB', timezoneId: 'UTC', reducedMotion: 'reduce' });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  return context;
}
