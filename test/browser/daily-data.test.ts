import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { startConsoleService, type ConsoleService } from './service.js';

/**
 * What an admin reaches for every day: a stdio connection's tools shown once it is saved, and
 * refreshed; conversations titled by their first question, searched and filtered by consumer;
 * consumers with a name, when they were last used, and a usage example with the key itself.
 */

let service: ConsoleService;
let browser: Browser;
let page: Page;
const workspace = '/workspaces/ws-daily';
const at = (path: string) => `${service.url}${path}`;

beforeAll(async () => {
  service = await startConsoleService();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(at('/signup'));
  await page.getByLabel('Your name').fill('Grace Hopper');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Password').fill('compiler pioneer');
  await page.getByLabel('Organisation name').fill('Daily');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
  const created = await page.evaluate(async () => {
    const response = await fetch('/api/workspaces', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Daily' }),
    });
    return response.status;
  });
  expect(created).toBe(201);
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await saveFailure(page, context.task.name);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** Asks the workspace with a consumer's key, as a program would (not through the console). */
async function askWithKey(key: string, query: string): Promise<void> {
  const response = await fetch(at(`/api/workspaces/ws-daily/query`), {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  await response.arrayBuffer();
}

describe('a connection', () => {
  it('shows the tools of a stdio server as soon as it is saved, with no question asked', async () => {
    await page.goto(at(`${workspace}/connections`));
    await page.getByRole('button', { name: 'Add a connection' }).click();
    const form = page.getByRole('form', { name: 'Add a connection' });
    await form.getByLabel('Name').fill('Orders');
    await form.getByLabel('Transport').selectOption({ label: 'stdio: a server the service runs' });
    await form.getByLabel('Server').selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Save connection' }).click();
    const card = page.getByRole('article', { name: 'Orders' });
    const tools = card.getByRole('table', { name: 'Tools of Orders' });
    await tools.waitFor();
    expect(await tools.getByRole('row', { name: /lookup_order/ }).count()).toBe(1);
    // The bundled server takes no credentials: there is nothing to edit.
    expect(await card.getByRole('button', { name: 'Edit credentials of Orders' }).count()).toBe(0);
    await checkPage(page, 'daily-connection-saved');
  });

  it('refreshes the tools and says how many it found', async () => {
    const card = page.getByRole('article', { name: 'Orders' });
    await card.getByRole('button', { name: 'Refresh tools of Orders' }).click();
    await page
      .getByRole('status')
      .getByText(/Refreshed the tools of "Orders": \d+ tools?\./)
      .waitFor();
    await card.getByRole('table', { name: 'Tools of Orders' }).waitFor();
    await checkPage(page, 'daily-connection-refreshed');
  });
});

describe('consumers and their conversations', () => {
  const keys: Record<string, string> = {};

  async function connect(name: string): Promise<string> {
    await page.getByRole('button', { name: 'Connect a consumer' }).click();
    const form = page.getByRole('form', { name: 'Connect a consumer' });
    await form.getByLabel('Type').selectOption('api');
    await form.getByLabel('Name (optional)').fill(name);
    await form.getByRole('button', { name: 'Connect consumer' }).click();
    const key = String(await page.locator('.secret-once code').textContent());
    expect(key).toMatch(/^wap_api_/);
    // The example to copy carries the key itself, not a placeholder.
    const example = String(await page.getByRole('region', { name: 'Consumer connected' }).locator('pre').textContent());
    expect(example).toContain(`Bearer ${key}`);
    expect(example).not.toContain('<key>');
    return key;
  }

  it('connects named consumers, the usage example showing the key', async () => {
    await page.goto(at(`${workspace}/consumers`));
    await page.getByRole('heading', { level: 1, name: 'Consumers' }).waitFor();
    keys.site = await connect('Support site');
    await checkPage(page, 'daily-consumer-key');
    await page.getByRole('button', { name: 'Done' }).click();
    keys.ci = await connect('Nightly CI');
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('shows each consumer by name, and when it was last used', async () => {
    await askWithKey(keys.site ?? '', 'Where is my order 42?');
    await askWithKey(keys.ci ?? '', 'Run the nightly refund check');
    await page.reload();
    const table = page.getByRole('table', { name: 'Consumers' });
    const site = table.getByRole('row', { name: /Support site/ });
    await site.waitFor();
    expect(await site.textContent()).not.toContain('Never');
    expect(await site.textContent()).toMatch(/\d{4}|\d:\d\d/);
    await checkPage(page, 'daily-consumers');
  });

  it('lists conversations by their first question; a search narrows them, and so does a consumer', async () => {
    await page.goto(at(`${workspace}/conversations`));
    const table = page.getByRole('table', { name: 'Conversations' });
    await table.getByRole('link', { name: /Where is my order 42\?/ }).waitFor();
    await table.getByRole('link', { name: /Run the nightly refund check/ }).waitFor();
    await checkPage(page, 'daily-conversations');

    await page.getByRole('search', { name: 'Search conversations' }).getByLabel('Search', { exact: true }).fill('ORDER 42');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(await table.textContent()).toContain('Where is my order 42?');
    expect(page.url()).toContain('q=ORDER+42');
    await checkPage(page, 'daily-conversations-search');

    await page.goto(at(`${workspace}/conversations`));
    await page.getByLabel('Started by consumer').selectOption({ label: 'Nightly CI (API)' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(await table.textContent()).toContain('Run the nightly refund check');
    await checkPage(page, 'daily-conversations-consumer');
  });
});
