import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { ANSWER, startConsoleService, type ConsoleService } from './service.js';

/*
 * Every page of the console on a phone (issue 47, item 5): each route of the console, with data in
 * it (a workspace with a conversation, its audit entry and an evaluation), opened at 390 px: nothing
 * wider than the screen (a table or a code block scrolls inside its own region), and no serious axe
 * violation, at 1280 px too (`checkPage`).
 */

let service: ConsoleService;
let browser: Browser;
let page: Page;
const workspaceId = 'ws-phones';
const at = (path: string) => `${service.url}${path}`;
let conversationId = '';
let evalId = '';
let routineId = '';

async function call(method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<any> {
  const response = await page.request.fetch(at(path), { method, ...(data === undefined ? {} : { data }) });
  const body = await response.json();
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${JSON.stringify(body)}`);
  return body;
}

beforeAll(async () => {
  service = await startConsoleService();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await call('POST', '/api/signup', { name: 'Mary Jackson', email: 'mary@example.com', password: 'wind tunnel data', org_name: 'Phones' });
  expect((await call('POST', '/api/workspaces', { name: 'Phones' })).id).toBe(workspaceId);
  const asked = await call('POST', `/api/workspaces/${workspaceId}/query`, {
    query: 'A question long enough to wrap on a phone, with a link https://example.com/a/very/long/path/that/keeps/going/and/going',
  });
  conversationId = asked.conversation_id;
  expect(asked.answer).toBe(ANSWER);
  const created = await call('POST', `/api/workspaces/${workspaceId}/evals`, {
    name: 'Phone eval',
    cases: [{ id: 'order-42', question: 'Where is order 42?', expect: { contains: ['shipped'] } }],
  });
  evalId = created.eval.id;
  const routine = await call('POST', `/api/workspaces/${workspaceId}/routines`, {
    name: 'A routine with a name long enough to wrap on a phone',
    prompt: 'Summarise the day.',
    trigger: { schedule: '0 8 * * MON-FRI', timezone: 'Europe/Paris' },
  });
  routineId = routine.routine.id;
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await saveFailure(page, context.task.name);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const workspace = `/workspaces/${workspaceId}`;

/** Each page: its address and something it shows once its data is in. */
const PAGES: [name: string, path: () => string, shown: (on: Page) => Promise<unknown>][] = [
  ['chat', () => `/chat/${workspaceId}`, (on) => on.getByLabel('Question').waitFor()],
  ['chat opened', () => `/chat/${workspaceId}/c/${conversationId}`, (on) => on.locator('.bubble.assistant').first().waitFor()],
  ['workspaces', () => '/workspaces', (on) => on.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor()],
  ['overview', () => workspace, (on) => on.getByRole('heading', { level: 1 }).first().waitFor()],
  ['dashboard', () => `${workspace}/dashboard`, (on) => on.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()],
  ['conversations', () => `${workspace}/conversations`, (on) => on.getByRole('table', { name: 'Conversations' }).waitFor()],
  ['transcript', () => `${workspace}/conversations/${conversationId}`, (on) => on.locator('.transcript-about').waitFor()],
  ['evaluations', () => `${workspace}/evals`, (on) => on.getByRole('heading', { level: 1, name: 'Evaluations' }).waitFor()],
  ['evaluation', () => `${workspace}/evals/${evalId}`, (on) => on.getByText('Where is order 42?').first().waitFor()],
  ['activity', () => `${workspace}/activity`, (on) => on.getByRole('heading', { level: 1, name: 'Activity' }).waitFor()],
  ['approvals', () => `${workspace}/approvals`, (on) => on.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor()],
  ['connections', () => `${workspace}/connections`, (on) => on.getByRole('heading', { level: 1, name: 'Connections' }).waitFor()],
  ['knowledge', () => `${workspace}/knowledge`, (on) => on.getByRole('heading', { level: 1, name: 'Knowledge' }).waitFor()],
  [
    'routines',
    () => `${workspace}/routines?routine=${routineId}`,
    (on) =>
      on
        .getByRole('table', { name: /^Runs of / })
        .or(on.getByText('No runs yet'))
        .first()
        .waitFor(),
  ],
  ['guardrails', () => `${workspace}/guardrails`, (on) => on.getByRole('heading', { level: 1, name: 'Guardrails' }).waitFor()],
  ['consumers', () => `${workspace}/consumers`, (on) => on.getByRole('heading', { level: 1, name: 'Consumers' }).waitFor()],
  ['permissions', () => `${workspace}/permissions`, (on) => on.getByRole('heading', { level: 1, name: 'Permissions' }).waitFor()],
  ['settings', () => `${workspace}/settings`, (on) => on.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()],
  ['use from your tools', () => `${workspace}/mcp`, (on) => on.getByRole('heading', { level: 1, name: 'Use from your tools' }).waitFor()],
  ['users', () => '/org', (on) => on.getByRole('heading', { level: 1 }).first().waitFor()],
  ['teams', () => '/org/teams', (on) => on.getByRole('heading', { level: 1, name: 'Teams' }).waitFor()],
  ['budgets', () => '/org/budgets', (on) => on.getByRole('heading', { level: 1, name: 'Budgets' }).waitFor()],
  ['org settings', () => '/org/settings', (on) => on.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()],
  ['team chat', () => '/org/team-chat', (on) => on.getByRole('heading', { level: 1 }).first().waitFor()],
  ['single sign-on', () => '/org/sso', (on) => on.getByRole('heading', { level: 1 }).first().waitFor()],
  ['provisioning', () => '/org/provisioning', (on) => on.getByRole('heading', { level: 1 }).first().waitFor()],
  ['mcp clients', () => '/org/clients', (on) => on.getByRole('heading', { level: 1, name: 'Connected MCP clients' }).waitFor()],
  ['operations', () => '/ops', (on) => on.getByRole('heading', { level: 1, name: 'Operations' }).waitFor()],
  ['profile', () => '/me', (on) => on.getByRole('heading', { level: 1 }).first().waitFor()],
];

describe('every page on a phone', () => {
  it.each(PAGES)('%s fits 390 px with no loading line left', async (name, path, shown) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(at(path()));
    await shown(page);
    await expect.poll(() => page.locator('.state-loading').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.locator('.state-error').count(), `${name} shows an error`).toBe(0);
    await checkPage(page, `phone-${name.replaceAll(' ', '-')}`);
  });
});
