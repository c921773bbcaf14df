import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { ANSWER, startConsoleService, type ConsoleService } from './service.js';

/**
 * The console for daily work (issue 33): a fresh install opens on sign-up; validation says what to
 * do, once, under the field; tables show every column at 1280 and 390 px; answers are rated with
 * drawn thumbs that show which was pressed; the operations page offers only what there is to do;
 * the settings say when the service's own model key answers; and a member lists and opens only the
 * conversations they started (another's is not found), with "Close conversation" on their own.
 */

let service: ConsoleService;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  service = await startConsoleService();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await saveFailure(page, context.task.name);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const at = (path: string) => `${service.url}${path}`;
const workspace = '/workspaces/ws-daily-support';

/** The message shown under a field (its last `aria-describedby` entry). */
async function messageUnder(field: Locator): Promise<string> {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
  return (
    (await field
      .page()
      .locator(`[id="${describedBy.split(' ').at(-1)}"]`)
      .textContent()) ?? ''
  );
}

/**
 * Whether the whole of `locator` is in sight across: within the screen's width and within the
 * visible part of the table's region (not cut off, nor scrolled away to the side).
 */
async function withinScreen(locator: Locator): Promise<boolean> {
  const [box, region] = await Promise.all([locator.boundingBox(), locator.locator('xpath=ancestor::section[1]').boundingBox()]);
  const width = locator.page().viewportSize()?.width ?? 0;
  if (!box || !region || box.width === 0) return false;
  const right = Math.min(width, region.x + region.width) + 0.5;
  return box.x >= Math.max(0, region.x) - 0.5 && box.x + box.width <= right;
}

async function ask(on: Page, question: string): Promise<void> {
  await on.goto(at(`${workspace}/playground`));
  await on.getByLabel('Question').fill(question);
  await on.getByRole('button', { name: 'Ask' }).click();
  await on.locator('.bubble.assistant:not([aria-busy])').filter({ hasText: ANSWER }).waitFor();
}

