/// <reference lib="dom" />
// The functions given to page.evaluate and waitForFunction run in the browser: their globals are the DOM's.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from '../test/browser/browser.js';
import { startFakeModel, textReply } from '../test/support/fake-model.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import { apiOf, percentileOf, type Row } from './report.js';

/**
 * The console's speed as a person meets it: `npm start` in a process of its own with its defaults
 * (INFO logs, the embedded store on disk, the built console compressed), Chromium on loopback.
 * For each page, the time from the start of the navigation to its first meaningful content (its
 * heading shown and no loading line left: the page's data is on screen), in a new browser context
 * (cold: empty cache) and again in the same one (warm: the scripts cached), and the bytes a cold
 * load transferred (HTTP bodies and headers, as Resource Timing's `transferSize` counts them).
 */

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 15);

interface Target {
  page: string;
  path: string;
  /** The page's heading: shown with its data, the page is there. */
  title: string;
}

interface Load {
  ms: number;
  bytes: { total: number; assets: number; api: number };
}

declare global {
  interface Window {
    meaningfulAt?: number;
  }
}

/**
 * Installed before any of the page's scripts: on every frame, until the page's heading (its title in
 * `titles` by the path's last segment) is shown with no loading line anywhere, then the time since the
 * navigation started, in `window.meaningfulAt`. Source text, not a function: tsx names nested
 * functions with a helper that the page does not have.
 */
const watchForContent = (titles: Record<string, string>) => `{
  const titles = ${JSON.stringify(titles)};
  const title = titles[location.pathname.split('/').pop()];
  const check = () => {
    const heading = document.querySelector('main h1')?.textContent?.trim();
    if (heading === title && !document.querySelector('.state-loading')) window.meaningfulAt = performance.now();
    else requestAnimationFrame(check);
  };
  if (title) requestAnimationFrame(check);
}`;

/** What the navigation and every request after it transferred, by kind. */
function transferred(): Load['bytes'] {
  const entries = [
    ...performance.getEntriesByType('navigation'),
    ...performance.getEntriesByType('resource'),
  ] as PerformanceResourceTiming[];
  const bytes = { total: 0, assets: 0, api: 0 };
  for (const entry of entries) {
    const path = new URL(entry.name).pathname;
    bytes.total += entry.transferSize;
    if (path.startsWith('/assets/')) bytes.assets += entry.transferSize;
    if (path.startsWith('/api/')) bytes.api += entry.transferSize;
  }
  return bytes;
}

async function load(context: BrowserContext, url: string): Promise<Load> {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url, { waitUntil: 'commit' });
  const shown = await page
    .waitForFunction(() => window.meaningfulAt, undefined, { timeout: 30_000 })
    .catch(async (error: unknown) => {
      const state = await page.evaluate(() => [
        document.querySelector('main h1')?.outerHTML,
        document.querySelector('.state-loading')?.outerHTML,
        window.meaningfulAt,
      ]);
      throw new Error(`${url} showed no content: ${JSON.stringify(state)}`, { cause: error });
    });
  const ms = Number(await shown.jsonValue());
  // What is still on its way (a stylesheet's font, a late query) is counted once it has arrived.
  await page.waitForLoadState('networkidle');
  return { ms, bytes: await page.evaluate(transferred) };
}

async function newContext(browser: Browser, url: string, cookie: string, titles: Record<string, string>): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const equals = cookie.indexOf('=');
  await context.addCookies([{ name: cookie.slice(0, equals), value: cookie.slice(equals + 1), url }]);
  await context.addInitScript({ content: watchForContent(titles) });
  return context;
}

/** A page's row: the times' percentiles, and what a cold and a warm load transferred (medians, KB). */
function summarise(page: string, colds: Load[], warms: Load[]): Row {
  const ms = (samples: Load[], p: number) => Math.round(percentileOf(samples, (sample) => sample.ms, p));
  const kb = (samples: Load[], pick: (bytes: Load['bytes']) => number) =>
    Math.round(percentileOf(samples, (sample) => pick(sample.bytes), 50) / 102.4) / 10;
  return {
    page,
    runs: colds.length,
    cold_p50_ms: ms(colds, 50),
    cold_p95_ms: ms(colds, 95),
    warm_p50_ms: ms(warms, 50),
    warm_p95_ms: ms(warms, 95),
    first_load_kb: kb(colds, (bytes) => bytes.total),
    scripts_css_kb: kb(colds, (bytes) => bytes.assets),
    api_kb: kb(colds, (bytes) => bytes.api),
    warm_kb: kb(warms, (bytes) => bytes.total),
    // The machine's own load as it ran: other work on the same cores slows every figure.
    load_1m: Math.round((loadavg()[0] ?? 0) * 10) / 10,
  };
}

/** How many turns the long chat opened from the history has. */
const LONG_CHAT_TURNS = 50;

/**
 * Signs up, makes a workspace and asks it a few questions, so the pages have something to show,
 * and one chat of `LONG_CHAT_TURNS` questions and answers.
 */
