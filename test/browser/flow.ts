// A person's way through the web client as named steps. A step that fails says which step,
// where the browser was, what the page said, the API's error answers and the page's own
// errors, and leaves a screenshot of the moment; every wait is on a condition.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';

export interface FlowOptions {
  /** Says which run this is in failures and file names ("desktop", "phone"). */
  label: string;
  /** A phone: taps instead of clicks, and no page may scroll sideways. */
  phone?: boolean;
  /** Where to save a PNG of each page given a screenshot name (unset: none). */
  screenshotDir?: string;
  /** Only these screenshots (unset: every one), saved as `<prefix><name>.png`. */
  screenshots?: string[];
  screenshotPrefix?: string;
}

export class Flow {
  readonly page: Page;
  readonly options: FlowOptions;
  /** Uncaught exceptions and console errors of the page. */
  readonly pageErrors: string[] = [];
  /** The last API answers with a status ≥ 400, with their bodies. */
  readonly errorAnswers: string[] = [];

  constructor(page: Page, options: FlowOptions) {
    this.page = page;
    this.options = options;
    page.on('pageerror', (error) => this.pageErrors.push(`uncaught: ${error.message}`));
    page.on('console', (message) => {
      // Chromium logs every 4xx answer as an error; those the flow expects are its own business.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        this.pageErrors.push(`console: ${message.text()}`);
    });
    page.on('response', async (response) => {
      if (response.status() < 400) return;
      const body = await response.text().catch(() => '');
      this.errorAnswers.push(`${response.request().method()} ${response.url()} → ${response.status()} ${body.slice(0, 300)}`);
      this.errorAnswers.splice(0, this.errorAnswers.length - 10);
    });
  }

  /** Runs one step; its failure names the step and shows the page. */
  async step<T>(name: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw new Error(await this.#describeFailure(name, error), { cause: error });
    }
  }

  async #describeFailure(step: string, error: unknown): Promise<string> {
    const page = this.page;
    const message = error instanceof Error ? error.message : String(error);
    const text = await page
      .locator('body')
      .innerText({ timeout: 2000 })
      .catch(() => '(the page has no readable text)');
    let shot = '(none)';
    try {
      const dir = mkdtempSync(join(tmpdir(), 'browser-failure-'));
      shot = join(dir, `${this.options.label}.png`);
      await page.screenshot({ path: shot, fullPage: true, timeout: 5000 });
    } catch {
      shot = '(could not be taken)';
    }
    const indent = (lines: string) => lines.replace(/^/gm, '    ');
    return [
      `[${this.options.label}] step "${step}" failed`,
      `  page: ${page.url()}`,
      `  error:\n${indent(message.split('\n').slice(0, 12).join('\n'))}`,
      `  API answers ≥ 400 (latest last):\n${indent(this.errorAnswers.join('\n') || '(none)')}`,
      `  page errors:\n${indent(this.pageErrors.join('\n') || '(none)')}`,
      `  page text:\n${indent(text.trim().slice(0, 2500) || '(empty)')}`,
      `  screenshot: ${shot}`,
    ].join('\n');
  }

  /** The page's one <h1>, once it reads `title`. */
  heading(title: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 1, name: title, exact: typeof title === 'string' });
  }

  /**
   * Waits for the page whose <h1> is `title`, checks it with axe (no serious or critical
   * violation), and saves a screenshot named `shot` when screenshots are on.
   */
  async arrive(title: string | RegExp, name: string, shot?: string): Promise<void> {
    await visible(this.heading(title), `the heading "${title}"`);
    await this.checkAccessible(name, shot);
  }

  /** Checks the page as it is now with axe (and, on a phone, that it fits the screen's width). */
  async checkAccessible(name: string, shot?: string): Promise<void> {
    await expectAccessible(this.page, `${name} [${this.options.label}]`);
    if (this.options.phone) await fitsWidth(this.page, name);
    if (shot) await this.screenshot(shot);
  }

  /** Clicks, or taps on a phone. */
  async press(target: Locator): Promise<void> {
    if (this.options.phone) await target.tap();
    else await target.click();
  }

  async screenshot(name: string): Promise<void> {
    const { screenshotDir: dir, screenshots, screenshotPrefix = '' } = this.options;
    if (!dir || (screenshots && !screenshots.includes(name))) return;
    mkdirSync(dir, { recursive: true });
    await imagesLoaded(this.page);
    // A phone's picture is one screenful, as a person holding it sees the page.
    await this.page.screenshot({
      path: join(dir, `${screenshotPrefix}${name}.png`),
      fullPage: !this.options.phone,
      animations: 'disabled',
      caret: 'hide',
    });
  }
}