describe('a fresh install', () => {
  it('opens on sign-up, since nobody can sign in yet', async () => {
    await page.goto(at('/workspaces'));
    await page.getByRole('heading', { level: 1, name: 'Create your organisation' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signup');
    await checkPage(page, 'daily-fresh-signup');
  });

  it('says what is wrong with an empty name once, under the field, in words', async () => {
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('analytical engine');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    expect(await messageUnder(page.getByLabel('Your name'))).toBe('must not be empty');
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toContain('invalid request body');
    expect(text).not.toMatch(/Too small|expected string/);
    expect(await page.getByRole('alert').count()).toBe(0);
    await checkPage(page, 'daily-signup-empty-name');
  });

  it('signs up and makes a workspace', async () => {
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    await page.getByRole('button', { name: 'New workspace' }).click();
    await page.getByLabel('Name').fill('Daily Support');
    await page.getByLabel('System prompt').fill('You help our customers.');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.waitForURL(at(workspace));
  });
});

describe('daily work', () => {
  it('asks to choose a server of the connection form, under the field, before testing', async () => {
    await page.goto(at(`${workspace}/connections`));
    await page.getByRole('button', { name: 'Add a connection' }).click();
    const form = page.getByRole('form', { name: 'Add a connection' });
    await form.getByLabel('Name').fill('Orders');
    await form.getByLabel('Transport').selectOption({ label: 'stdio: a server the service runs' });
    await form.getByRole('button', { name: 'Test connection' }).click();
    expect(await messageUnder(form.getByLabel('Server'))).toBe('Choose a server.');
    expect(await form.getByRole('alert').count()).toBe(0);
    await checkPage(page, 'daily-connection-no-server');
    await form.getByLabel('Server').selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Save connection' }).click();
    await page.getByRole('article', { name: 'Orders' }).waitFor();
  });

  it('rates an answer with drawn thumbs, the one pressed shown pressed', async () => {
    await ask(page, 'Where is my order 42?');
    await page.getByRole('link', { name: 'View transcript' }).click();
    await page.locator('.transcript-about').waitFor();
    const helpful = page.getByRole('button', { name: 'Rate answer helpful' });
    const unhelpful = page.getByRole('button', { name: 'Rate answer not helpful' });
    expect(await helpful.getAttribute('aria-pressed')).toBe('false');
    // Drawn, not an emoji that needs a font.
    expect(await helpful.textContent()).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(await helpful.locator('svg').count()).toBe(1);
    await helpful.click();
    await expect.poll(() => helpful.getAttribute('aria-pressed')).toBe('true');
    expect(await unhelpful.getAttribute('aria-pressed')).toBe('false');
    await page.getByText('Thanks: rated helpful.').waitFor();
    await unhelpful.click();
    await expect.poll(() => unhelpful.getAttribute('aria-pressed')).toBe('true');
    expect(await helpful.getAttribute('aria-pressed')).toBe('false');
    await checkPage(page, 'daily-transcript-rated');
  });

  it('shows every column of the activity log at 1280 and at 390 px', async () => {
    await page.goto(at(`${workspace}/activity`));
    const log = page.getByRole('table', { name: 'Audit log' });
    await log.locator('tbody tr').first().waitFor();
    await checkPage(page, 'daily-activity');
    const headers = (await log.locator('thead th').allTextContents()).map((text) => text.trim());
    expect(headers).toEqual(expect.arrayContaining(['When', 'User', 'Query', 'Duration', 'Error', 'Approvals']));
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 860 });
      const cells = log.locator('tbody tr').first().locator('th, td');
      expect(await cells.count()).toBe(headers.length);
      for (let column = 0; column < headers.length; column += 1) {
        const cell = cells.nth(column);
        expect(await withinScreen(cell), `${headers[column]} at ${width} px`).toBe(true);
        // On a phone each value is shown with its column's name.
        if (width === 390) expect(await cell.getAttribute('data-label')).toBe(headers[column]);
      }
      expect(await withinScreen(log.locator('tbody tr').first().getByText('Where is my order 42?'))).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("keeps a consumer's Revoke in reach at 1280 and 390 px", async () => {
    await page.goto(at(`${workspace}/consumers`));
    await page.getByRole('button', { name: 'Connect a consumer' }).click();
    const form = page.getByRole('form', { name: 'Connect a consumer' });
    await form.getByLabel('Type').selectOption('api');
    await form.getByRole('button', { name: 'Connect consumer' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    const revoke = page.getByRole('table', { name: 'Consumers' }).getByRole('button', { name: /^Revoke/ });
    await revoke.waitFor();
    await checkPage(page, 'daily-consumers');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 860 });
      expect(await withinScreen(revoke), `Revoke at ${width} px`).toBe(true);
      expect(await revoke.isEnabled()).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('offers retry and drain only when there is something to retry or drain', async () => {
    await page.goto(at('/ops'));
    const stats = page.getByRole('region', { name: 'conversation-stats', exact: true });
    await stats.waitFor();
    expect(await stats.getByRole('button', { name: 'Retry all failed jobs of conversation-stats' }).isDisabled()).toBe(true);
    expect(await stats.getByRole('button', { name: 'Drain waiting jobs of conversation-stats' }).isDisabled()).toBe(true);
    await checkPage(page, 'daily-ops-idle');
  });

  it('names the conversation-status chart "Tickets by status"', async () => {
    await page.goto(at(`${workspace}/dashboard`));
    await page.getByRole('figure', { name: /Tickets by status/ }).waitFor();
  });

  it("opens the workspace's conversations to its team from the settings, and back", async () => {
    await page.goto(at(`${workspace}/settings`));
    const field = page.getByLabel('Who reads conversations');
    expect(await field.inputValue()).toBe('starter');
    const choose = async (label: string, value: string) => {
      await field.selectOption({ label });
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect
        .poll(async () => (await (await page.request.get(at(`/api${workspace}/summary`))).json()).workspace.conversations_visible_to)
        .toBe(value);
    };
    await choose("Every member of the workspace's team", 'team');
    await checkPage(page, 'daily-settings-privacy');
    await choose('Only the person who started each one (and admins)', 'starter');
  });

  it("says the service's own model key answers while ai_api_key is not set", async () => {
    await page.goto(at('/org/settings'));
    const row = page.getByRole('row', { name: /ai_api_key/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("Using the service's key");
    expect(await row.textContent()).not.toContain('Not set');
    await checkPage(page, 'daily-org-settings');
  });
});

describe('a member', () => {
  it("lists and opens only their own conversations, and is offered Close on them; another's is not found", async () => {
    const added = await page.request.post(at('/api/org/users'), {
      data: { name: 'Grace Hopper', email: 'grace@example.com', password: 'compiler pioneer', org_role: 'member' },
    });
    expect(added.status()).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const member = await context.newPage();
    try {
      // Someone has signed up: the sign-in page stays.
      await member.goto(at('/signin'));
      await member.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await checkPage(member, 'sign-in');
      await member.getByLabel('Email').fill('grace@example.com');
      await member.getByLabel('Password').fill('compiler pioneer');
      await member.getByRole('button', { name: 'Sign in' }).click();
      await member.getByRole('heading', { level: 1, name: /^Chat/ }).waitFor();

      await ask(member, 'Has my refund arrived?');
      await member.getByRole('link', { name: 'View transcript' }).click();
      await member.waitForURL(/\/conversations\//);
      await member.locator('.transcript').getByText('Has my refund arrived?').waitFor();
      await member.getByRole('button', { name: 'Close conversation' }).waitFor();
      // Closing deletes nothing: the button is not styled as destructive.
      expect(await member.getByRole('button', { name: 'Close conversation' }).getAttribute('class')).not.toContain('danger');

      // Conversations are private to their starter: Ada's (the admin's) is not in Grace's list,
      // and its address shows that it was not found.
      await member.goto(at(`${workspace}/conversations`));
      const rows = member.getByRole('table', { name: 'Conversations' }).locator('tbody tr');
      await rows.filter({ hasText: 'Grace Hopper' }).waitFor();
      expect(await rows.count()).toBe(1);
      const listed = await page.request.get(at(`/api${workspace}/conversations`));
      const adas = (await listed.json()).conversations.find((c: { user_name: string }) => c.user_name === 'Ada Lovelace');
      expect(adas).toBeDefined();
      await member.goto(at(`${workspace}/conversations/${adas.id}`));
      await member.getByText(`conversation ${adas.id} not found`).waitFor();
      expect(await member.getByText('Where is my order 42?').count()).toBe(0);
      await checkPage(member, 'daily-member-transcript-of-another');
    } finally {
      await context.close();
    }
  });
});