async function prepare(url: string): Promise<{ cookie: string; workspace: string; longChat: string }> {
  const cookie = await signUpOver(url, 'bench-console@example.com');
  const { call } = apiOf(url, cookie);
  const workspace = String((await call('POST', '/api/workspaces', { name: 'Bench console' })).id);
  for (let index = 0; index < 5; index += 1) await call('POST', `/api/workspaces/${workspace}/query`, { query: `Question ${index}?` });
  const longChat = `bench-long-chat`;
  for (let index = 0; index < LONG_CHAT_TURNS; index += 1) {
    await call('POST', `/api/workspaces/${workspace}/query`, { query: `Turn ${index}: where is order ${index}?`, session_id: longChat });
  }
  return { cookie, workspace, longChat };
}

export async function benchConsole(): Promise<Row[]> {
  const model = await startFakeModel();
  model.handle(() => ({ ...textReply('Here is what I found, in a few pieces.'), chunkDelayMs: 20 }));
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-console-bench-'));
  const service = startRuntimeProcess({ DATA_DIR: dataDir, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'bench' });
  let browser: Browser | undefined;
  try {
    const url = await service.url;
    const { cookie, workspace, longChat } = await prepare(url);
    // The chat is there once its question box is, with the turns of the chat opened (no loading line).
    const chat = 'Chat with Bench console';
    const targets: Target[] = [
      { page: 'workspaces list', path: '/workspaces', title: 'Workspaces' },
      { page: 'dashboard', path: `/workspaces/${workspace}/dashboard`, title: 'Dashboard' },
      { page: 'chat home', path: `/chat/${workspace}`, title: chat },
      { page: `chat of ${LONG_CHAT_TURNS} turns`, path: `/chat/${workspace}/c/${longChat}`, title: chat },
    ];
    const titles = Object.fromEntries(targets.map((target) => [target.path.split('/').pop() ?? '', target.title]));
    browser = await launchBrowser();
    const opened = browser;
    const cold = async (path: string) => {
      const context = await newContext(opened, url, cookie, titles);
      try {
        // The tab is on the service's origin first (its /health: nothing cached that the page uses), so
        // Chromium's start of a renderer process for the site is not counted as the console's.
        await (await context.newPage()).goto(`${url}/health`);
        return await load(context, `${url}${path}`);
      } finally {
        await context.close();
      }
    };
    // The service's and the browser's first requests warm them up (JIT, the store's files).
    for (const target of targets) await cold(target.path);
    const rows: Row[] = [];
    for (const target of targets) {
      const colds: Load[] = [];
      for (let run = 0; run < RUNS; run += 1) colds.push(await cold(target.path));
      const context = await newContext(opened, url, cookie, titles);
      const warms: Load[] = [];
      await load(context, `${url}${target.path}`);
      for (let run = 0; run < RUNS; run += 1) warms.push(await load(context, `${url}${target.path}`));
      await context.close();
      rows.push(summarise(target.page, colds, warms));
    }
    rows.push(await firstTextOnScreen(opened, url, cookie, titles, workspace, model));
    return rows;
  } finally {
    await browser?.close();
    await service.stop();
    await model.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * How long after the model's first piece of text that text is on screen in the chat: the fake
 * model's write of it (its `firstTextAt`, in this process) to the first frame that shows it in the
 * answer being written (polled on every frame), both as wall-clock times of this machine
 * (`performance.timeOrigin + performance.now()` in each process). The goal: at most 50 ms.
 */
async function firstTextOnScreen(
  browser: Browser,
  url: string,
  cookie: string,
  titles: Record<string, string>,
  workspace: string,
  model: Awaited<ReturnType<typeof startFakeModel>>,
): Promise<Row> {
  const context = await newContext(browser, url, cookie, titles);
  const page = await context.newPage();
  const gaps: number[] = [];
  try {
    for (let run = 0; run <= RUNS; run += 1) {
      await page.goto(`${url}/chat/${workspace}`);
      await page.getByLabel('Question').waitFor();
      const before = model.requests.length;
      await page.getByLabel('Question').fill(`Where is order ${run}?`);
      const shown = page.waitForFunction(
        () =>
          document.querySelector('.bubble.assistant[aria-busy="true"]')?.textContent?.includes('Here is') &&
          performance.timeOrigin + performance.now(),
        undefined,
        { polling: 'raf', timeout: 30_000 },
      );
      await page.getByLabel('Question').press('Enter');
      const onScreen = Number(await (await shown).jsonValue());
      await page.locator('.bubble.assistant:not([aria-busy])').waitFor();
      const request = model.requests.slice(before).find((candidate) => candidate.firstTextAt !== undefined);
      // The first run warms the page's chunks and the service's paths: not counted.
      if (run > 0 && request?.firstTextAt !== undefined) gaps.push(onScreen - (performance.timeOrigin + request.firstTextAt));
    }
  } finally {
    await context.close();
  }
  const ms = (p: number) => Math.round(percentileOf(gaps, (gap) => gap, p) * 10) / 10;
  return { page: 'chat: first text on screen after the model’s', runs: gaps.length, gap_p50_ms: ms(50), gap_p95_ms: ms(95) };
}
