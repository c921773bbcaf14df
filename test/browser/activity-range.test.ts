import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activityEntryKey } from '../../shared/workspaces/entities.js';
import { dayUsageKey } from '../../shared/workspaces/usage-entities.js';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { startConsoleService, type ConsoleService } from './service.js';

/**
 * The dashboard over chosen days, and the audit log filtered and downloaded as CSV (issue 33).
 * The service runs on the real clock: the days are counted back from today (UTC).
 */

let service: ConsoleService;
let browser: Browser;
let page: Page;
let workspaceId: string;
const at = (path: string) => `${service.url}${path}`;
const dayBefore = (count: number) => new Date(service.runtime.deps.clock.now().getTime() - count * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  service = await startConsoleService();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  await page.goto(at('/signup'));
  await page.getByLabel('Your name').fill('Grace Hopper');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Password').fill('compiler pioneer');
  await page.getByLabel('Organisation name').fill('Ranges');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
  const { orgId, id } = await page.evaluate(async () => {
    const session = await (await fetch('/api/auth/session')).json();
    const created = await fetch('/api/workspaces', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ranges' }),
    });
    return { orgId: session.user.org_id as string, id: (await created.json()).id as string };
  });
  workspaceId = id;
  // What queries leave behind (shared/agent/query/persist.ts): day counters, and audit entries.
  const table = service.runtime.deps.table;
  const day = (daysAgo: number, queries: number) => ({
    ...dayUsageKey(orgId, 0, dayBefore(daysAgo), id),
    workspace_id: id,
    queries,
    cost_usd: queries / 100,
  });
  await table.batchPut([day(0, 2), day(20, 9)]);
  const entry = (minutesAgo: number, entryId: string, query: string, tools: string[], error: string | null) => {
    const created = new Date(service.runtime.deps.clock.now().getTime() - minutesAgo * 60_000).toISOString();
    return {
      ...activityEntryKey(orgId, id, created, entryId),
      id: entryId,
      user_id: 'someone',
      user_name: 'Ada',
      query,
      tools_called: tools,
      connections_hit: [],
      tokens_input: 10,
      tokens_output: 5,
      cost_usd: 0.001,
      duration_ms: 90,
      error,
      approvals: [],
      created_at: created,
    };
  };
  await table.batchPut([
    entry(30, 'act-1', 'Where is order 42?', ['lookup_order'], null),
    entry(20, 'act-2', '=Refund order 7, please', ['refund_order'], 'tool refund_order timed out'),
    entry(10, 'act-3', 'Hello there', [], null),
  ]);
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await saveFailure(page, context.task.name);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** The days of the usage chart's table (for screen readers) and the queries in them, as the reader hears them. */
async function charted(caption: RegExp): Promise<{ days: number; queries: number }> {
  const table = page.getByRole('table', { name: caption });
  await table.waitFor({ state: 'attached' });
  const queries = await table.evaluate((element) =>
    Array.from(element.querySelectorAll('tbody tr')).reduce((sum, row) => sum + Number(row.children[1]?.textContent ?? 0), 0),
  );
  return { days: (await table.getByRole('row').count()) - 1, queries };
}

describe('the dashboard over chosen days', () => {
  it('charts the last 30 days, then the last 7, then the days typed in, kept in the address', async () => {
    await page.goto(at(`/workspaces/${workspaceId}/dashboard`));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await charted(/^Queries and cost per day, the last 30 days$/)).toEqual({ days: 30, queries: 11 });
    expect(await page.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('true');
    await checkPage(page, 'dashboard-30-days');

    await page.getByRole('button', { name: 'Last 7 days' }).click();
    expect(await charted(/^Queries and cost per day, the last 7 days$/)).toEqual({ days: 7, queries: 2 });
    expect(new URL(page.url()).searchParams.get('from')).toBe(dayBefore(6));
    expect(await page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe('true');

    const form = page.getByRole('form', { name: 'Days charted' });
    await form.getByLabel('From').fill(dayBefore(25));
    await form.getByLabel('To').fill(dayBefore(15));
    await form.getByRole('button', { name: 'Show these days' }).click();
    expect(await charted(/^Queries and cost per day, \d+ \w+ to \d+ \w+$/)).toEqual({ days: 11, queries: 9 });
    expect(new URL(page.url()).searchParams.get('to')).toBe(dayBefore(15));
    await checkPage(page, 'dashboard-custom-days');

    // Kept in the address: a reload shows the same days.
    await page.reload();
    expect(await charted(/^Queries and cost per day, \d+ \w+ to \d+ \w+$/)).toEqual({ days: 11, queries: 9 });
  });

  it('says under the field why days are refused', async () => {
    const form = page.getByRole('form', { name: 'Days charted' });
    await form.getByLabel('From').fill(dayBefore(2));
    await form.getByLabel('To').fill(dayBefore(5));
    await form.getByRole('button', { name: 'Show these days' }).click();
    await form.getByText('must not be after to').waitFor();
    await form.getByLabel('From').fill(dayBefore(120));
    await form.getByLabel('To').fill(dayBefore(0));
    await form.getByRole('button', { name: 'Show these days' }).click();
    await form.getByText(/at most 90 days/).waitFor();
    await checkPage(page, 'dashboard-refused-days');
  });
});

describe('the audit log, filtered and downloaded', () => {
  const rows = () => page.getByRole('table', { name: 'Audit log' }).getByRole('row');

  it('filters by outcome and by tool, kept in the address', async () => {
    await page.goto(at(`/workspaces/${workspaceId}/activity`));
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await page.getByText(/^3 shown/).waitFor();
    expect(await rows().count()).toBe(4);

    await page.getByLabel('Outcome').selectOption({ label: 'Failed' });
    await page.getByText('1 shown of 1 matching entry.').waitFor();
    expect(await rows().nth(1).textContent()).toContain('tool refund_order timed out');
    expect(new URL(page.url()).searchParams.get('errors')).toBe('true');
    await checkPage(page, 'activity-failed');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText(/^3 shown/).waitFor();
    // The tool a query called (the select lists the workspace's tools, and keeps one from the address).
    await page.goto(at(`/workspaces/${workspaceId}/activity?tool=lookup_order`));
    await page.getByText('1 shown of 1 matching entry.').waitFor();
    expect(await rows().nth(1).textContent()).toContain('Where is order 42?');
    expect(await page.getByLabel('Tool called').inputValue()).toBe('lookup_order');
    await checkPage(page, 'activity-by-tool');
  });

  it('downloads the CSV of the filters shown', async () => {
    await page.goto(at(`/workspaces/${workspaceId}/activity?errors=true`));
    await page.getByText('1 shown of 1 matching entry.').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`activity-${workspaceId}-start-${dayBefore(0)}.csv`);
    const text = await readFile(await download.path(), 'utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toMatch(/^created_at,id,user_id,user_name,query,tools_called,/);
    // The question starts like a formula: quoted (it holds a comma) and made text.
    expect(lines[1]).toContain(`,act-2,someone,Ada,"'=Refund order 7, please",refund_order,`);
    expect(lines[1]).toContain('tool refund_order timed out');
    expect(lines.filter(Boolean)).toHaveLength(2);
  });
});