// Run in the page as source text: tsx would wrap a named function of ours in a helper the page lacks.
const MEASURE_WIDTH = `(() => {
  const root = document.documentElement;
  const overflows = (el) => el.getBoundingClientRect().right > root.clientWidth + 0.5 || el.scrollWidth > el.clientWidth + 1;
  const all = Array.from(document.querySelectorAll('body *')).filter(overflows);
  // The innermost of them: what to fix.
  const wide = all
    .filter((el) => !all.some((other) => other !== el && el.contains(other)))
    .slice(0, 5)
    .map((el) => '<' + el.tagName.toLowerCase() + '> "' + (el.textContent || '').trim().slice(0, 80) + '"');
  return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
})()`;

/** Fails when the page is wider than the screen (a phone would scroll it sideways). */
async function fitsWidth(page: Page, name: string): Promise<void> {
  const { scrollWidth, clientWidth, wide } = (await page.evaluate(MEASURE_WIDTH)) as {
    scrollWidth: number;
    clientWidth: number;
    wide: string[];
  };
  if (scrollWidth > clientWidth) {
    throw new Error(`${name} is ${scrollWidth} px wide on a ${clientWidth} px screen: it scrolls sideways; too wide: ${wide.join(', ')}`);
  }
}

/** Waits until `locator` is visible; the failure says what was awaited. */
export async function visible(locator: Locator, what: string): Promise<Locator> {
  try {
    await locator.waitFor({ state: 'visible' });
  } catch (error) {
    throw new Error(`waited for ${what} to be visible: ${(error as Error).message.split('\n')[0]}`);
  }
  return locator;
}

/** Waits until the <img> of `locator` has loaded a real picture (naturalWidth > 0). */
export async function pictureLoaded(page: Page, image: Locator, what: string): Promise<number> {
  await visible(image, what);
  // A lazy <img> (loading="lazy") loads only once it is near the screen.
  await image.scrollIntoViewIfNeeded();
  const handle = await image.elementHandle();
  try {
    const width = await page.waitForFunction((img: any) => img.complete && img.naturalWidth > 0 && img.naturalWidth, handle);
    return (await width.jsonValue()) as number;
  } catch (error) {
    const src = await image.getAttribute('src').catch(() => null);
    throw new Error(`${what} never loaded a picture (src ${src}): ${(error as Error).message.split('\n')[0]}`);
  } finally {
    await handle?.dispose();
  }
}

/** Waits until every <img> of the page has loaded (lazy ones scrolled to first), for screenshots. */
async function imagesLoaded(page: Page): Promise<void> {
  for (const image of await page.locator('img').all()) await pictureLoaded(page, image, 'a picture on the page');
  await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
}

/** Waits until the page's path (and query) is `path`. */
export async function atPath(page: Page, path: string | RegExp): Promise<void> {
  const matches = (url: URL) => (typeof path === 'string' ? url.pathname === path : path.test(url.pathname + url.search));
  try {
    await page.waitForURL(matches);
  } catch (error) {
    throw new Error(`waited to be at ${path}, still at ${page.url()}: ${(error as Error).message.split('\n')[0]}`);
  }
}
