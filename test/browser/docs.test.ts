// The API's documentation at /docs in a real browser: signing in comes first, the page opens
// with a description of the API, no framework logo, and nothing in the console (the content
// security policy refuses nothing the page needs).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { DESKTOP, launchBrowser, newContext, PHONE } from './browser.ts';
import { type BrowserService, startBrowserService } from './harness.ts';

describe('/docs in a browser', () => {
  let service: BrowserService;
  let browser: Browser;
  before(async () => {
    [service, browser] = await Promise.all([startBrowserService(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  for (const [label, device] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`${label}: authentication first, a description, no logo, no console error`, async () => {
      const context = await newContext(browser, device);
      try {
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console: ${message.text()}`);
        });
        page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
        await page.goto(`${service.url}/docs`);
        const tags = page.locator('.opblock-tag-section .opblock-tag');
        await tags.first().waitFor();
        const names = await tags.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-tag')));
        assert.equal(names[0], 'auth', `the first group: ${names.join(', ')}`);
        const description = page.locator('.information-container .info .description');
        await description.waitFor();
        const text = await description.innerText();
        assert.match(text, /Authorization: Token <token>/);
        assert.match(text, /Errors/);
        assert.equal(await page.locator('.topbar').count(), 0, 'no top bar');
        const images = await page.locator('img').evaluateAll((elements) => elements.map((element) => element.getAttribute('src') ?? ''));
        assert.deepEqual(
          images.filter((src) => /swagger|^data:image\/svg/.test(src)),
          [],
          'no Swagger logo',
        );
        assert.equal(await page.locator('svg title', { hasText: /swagger/i }).count(), 0, 'no Swagger logo drawn inline');
        // Let anything the page does after its first paint show up in the console too.
        await page.locator('.opblock').first().waitFor();
        assert.deepEqual(problems, [], 'nothing in the console');
      } finally {
        await context.close();
      }
    });
  }

  test('every tag an operation uses is declared, in the order /docs shows, authentication first', async () => {
    const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as {
      tags: { name: string }[];
      paths: Record<string, Record<string, { tags?: string[] }>>;
      info: { description: string };
    };
    const declared = document.tags.map((tag) => tag.name);
    assert.equal(declared[0], 'auth');
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        for (const tag of operation.tags ?? []) assert.ok(declared.includes(tag), `tag "${tag}" is declared`);
      }
    }
    assert.match(document.info.description, /Authorization: Token/);
  });
});
