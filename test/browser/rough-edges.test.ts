/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser: its globals are the DOM's.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activityEntryKey } from '../../shared/workspaces/entities.js';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { startConsoleService, type ConsoleService } from './service.js';

/**
 * The console's rough edges of issue 47: the audit log fits its box and links each row to its
 * transcript; the dashboard keeps its charts when a range is refused; evaluation cases keep their
 * ids and a regression shows the answer that passed; single sign-on that is off is no error; an
 * unknown workspace is "not found", not a failure to retry; the Provisioning page says how to set
 * up the provider instead of naming a file.
 */

let service: ConsoleService;
let browser: Browser;
let page: Page;
/** Messages the browser logged as errors (a failed request among them), since the last `clearConsole()`. */
const consoleErrors: string[] = [];
let orgId: string;
const workspaceId = 'ws-rough-edges';
const at = (path: string) => `${service.url}${path}`;
const workspace = `/workspaces/${workspaceId}`;

/** A call of the API as the signed-in browser makes it (the page's cookies). */
async function call(method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<any> {
  const response = await page.request.fetch(at(path), { method, ...(data === undefined ? {} : { data }) });
  const body = await response.json();
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${JSON.stringify(body)}`);
  return body;
}

beforeAll(async () => {
  service = await startConsoleService();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const signedUp = await call('POST', '/api/signup', {
    name: 'Katherine Johnson',
    email: 'katherine@example.com',
    password: 'orbital mechanics',
    org_name: 'Rough Edges',
  });
  orgId = signedUp.org.id;
  expect((await call('POST', '/api/workspaces', { name: 'Rough Edges' })).id).toBe(workspaceId);
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await saveFailure(page, context.task.name);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** Whether the whole of `locator` is in sight across: within the screen and within the visible part of its table's region. */
async function withinRegion(locator: Locator): Promise<boolean> {
  const [box, region] = await Promise.all([locator.boundingBox(), locator.locator('xpath=ancestor::section[1]').boundingBox()]);
  const width = locator.page().viewportSize()?.width ?? 0;
  if (!box || !region || box.width === 0) return false;
  return box.x >= Math.max(0, region.x) - 0.5 && box.x + box.width <= Math.min(width, region.x + region.width) + 0.5;
}

/** How many lines each element of `locator` takes (a name broken inside itself takes two). */
const linesOf = (locator: Locator) =>
  locator.evaluateAll((elements) =>
    elements.map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
    }),
  );

describe('the audit log', () => {
  const LONG_TOOLS = ['orders__lookup_order_history', 'orders__refund_order_with_reason', 'billing__create_credit_note'];
  let conversationId: string;

  beforeAll(async () => {
    const asked = await call('POST', `/api/workspaces/${workspaceId}/query`, { query: 'Where is my order 42?' });
    conversationId = asked.conversation_id;
    // Entries as a busy workspace has them: several long tool names, an error, decisions with reasons.
    const now = service.runtime.deps.clock.now().getTime();
    const entry = (minutesAgo: number, id: string, fields: Record<string, unknown>) => {
      const created = new Date(now - minutesAgo * 60_000).toISOString();
      return {
        ...activityEntryKey(orgId, workspaceId, created, id),
        id,
        conversation_id: `conv-${id}`,
        user_id: 'someone',
        user_name: 'Dorothy Vaughan',
        query: 'Refund order 7 and issue a credit note for the delay, please; the customer has waited two weeks.',
        tools_called: LONG_TOOLS,
        connections_hit: ['orders', 'billing'],
        tokens_input: 12_345,
        tokens_output: 678,
        cost_usd: 0.0421,
        duration_ms: 12_400,
        error: null,
        approvals: [],
        created_at: created,
        ...fields,
      };
    };
    const decision = (tool: string, status: string, reason: string | null) => ({
      id: `appr-${tool}`,
      tool,
      status,
      decided_by: 'Mary Jackson',
      decided_at: new Date(now).toISOString(),
      reason,
    });
    await service.runtime.deps.table.batchPut([
      entry(90, 'act-a', {
        approvals: [
          decision('orders__refund_order_with_reason', 'approved', 'within the refund policy'),
          decision('billing__create_credit_note', 'denied', 'credit notes go through finance'),
        ],
      }),
      entry(80, 'act-b', {
        error: 'tool orders__refund_order_with_reason timed out after 30 seconds',
        tools_called: LONG_TOOLS.slice(0, 2),
      }),
    ]);
  });

  it('fits its box at 1366 px: the Approvals column in sight, tool names whole, wrapped between names', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(at(`${workspace}/activity`));
    const log = page.getByRole('table', { name: 'Audit log' });
    await log.locator('tbody tr').nth(2).waitFor();
    const region = page.getByRole('region', { name: 'Audit log' });
    expect(await region.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    const headers = (await log.locator('thead th').allTextContents()).map((text) => text.trim());
    expect(headers.at(-1)).toBe('Approvals');
    const row = log.locator('tbody tr').filter({ hasText: 'credit notes go through finance' });
    const cells = row.locator('th, td');
    for (let column = 0; column < headers.length; column += 1) {
      expect(await withinRegion(cells.nth(column)), `${headers[column]} at 1366 px`).toBe(true);
    }
    const names = log.locator('tbody code');
    expect(await names.count()).toBeGreaterThan(LONG_TOOLS.length);
    expect(new Set(await linesOf(names))).toEqual(new Set([1]));
    await checkPage(page, 'rough-activity');
  });

  it("links each row to its conversation's transcript", async () => {
    await page.goto(at(`${workspace}/activity`));
    const row = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr').filter({ hasText: 'Where is my order 42?' });
    const link = row.getByRole('link', { name: /Where is my order 42\?/ });
    expect(await link.getAttribute('href')).toBe(`${workspace}/conversations/${conversationId}`);
    await link.click();
    await page.waitForURL(at(`${workspace}/conversations/${conversationId}`));
    await page.getByText('Where is my order 42?').first().waitFor();
  });
});

describe('the dashboard', () => {
  const dayBefore = (count: number) => new Date(service.runtime.deps.clock.now().getTime() - count * 86_400_000).toISOString().slice(0, 10);

  it('calls open conversations "Open conversations", not tickets', async () => {
    await page.goto(at(`${workspace}/dashboard`));
    await page.getByText('Open conversations', { exact: true }).waitFor();
    expect(await page.getByText('Open tickets').count()).toBe(0);
  });

  it('refuses a range over 90 days under its field only, and keeps the charts of the days before', async () => {
    const usage = page.getByRole('figure', { name: /^Queries and cost per day, the last 30 days/ });
    await usage.waitFor();
    const form = page.getByRole('form', { name: 'Days charted' });
    await form.getByLabel('From').fill(dayBefore(120));
    await form.getByLabel('To').fill(dayBefore(0));
    await form.getByRole('button', { name: 'Show these days' }).click();
    await form.getByText(/at most 90 days/).waitFor();
    await page.getByText(/^Still showing .* the days charted before\.$/).waitFor();
    expect(await usage.isVisible()).toBe(true);
    expect(await page.getByText('invalid query string').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await checkPage(page, 'rough-dashboard-refused');

    // Opened at such an address there are no charts to keep: it says what to do, and nothing failed.
    await page.reload();
    await form.getByText(/at most 90 days/).waitFor();
    await page.getByText(/^Choose the days to chart above/).waitFor();
    expect(await page.getByText('invalid query string').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);

    // A preset charts again.
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.getByRole('figure', { name: /^Queries and cost per day, the last 7 days/ }).waitFor();
    expect(await form.getByText(/at most 90 days/).count()).toBe(0);
  });
});

describe('evaluations', () => {
  const NAME = 'Shipping answers';
  /** A case of the evaluation editor: its group, named by its legend ("Case 2"). */
  const caseOf = (form: Locator, n: number) => form.getByRole('group', { name: new RegExp(`^Case ${n}\\b`) });
  /** The message under a field (its last `aria-describedby` entry), once it is marked invalid. */
  const messageUnder = async (field: Locator) => {
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    return (await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()) ?? '';
  };
  /** Runs the evaluation from its page and opens the run once it is done. */
  const runAndOpen = async () => {
    const rows = page.getByRole('table', { name: 'Runs' }).locator('tbody tr');
    const before = await rows.count();
    await page.getByRole('button', { name: `Run ${NAME}` }).click();
    await expect.poll(() => rows.count()).toBe(before + 1);
    const newest = rows.first();
    await expect.poll(async () => (await newest.locator('.badge').textContent()) ?? '', { timeout: 30_000 }).toBe('done');
    await newest.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: /^Run of / }).waitFor();
  };

  it('gives cases ids of their own, each refusal under its case’s Id', async () => {
    await page.goto(at(`${workspace}/evals`));
    await page.getByRole('button', { name: 'New evaluation' }).click();
    const form = page.getByRole('form', { name: 'New evaluation' });
    await form.getByLabel('Name', { exact: true }).fill(NAME);
    await caseOf(form, 1).getByLabel('Id').fill('shipped');
    await caseOf(form, 1).getByLabel('Question').fill('Where is my order 42?');
    await caseOf(form, 1).getByLabel('Texts the answer must contain').fill('Parcelways');
    await form.getByRole('button', { name: 'Add a case' }).click();
    await caseOf(form, 2).getByLabel('Id').fill('shipped');
    await caseOf(form, 2).getByLabel('Question').fill('When does order 42 arrive?');
    await caseOf(form, 2).getByLabel('Texts the answer must contain').fill('within 2 days');
    await form.getByRole('button', { name: 'Create evaluation' }).click();
    expect(await messageUnder(caseOf(form, 2).getByLabel('Id'))).toBe('case id shipped is used twice');
    await checkPage(page, 'rough-eval-duplicate-id');

    await caseOf(form, 2).getByLabel('Id').fill('arrives in 2 days');
    await form.getByRole('button', { name: 'Create evaluation' }).click();
    expect(await messageUnder(caseOf(form, 2).getByLabel('Id'))).toMatch(/letters, digits/);
    await caseOf(form, 2).getByLabel('Id').fill('arrives-in-2-days');
    await form.getByRole('button', { name: 'Create evaluation' }).click();
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    const cases = (await page.getByRole('region', { name: 'Cases (2)' }).textContent()) ?? '';
    expect(cases).toContain('shipped');
    expect(cases).toContain('arrives-in-2-days');
  });

  it('shows a regression’s answer now beside the answer that passed in the run compared to', async () => {
    await runAndOpen();
    await page.getByText('The first finished run of this evaluation: nothing to compare it with.').waitFor();
    await page.getByRole('link', { name: 'Back to the evaluation' }).click();
    await page.getByRole('button', { name: `Edit the cases of ${NAME}` }).click();
    const form = page.getByRole('form', { name: `Edit ${NAME}` });
    expect(await caseOf(form, 2).getByLabel('Id').inputValue()).toBe('arrives-in-2-days');
    // The model's answer names Parcelways: this case fails from now on.
    await caseOf(form, 2).getByLabel('Texts the answer must not contain').fill('Parcelways');
    await form.getByRole('button', { name: 'Save evaluation' }).click();
    await page.getByText(`Saved ${NAME}: 2 cases.`).waitFor();

    await runAndOpen();
    const regression = page.getByRole('region', { name: 'Results' }).getByRole('article', { name: 'Regression: arrives-in-2-days' });
    await regression.getByRole('heading', { name: 'Answer now' }).waitFor();
    await regression.getByRole('heading', { name: 'Answer that passed in the run compared to' }).waitFor();
    expect(await regression.locator('.bubble.assistant').count()).toBe(2);
    for (const answer of await regression.locator('.bubble.assistant').all()) expect(await answer.textContent()).toContain('Parcelways');
    // A case that passes, or fails without having passed before, shows its one answer.
    const other = page.getByRole('region', { name: 'Results' }).getByRole('article', { name: 'shipped' });
    expect(await other.locator('.bubble.assistant').count()).toBe(1);
    await checkPage(page, 'rough-eval-regression');
  });
});

describe('single sign-on while it is off', () => {
  it('reads the setting as off, with no failed request and nothing logged as an error', async () => {
    const failed: string[] = [];
    const onResponse = (response: { status(): number; url(): string }) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    };
    page.on('response', onResponse);
    consoleErrors.length = 0;
    try {
      for (let visit = 0; visit < 2; visit += 1) {
        await page.goto(at('/org/sso'));
        await page.getByText('Single sign-on is off: everyone signs in with a password.').waitFor();
      }
      await page.getByRole('button', { name: 'Save single sign-on' }).waitFor();
      expect(failed).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await checkPage(page, 'rough-sso-off');
    } finally {
      page.off('response', onResponse);
    }
  });
});

describe('an unknown workspace', () => {
  it('is "Workspace not found" with a link back to the list, and nothing to try again', async () => {
    await page.goto(at('/workspaces/ws-nope'));
    await page.getByRole('heading', { level: 1, name: 'Workspace not found' }).waitFor();
    expect(await page.title()).toBe('Workspace not found · Workspace agent proxy');
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(await page.getByText('workspace ws-nope not found').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await checkPage(page, 'rough-workspace-not-found');
    await page.getByRole('link', { name: 'Back to the workspace list' }).click();
    await page.waitForURL(at('/workspaces'));
  });

  it('is not found under any of its tabs either', async () => {
    await page.goto(at('/workspaces/ws-nope/activity'));
    await page.getByRole('heading', { level: 1, name: 'Workspace not found' }).waitFor();
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
  });
});

describe('the Provisioning page', () => {
  it('says how to connect Okta and Entra ID on the page, with the base URL in place, instead of naming a file', async () => {
    await page.goto(at('/org/provisioning'));
    await page.getByRole('heading', { level: 1, name: 'Provisioning' }).waitFor();
    const steps = page.getByRole('region', { name: 'Connect your provider' });
    await steps.getByRole('heading', { name: 'Okta' }).waitFor();
    await steps.getByRole('heading', { name: 'Microsoft Entra ID' }).waitFor();
    const baseUrl = `${service.url}/scim/v2`;
    expect(await steps.getByText(baseUrl, { exact: true }).count()).toBe(2);
    expect(await steps.textContent()).toContain('SCIM connector base URL');
    expect(await steps.textContent()).toContain('Tenant URL');
    expect(await page.locator('main').textContent()).not.toContain('docs/sso.md');
    await checkPage(page, 'rough-provisioning');
  });
});
