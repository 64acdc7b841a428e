// The API's documentation at /docs in a real browser: signing in comes first, the page opens
// with a description of the API, no framework logo, every group and operation of the document
// on the page, and nothing in the console (the content security policy refuses nothing the
// page needs), no accessibility finding of axe's, and a phone reading it at its own width.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations, describeViolations } from './axe.ts';
import { DESKTOP, newContext, PHONE } from './browser.ts';
import { withServiceAndBrowser } from './service-and-browser.ts';

interface OpenApiDocument {
  tags: { name: string }[];
  paths: Record<string, Record<string, { tags?: string[] }>>;
  info: { description: string };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** "GET /path" of every operation of the document. */
function operationsOf(openapi: OpenApiDocument): string[] {
  return Object.entries(openapi.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/**
 * The groups (in page order) and operations the page shows, read while scrolling from top to
 * bottom. Once groups and operations together reach 150, Swagger UI renders only the rows
 * near the viewport (a virtualised list, with another markup: no .opblock-tag-section), so
 * what is on the page at one time is not all there is; here every row passes through it.
 */
async function scrollThrough(page: Page): Promise<{ groups: string[]; operations: Set<string> }> {
  const groups: string[] = [];
  const operations = new Set<string>();
  await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
  for (;;) {
    // The rows a scroll brings in are rendered by the frame after it.
    await page.evaluate(
      () => new Promise((resolve) => (globalThis as any).requestAnimationFrame(() => (globalThis as any).requestAnimationFrame(resolve))),
    );
    const shownGroups = await page
      .locator('.opblock-tag')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-tag') ?? ''));
    const shownOperations = await page
      .locator('.opblock')
      .evaluateAll((elements) =>
        elements.map(
          (element) =>
            `${element.querySelector('.opblock-summary-method')?.textContent ?? ''} ${element.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`,
        ),
      );
    for (const group of shownGroups) if (!groups.includes(group)) groups.push(group);
    for (const operation of shownOperations) operations.add(operation);
    const atBottom = await page.evaluate(() => {
      const window = globalThis as any;
      if (window.scrollY + window.innerHeight >= window.document.documentElement.scrollHeight - 1) return true;
      window.scrollBy(0, window.innerHeight / 2);
      return false;
    });
    if (atBottom) break;
  }
  return { groups, operations };
}

describe('/docs in a browser', () => {
  const started = withServiceAndBrowser();
  let openapi: OpenApiDocument;
  before(async () => {
    openapi = (await (await fetch(`${started.service.url}/openapi.json`)).json()) as OpenApiDocument;
  });

  for (const [label, device] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`${label}: authentication first, a description, no logo, every group and operation, no console error, no axe finding`, async () => {
      const context = await newContext(started.browser, device);
      try {
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console: ${message.text()}`);
        });
        page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
        await page.goto(`${started.service.url}/docs`);
        await page.locator('.opblock-tag').first().waitFor();
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
        await page.locator('.opblock').first().waitFor();

        const shown = await scrollThrough(page);
        assert.deepEqual(
          shown.groups,
          openapi.tags.map((tag) => tag.name),
          'every group of the document, in its order, authentication first',
        );
        const missing = operationsOf(openapi).filter((operation) => !shown.operations.has(operation));
        assert.deepEqual(missing, [], 'every operation of the document is on the page');
        assert.deepEqual(problems, [], 'nothing in the console');
        // Not one finding of axe's, minor ones included, and on a phone nothing wider than the screen.
        const violations = await axeViolations(page);
        assert.equal(violations.length, 0, `axe:\n${describeViolations(violations)}`);
        const widths = await page.evaluate(() => [
          (globalThis as any).document.documentElement.scrollWidth,
          (globalThis as any).innerWidth,
        ]);
        assert.equal(widths[1], device.viewport?.width, 'laid out at the width of the screen');
        assert.ok(widths[0]! <= widths[1]!, `the page is ${widths[0]} px wide in a ${widths[1]} px window`);
      } finally {
        await context.close();
      }
    });
  }

  test('every tag an operation uses is declared, in the order /docs shows, authentication first', () => {
    const declared = openapi.tags.map((tag) => tag.name);
    assert.equal(declared[0], 'auth');
    for (const operations of Object.values(openapi.paths)) {
      for (const operation of Object.values(operations)) {
        for (const tag of operation.tags ?? []) assert.ok(declared.includes(tag), `tag "${tag}" is declared`);
      }
    }
    assert.match(openapi.info.description, /Authorization: Token/);
  });
});
