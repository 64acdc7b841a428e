// The axe check the browser flows rely on can fail: on a page with known serious and critical
// violations it throws, naming each rule and element; on a clean page it passes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { DESKTOP, launchBrowser, newContext } from './browser.ts';

let browser: Browser;
let page: Page;
before(async () => {
  browser = await launchBrowser();
  page = await (await newContext(browser, DESKTOP)).newPage();
});
after(() => browser?.close());

const PAGE = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Test</title></head><body><main><h1>Test</h1>${body}</main></body></html>`;

test('a page with an unlabelled input, an image without text and unreadable text fails, each violation named', async () => {
  await page.setContent(
    PAGE(`<form><input type="text" name="email"></form>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <p style="color:#bbb;background:#fff">Hard to read</p>`),
  );
  const error = await expectAccessible(page, 'the broken page').then(
    () => assert.fail('expected axe to find violations'),
    (caught: Error) => caught,
  );
  assert.match(error.message, /serious or critical accessibility violation\(s\) on the broken page/);
  for (const rule of ['label', 'image-alt', 'color-contrast'])
    assert.match(error.message, new RegExp(`- ${rule} \\((serious|critical)\\)`));
  assert.match(error.message, /<input type="text" name="email">/, 'the failure shows the element');
});

test('the same page done right passes', async () => {
  await page.setContent(
    PAGE(`<form><label for="e">E-mail</label><input id="e" type="text" name="email"></form>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="A dot">
      <p style="color:#333;background:#fff">Easy to read</p>`),
  );
  await expectAccessible(page, 'the fixed page');
});
