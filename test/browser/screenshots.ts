// Screenshots of the web client's main pages for docs/web-client.md, taken along the same flow as the
// browser tests (so a page that fails them is not pictured):
//   npx node --import tsx test/browser/screenshots.ts [folder, default docs/screenshots]
import { resolve } from 'node:path';
import { DESKTOP, PHONE, newContext } from './browser.ts';
import { createLink, makeOwner, signInToLinks, unlockWithPin } from './emergency-flow.ts';
import { Flow } from './flow.ts';
import type { BrowserService } from './harness.ts';
import { mainFlow, type Person } from './person-flow.ts';
import { startServiceAndBrowser } from './service-and-browser.ts';

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

/** An emergency link's printable card, made on a desktop, and the page it opens on a phone. */
async function emergencyLink(service: BrowserService): Promise<void> {
  const owner = await makeOwner(service, 'screenshots');
  const desktop = await newContext(browser, DESKTOP);
  const phone = await newContext(browser, PHONE);
  try {
    const flow = new Flow(await desktop.newPage(), { label: 'desktop', screenshotDir: dir, screenshots: ['emergency-link-card'] });
    await signInToLinks(flow, service, owner);
    const { link } = await createLink(flow, service, owner, { label: 'Wallet card', pin: '2468', pinHint: 'My sister Grace knows it.' });
    await flow.checkAccessible('emergency links, the new card', 'emergency-link-card');
    const stranger = new Flow(await phone.newPage(), {
      label: 'phone',
      phone: true,
      screenshotDir: dir,
      screenshots: ['public-emergency'],
      screenshotPrefix: 'phone-',
    });
    await stranger.page.goto(link);
    await unlockWithPin(stranger, owner, '2468', '1357');
    console.log(`emergency link: emergency-link-card.png, phone-public-emergency.png in ${dir}`);
  } finally {
    await desktop.close();
    await phone.close();
  }
}

const { service, browser } = await startServiceAndBrowser();
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
  await emergencyLink(service);
} finally {
  await browser.close();
  await service.close();
}
