// Accessibility checks with axe-core, run inside the page as it is. The source goes in through
// DevTools' evaluate, which the pages' Content-Security-Policy does not block (a <script> tag
// would be), so the page is checked under its real headers.
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(join(dirname(require.resolve('axe-core')), 'axe.min.js'), 'utf8');

type Impact = 'minor' | 'moderate' | 'serious' | 'critical' | null;

export interface AxeViolation {
  id: string;
  impact: Impact;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[]; html: string; failureSummary?: string }>;
}

const BLOCKING: Impact[] = ['serious', 'critical'];

/** Every violation axe finds on the page as it is now (WCAG 2.2 A and AA, and axe's best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(`${axeSource};0`);
  return page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const results = await axe.run((globalThis as any).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return results.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n: any) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
    }));
  });
}

/** A readable list of violations: rule, impact, what it asks, and where. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `      at ${JSON.stringify(n.target)}: ${n.html.slice(0, 160)}\n        ${(n.failureSummary ?? '').replace(/\n\s*/g, ' ')}`,
        )
        .join('\n');
      const more = v.nodes.length > 5 ? `\n      … and ${v.nodes.length - 5} more` : '';
      return `  - ${v.id} (${v.impact}): ${v.help} — ${v.helpUrl}\n${nodes}${more}`;
    })
    .join('\n');
}

/**
 * Runs axe on the page and fails with the list of serious and critical violations, if any.
 * `name` says which page, in the failure and in the AXE_REPORT file (JSON lines of every
 * violation of every impact, when that variable names a file).
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const violations = await axeViolations(page);
  if (process.env.AXE_REPORT) {
    const summary = violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    appendFileSync(process.env.AXE_REPORT, JSON.stringify({ page: name, url: page.url(), violations: summary }) + '\n');
  }
  const blocking = violations.filter((v) => BLOCKING.includes(v.impact));
  if (blocking.length > 0) {
    throw new Error(
      `axe: ${blocking.length} serious or critical accessibility violation(s) on ${name} (${page.url()}):\n${describeViolations(blocking)}`,
    );
  }
}
