// Screenshots of the web client's main pages for the README, taken along the same flow as the
// browser tests (so a page that fails them is not pictured):
//   npx node --import tsx test/browser/screenshots.ts [folder, default docs/screenshots]
import { resolve } from 'node:path';
import { DESKTOP, PHONE, launchBrowser, newContext } from './browser.ts';
import { Flow } from './flow.ts';
import { startBrowserService } from './harness.ts';
import { mainFlow, type Person } from './person-flow.ts';

const dir = resolve(process.argv[2] ?? 'docs/screenshots');
const passwords: Person['passwords'] = ['violet-lantern-47-quarry', 'amber-harbour-82-willow', 'copper-meadow-15-falcon'];
const runs = [
  {
    label: 'desktop',
    context: DESKTOP,
    person: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', passwords },
    screenshots: ['sign-in', 'your-data', 'profile', 'topic', 'gallery', 'emergency', 'account'],
    prefix: '',
  },
  {
    label: 'phone',
    context: PHONE,
    person: { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', passwords },
    screenshots: ['topic'],
    prefix: 'phone-',
  },
];

const [service, browser] = await Promise.all([startBrowserService(), launchBrowser()]);
try {
  for (const run of runs) {
    const context = await newContext(browser, run.context);
    const flow = new Flow(await context.newPage(), {
      label: run.label,
      phone: run.context === PHONE,
      screenshotDir: dir,
      screenshots: run.screenshots,
      screenshotPrefix: run.prefix,
    });
    await mainFlow(flow, service, run.person);
    await context.close();
    console.log(`${run.label}: ${run.screenshots.map((name) => `${run.prefix}${name}.png`).join(', ')} in ${dir}`);
  }
} finally {
  await browser.close();
  await service.close();
}
