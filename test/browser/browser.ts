/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser: its globals are the DOM's.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Where Chromium is: CHROMIUM_PATH, or Debian's package. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** The two widths every page must work at. */
const WIDE = { width: 1280, height: 860 };
const NARROW = { width: 390, height: 844 };

const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'console');
// Evaluated through the DevTools protocol, which the console's CSP (no inline scripts) does not stop.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's violations of serious or critical impact on the page as it is now, described for a failure message. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * Checks the page at 1280 and 390 px: no axe-core violation of serious or critical impact, nothing
 * wider than the screen at 390 px (wide tables scroll inside their own region), and saves a
 * screenshot of each width under test-results/console/ (ignored by git).
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const size of [WIDE, NARROW]) {
    await page.setViewportSize(size);
    // Charts and tables lay themselves out again after a resize: wait until nothing is wider than the screen.
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await expect.poll(overflow, { message: `${name} is wider than the screen at ${size.width} px` }).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), `${name} at ${size.width} px`).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDE);
}

/** A screenshot of the page as a test failed: test-results/console/failed-<test>.png. */
export async function saveFailure(page: Page, test: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const name = test.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  await page.screenshot({ path: join(SCREENSHOTS, `failed-${name}.png`), fullPage: true }).catch(() => {});
}
