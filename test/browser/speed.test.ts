import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUpOver } from '../support/signup.js';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { startConsoleService, type ConsoleService } from './service.js';

/**
 * What makes the console quick to open (docs/console.md, "Speed"): its scripts leave the server
 * compressed, with the headers CloudFront sends on AWS, and pointing at a tab loads its page's code
 * before the click. How quick it is, `npm run bench -- console` measures; these check the behaviour.
 */

let service: ConsoleService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const requested: string[] = [];
const workspace = '/workspaces/ws-speed';

beforeAll(async () => {
  service = await startConsoleService();
  const cookie = await signUpOver(service.url, 'speed@example.com', 'Grace Hopper');
  const created = await fetch(`${service.url}/api/workspaces`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Speed' }),
  });
  expect(created.status).toBe(201);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const equals = cookie.indexOf('=');
  await context.addCookies([{ name: cookie.slice(0, equals), value: cookie.slice(equals + 1), url: service.url }]);
  page = await context.newPage();
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
});
afterEach(async (test) => {
  if (test.task.result?.state === 'fail') await saveFailure(page, test.task.name);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const at = (path: string) => `${service.url}${path}`;
const chunkOf = (name: string) => new RegExp(`^/assets/${name}-[A-Z0-9]+\\.js$`);
const requestsOf = (name: string) => requested.filter((path) => chunkOf(name).test(path));

describe("the console's scripts", () => {
  it('reach the browser compressed with Brotli, cached for a year, varying by Accept-Encoding', async () => {
    const entry = page.waitForResponse((response) => /\/assets\/main-[A-Z0-9]+\.js$/.test(response.url()));
    await page.goto(at('/workspaces'));
    const script = await entry;
    expect(await script.request().headerValue('accept-encoding')).toContain('br');
    const headers = await script.allHeaders();
    expect(headers['content-encoding']).toBe('br');
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(headers.vary).toBe('Accept-Encoding');
    await page.getByRole('row', { name: /Speed/ }).waitFor();
    await checkPage(page, 'speed-workspaces');
  });

  it('go gzipped to a client that takes only gzip, and as they are to one that takes neither', async () => {
    const script = (await page.locator('script[type="module"]').getAttribute('src')) ?? '';
    const ask = (encoding: string) => page.request.get(at(script), { headers: { 'accept-encoding': encoding } });
    const gzip = await ask('gzip');
    const identity = await ask('identity');
    expect(gzip.headers()['content-encoding']).toBe('gzip');
    expect(identity.headers()['content-encoding']).toBeUndefined();
    // The same script either way, the compressed one far smaller on the wire.
    expect(await gzip.text()).toBe(await identity.text());
    expect(Number(gzip.headers()['content-length'])).toBeLessThan(Number(identity.headers()['content-length']) / 2);
    for (const response of [gzip, identity]) {
      expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers().vary).toBe('Accept-Encoding');
    }
    // The page itself is revalidated on every visit: a new build is seen at once.
    const index = await page.request.get(at('/workspaces'), { headers: { 'accept-encoding': 'br' } });
    expect(index.headers()['cache-control']).toBe('no-cache');
    expect(index.headers().vary).toBe('Accept-Encoding');
  });
});

describe('opening a page', () => {
  /** The API requests (path and query) a fresh load of `path` makes until the network is quiet. */
  async function readsOf(path: string, heading: string): Promise<string[]> {
    const fresh = await context.newPage();
    const reads: string[] = [];
    fresh.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) reads.push(url.pathname + url.search);
    });
    await fresh.goto(at(path));
    await fresh.getByRole('heading', { level: 1, name: heading }).waitFor();
    await fresh.waitForLoadState('networkidle');
    await fresh.close();
    return reads;
  }
  const repeated = (reads: string[]) => reads.filter((read, index) => reads.indexOf(read) !== index);

  // The routes start a page's reads with the navigation (web/src/app/routes.tsx): to the page's own
  // keys, or the page would ask again.
  it('asks for each of its reads once', async () => {
    const list = await readsOf('/workspaces', 'Workspaces');
    expect(list).toEqual(expect.arrayContaining(['/api/auth/session', '/api/workspaces']));
    expect(repeated(list)).toEqual([]);
    const dashboard = await readsOf(`${workspace}/dashboard`, 'Dashboard');
    expect(dashboard).toEqual(expect.arrayContaining(['/api/auth/session', `/api${workspace}/summary`, `/api${workspace}/dashboard`]));
    expect(repeated(dashboard)).toEqual([]);
  });
});

describe("a workspace's tabs", () => {
  it("load a tab's page when it is pointed at, before the click", async () => {
    await page.goto(at(workspace));
    const tabs = page.getByRole('navigation', { name: 'Workspace' });
    await tabs.waitFor();
    expect(requestsOf('dashboard')).toEqual([]);
    const dashboardChunk = page.waitForRequest((request) => chunkOf('dashboard').test(new URL(request.url()).pathname));
    await tabs.getByRole('link', { name: 'Dashboard' }).hover();
    await dashboardChunk;
    // Asked for on the hover: the page has not changed yet.
    expect(page.url()).toBe(at(workspace));
    await tabs.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(requestsOf('dashboard')).toHaveLength(1);
    await checkPage(page, 'speed-dashboard');
  });

  it('load it on keyboard focus too', async () => {
    expect(requestsOf('conversations')).toEqual([]);
    const chunk = page.waitForRequest((request) => chunkOf('conversations').test(new URL(request.url()).pathname));
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Conversations' }).focus();
    await chunk;
    expect(page.url()).toBe(at(`${workspace}/dashboard`));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
    expect(requestsOf('conversations')).toHaveLength(1);
    await checkPage(page, 'speed-conversations');
  });
});
