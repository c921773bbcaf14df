import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { requestChatLink } from '../../shared/chat/links.js';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { ANSWER, MARKUP, STATS, startConsoleService, type ConsoleService } from './service.js';

/**
 * The web console in Chromium against the local runtime, as a new user meets it: sign up, make a
 * workspace, connect the repository's stdio MCP server, ask, read the conversation and the
 * activity, close the conversation. Every page visited is checked with axe-core at 1280 and 390 px
 * and saved as a screenshot under test-results/console/.
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

describe('a new user', () => {
  it('is sent to sign up on a fresh install (nobody to sign in yet)', async () => {
    await page.goto(at('/workspaces'));
    await page.getByRole('heading', { level: 1, name: 'Create your organisation' }).waitFor();
    expect(page.url()).toBe(at('/signup'));
    await checkPage(page, 'sign-up');
  });

  it("sees the API's message next to the field it is about", async () => {
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    const password = page.getByLabel('Password');
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await password.getAttribute('aria-describedby')) ?? '';
    const message = await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent();
    expect(message).toMatch(/8/);
    expect(page.url()).toBe(at('/signup'));
  });

  it('signs up and lands on an empty list of workspaces', async () => {
    await page.getByLabel('Password').fill('analytical engine');
    await page.getByLabel('Organisation name').fill('Analytical');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    await page.getByText('No workspaces yet: create the first one.').waitFor();
    await checkPage(page, 'workspaces-empty');
  });

  it('creates a workspace and opens it', async () => {
    await page.getByRole('button', { name: 'New workspace' }).click();
    await page.getByLabel('Name').fill('Customer Support');
    await page.getByLabel('System prompt').fill('You help our customers.');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.waitForURL(at('/workspaces/ws-customer-support'));
    await page.getByRole('navigation', { name: 'Workspace' }).waitFor();
    await page.goto(at('/workspaces'));
    const row = page.getByRole('row', { name: /Customer Support/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('active');
    await checkPage(page, 'workspaces');
  });
});

describe('the first workspace, end to end', () => {
  const workspace = '/workspaces/ws-customer-support';

  it("connects the repository's stdio server, tested before it is saved", async () => {
    await page.goto(at(`${workspace}/connections`));
    await page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor();
    await page.getByRole('button', { name: 'Add a connection' }).click();
    const form = page.getByRole('form', { name: 'Add a connection' });
    await form.getByLabel('Transport').selectOption({ label: 'stdio: a server the service runs' });
    await form.getByLabel('Server').selectOption({ index: 1 });
    // The catalogue's name is the connection's until it is named otherwise.
    const server = await form.getByLabel('Server').inputValue();
    expect(server).not.toBe('');
    expect(await form.getByLabel('Name').inputValue()).toBe(server);
    await form.getByLabel('Name').fill('Orders');
    await form.getByLabel('Server').selectOption({ index: 1 });
    expect(await form.getByLabel('Name').inputValue()).toBe('Orders');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await form.getByText(/Reached .*: 2 tools/).waitFor();
    await checkPage(page, 'connections-add');
    await form.getByRole('button', { name: 'Save connection' }).click();
    const card = page.getByRole('article', { name: 'Orders' });
    // Saving lists the server's tools: they show before any query.
    await card.getByRole('table', { name: 'Tools of Orders' }).waitFor();
    expect(await card.textContent()).toContain('connected');
    await checkPage(page, 'connections-saved');
  });

  it('asks in the playground: the tool call shows, the answer streams in, then tokens, cost and time', async () => {
    await page.goto(at(`${workspace}/playground`));
    await page.getByRole('heading', { level: 1, name: /^Chat/ }).waitFor();
    await page.getByLabel('Question').fill('Where is my order 42?');
    // Streamed: part of the answer shows while the query still runs (the model sends it in pieces
    // 150 ms apart). Watched from before the question is asked, on every frame.
    const partial = page.waitForFunction(
      () => {
        const text = document.querySelector('.bubble.assistant[aria-busy="true"]')?.textContent ?? '';
        return text.includes('Order 42') && !text.includes('2 days.');
      },
      undefined,
      { polling: 'raf' },
    );
    await page.getByRole('button', { name: 'Ask' }).click();
    await partial;
    const tools = page.getByRole('list', { name: 'Tool calls' });
    await tools.getByText(/lookup_order.*on Orders — done in/).waitFor();
    await page.locator('.bubble.assistant:not([aria-busy])').filter({ hasText: ANSWER }).waitFor();
    await page.getByRole('link', { name: 'View transcript' }).waitFor();
    const meta = (await page.locator('.chat-meta').textContent()) ?? '';
    // Two model calls: 420 + 510 tokens in, 24 + 36 out.
    expect(meta).toContain('930 in / 60 out');
    expect(meta).toMatch(/\$0\.\d+/);
    await checkPage(page, 'playground');
  });

  it('lists the tools the query discovered, and which of them write', async () => {
    await page.goto(at(`${workspace}/connections`));
    const tools = page.getByRole('article', { name: 'Orders' }).getByRole('table', { name: 'Tools of Orders' });
    await tools.waitFor();
    expect(await tools.getByRole('row', { name: /refund_order/ }).textContent()).toContain('write');
    expect(await tools.getByRole('row', { name: /lookup_order/ }).textContent()).toContain('read only');
    await checkPage(page, 'connections');
  });

  it('shows the conversation in the list and the query in the activity log', async () => {
    await page.goto(at(`${workspace}/conversations`));
    const conversations = page.getByRole('table', { name: 'Conversations' });
    await conversations.waitFor();
    const rows = conversations.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('open');
    await checkPage(page, 'conversations');

    await page.goto(at(`${workspace}/activity`));
    const log = page.getByRole('table', { name: 'Audit log' });
    await log.waitFor();
    const entry = (await log.locator('tbody tr').first().textContent()) ?? '';
    expect(entry).toContain('Where is my order 42?');
    expect(entry).toContain('lookup_order');
    expect(entry).toContain('Ada Lovelace');
    await checkPage(page, 'activity');
  });

  it('closes the conversation from its transcript and sees its statistics once the job has run', async () => {
    await page.goto(at(`${workspace}/conversations`));
    await page.getByRole('table', { name: 'Conversations' }).locator('tbody tr').first().getByRole('link').first().click();
    await page.locator('.transcript-about').waitFor();
    await page.locator('.transcript').getByText('Where is my order 42?').waitFor();
    await page.getByText(ANSWER).waitFor();
    await checkPage(page, 'transcript-open');
    await page.getByRole('button', { name: 'Close conversation' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close conversation' }).click();
    await page.getByText(STATS.summary).waitFor();
    const stats = (await page.getByRole('region', { name: 'Statistics' }).textContent()) ?? '';
    expect(stats).toContain(STATS.category);
    expect(stats).toContain('resolved');
    expect(await page.locator('main').textContent()).toContain('closed');
    await checkPage(page, 'transcript-closed');
  });

  it('shows tool and model text as text, never as markup', async () => {
    service.script.markup = true;
    try {
      await page.goto(at(`${workspace}/playground`));
      await page.getByLabel('Question').fill('Say something odd');
      await page.getByRole('button', { name: 'Ask' }).click();
      await page.locator('.bubble.assistant:not([aria-busy])').filter({ hasText: MARKUP }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();
      expect(await page.locator('main img').count()).toBe(0);
    } finally {
      // A failure here leaves the model answering plainly for the tests after it.
      service.script.markup = false;
    }
  });
});

describe('the admin pages', () => {
  const workspace = '/workspaces/ws-customer-support';

  it('shows the dashboard as charts, each named with its numbers', async () => {
    await page.goto(at(`${workspace}/dashboard`));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const usage = page.getByRole('img', { name: /queries/i }).first();
    await usage.waitFor();
    // Recharts draws its charts one after another: wait for them rather than count the first frame.
    await expect.poll(() => page.locator('svg.recharts-surface').count(), { timeout: 10_000 }).toBeGreaterThan(3);
    const sentiment = page.getByRole('img', { name: /positive/i }).first();
    expect(await sentiment.getAttribute('aria-label')).toMatch(/Positive 1/);
    await checkPage(page, 'dashboard');
  });

  it('adds a knowledge entry', async () => {
    await page.goto(at(`${workspace}/knowledge`));
    await page.getByRole('button', { name: 'Add an entry' }).click();
    const form = page.getByRole('form', { name: 'Add a knowledge entry' });
    await form.getByLabel('Title').fill('Refunds');
    await form.getByLabel('Content').fill('Refunds take 5 working days.');
    await form.getByRole('button', { name: 'Add entry' }).click();
    await page.getByRole('heading', { name: 'Refunds' }).waitFor();
    await checkPage(page, 'knowledge');
  });

  it('connects an api consumer and shows its key once', async () => {
    await page.goto(at(`${workspace}/consumers`));
    await page.getByRole('button', { name: 'Connect a consumer' }).click();
    const form = page.getByRole('form', { name: 'Connect a consumer' });
    await form.getByLabel('Type').selectOption('api');
    await form.getByRole('button', { name: 'Connect consumer' }).click();
    const key = page.locator('.secret-once code');
    await key.waitFor();
    const value = String(await key.textContent());
    expect(value).toMatch(/^wap_api_/);
    await checkPage(page, 'consumers-key');
    await page.getByRole('button', { name: 'Done' }).click();
    // Gone once dismissed, and never kept where it could be read later: not in the page, the URL or storage.
    await page.locator('.secret-once').waitFor({ state: 'detached' });
    expect(await page.locator('body').textContent()).not.toContain(value);
    expect(page.url()).not.toContain(value);
    const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]));
    expect(stored).not.toContain(value);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Consumers' }).waitFor();
    expect(await page.locator('.secret-once').count()).toBe(0);
    expect(await page.locator('main').textContent()).not.toContain('wap_api_');
  });

  it("shows each of the workspace's other pages", async () => {
    for (const [path, title] of [
      ['', 'Overview'],
      ['/approvals', 'Approvals'],
      ['/guardrails', 'Guardrails'],
      ['/permissions', 'Permissions'],
      ['/settings', 'Settings'],
    ] as const) {
      await page.goto(at(`${workspace}${path}`));
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Loading' }).first().waitFor({ state: 'detached' });
      await checkPage(page, `workspace-${title.toLowerCase()}`);
    }
  });

  it("puts the API's message next to the setting it is about", async () => {
    await page.goto(at(`${workspace}/settings`));
    const field = page.getByLabel('Cold timeout (minutes)');
    await field.fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'workspace-settings-error');
  });

  it('finds a tool by what it does, and pins tools in the settings', async () => {
    await page.goto(at(`${workspace}/connections`));
    const box = page.getByRole('search', { name: "The workspace's tools" }).getByLabel('Search tools');
    await box.fill('which carrier');
    const matches = page.getByRole('table', { name: /^Tools matching “which carrier”/ });
    await matches.waitFor();
    const best = (await matches.locator('tbody tr').first().textContent()) ?? '';
    expect(best).toContain('lookup_order');
    expect(best).toContain('Orders');
    expect(best).toContain('its status and carrier');
    await checkPage(page, 'connections-tool-search');
    await box.fill('xylophone');
    await page.getByText('No tool matches “xylophone”').waitFor();
    // An emptied box shows nothing.
    await box.fill('');
    await page.getByText(/No tool matches/).waitFor({ state: 'detached' });
    expect(await page.getByRole('table', { name: /^Tools matching/ }).count()).toBe(0);

    await page.goto(at(`${workspace}/settings`));
    const form = page.getByRole('form', { name: 'Workspace settings' });
    await form.getByLabel('Tool search mode').selectOption('off');
    await form.getByLabel('Threshold (tools)').fill('12');
    await form.getByLabel('Pinned tools').fill('lookup_order\n  refund_order\n');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await page.reload();
    const pinned = page.getByRole('form', { name: 'Workspace settings' }).getByLabel('Pinned tools');
    await pinned.waitFor();
    expect(await pinned.inputValue()).toBe('lookup_order\nrefund_order');
    expect(await page.getByLabel('Tool search mode').inputValue()).toBe('off');
    expect(await page.getByLabel('Threshold (tools)').inputValue()).toBe('12');
    await checkPage(page, 'workspace-settings-tool-search');
  });

  it('asks with tool search on: the search shows what it found, then the tool it found runs', async () => {
    const saveSearch = async (mode: string, pinned: string) => {
      await page.goto(at(`${workspace}/settings`));
      const form = page.getByRole('form', { name: 'Workspace settings' });
      await form.getByLabel('Tool search mode').selectOption(mode);
      await form.getByLabel('Pinned tools').fill(pinned);
      await form.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();
    };
    await saveSearch('always', 'refund_order');
    await page.goto(at(`${workspace}/playground`));
    await page.getByLabel('Question').fill('Where is my order 42?');
    await page.getByRole('button', { name: 'Ask' }).click();
    const tools = page.getByRole('list', { name: 'Tool calls' });
    await tools.getByText(/search_tools among the workspace’s tools — done in .*: found lookup_order/).waitFor();
    await tools.getByText(/lookup_order.*on Orders — done in/).waitFor();
    await page.locator('.bubble.assistant:not([aria-busy])').filter({ hasText: ANSWER }).waitFor();
    await checkPage(page, 'playground-tool-search');
    // Back to what the next tests expect: every tool sent, both pinned.
    await saveSearch('off', 'lookup_order\nrefund_order');
  });

  it("shows the organisation's pages", async () => {
    for (const [path, title] of [
      ['/org', 'Users'],
      ['/org/teams', 'Teams'],
      ['/org/budgets', 'Budgets'],
      ['/org/settings', 'Settings'],
      ['/org/team-chat', 'Team chat'],
    ] as const) {
      await page.goto(at(path));
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await checkPage(page, `org-${title.toLowerCase().replace(' ', '-')}`);
    }
  });
});

describe('the on-call engineer', () => {
  it('sees a failed job with its reason and retries it from the operations page', async () => {
    // A conversation whose statistics fail: the model is down when the job runs (tried once here).
    service.script.failStats = true;
    // A failure here leaves the model up for the tests after it.
    onTestFinished(() => {
      service.script.failStats = false;
    });
    const asked = await page.request.post(at('/api/workspaces/ws-customer-support/query'), { data: { query: 'Where is order 7?' } });
    const { conversation_id: conversationId } = (await asked.json()) as { conversation_id: string };
    await page.request.post(at(`/api/workspaces/ws-customer-support/conversations/${conversationId}/close`));

    await page.goto(at('/ops'));
    const stats = page.getByRole('region', { name: 'conversation-stats', exact: true });
    await stats.getByRole('table').or(stats.getByText(conversationId)).first().waitFor();
    await expect.poll(async () => (await stats.textContent()) ?? '', { timeout: 15_000 }).toContain(conversationId);
    expect(await stats.textContent()).toMatch(/model/i);
    await checkPage(page, 'ops-failed');
    service.script.failStats = false;
    await stats.getByRole('button', { name: 'Retry all failed jobs of conversation-stats' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Retry all failed jobs' }).click();
    await stats.getByText(/Retried 1 job of conversation-stats/).waitFor();
    const failed = stats.locator('.stat').filter({ hasText: 'Failed' }).locator('dd');
    await expect.poll(() => failed.textContent(), { timeout: 15_000 }).toBe('0');
    // Retried, the job runs again and writes the statistics.
    const summary = async () => {
      const conversation = await page.request.get(at(`/api/workspaces/ws-customer-support/conversations/${conversationId}`));
      return ((await conversation.json()) as { stats: { summary: string | null } }).stats.summary;
    };
    await expect.poll(summary, { timeout: 15_000 }).toBe(STATS.summary);
    await checkPage(page, 'ops');
  });
});

describe('budgets', () => {
  const workspace = '/workspaces/ws-customer-support';
  const budgetCard = () => page.getByRole('article', { name: /Customer Support/ });
  /** What the workspace's budget has spent, as its meter says (capped at the limit). */
  const spent = () =>
    budgetCard()
      .getByRole('meter')
      .evaluate((meter) => (meter as HTMLMeterElement).value);
  /** Changes the limit of the workspace's budget on the budgets page. */
  const changeLimit = async (limit: string) => {
    await page.goto(at('/org/budgets'));
    await budgetCard()
      .getByRole('button', { name: /^Change/ })
      .click();
    const form = budgetCard().getByRole('form', { name: /^Change the budget of Customer Support/ });
    await form.getByLabel('Limit (USD)').fill(limit);
    await form.getByRole('button', { name: 'Save budget' }).click();
    await page.getByText(`Saved the budget of workspace Customer Support: $${Number(limit).toFixed(2)} per day.`).waitFor();
  };
  const ask = async (question: string) => {
    await page.goto(at(`${workspace}/playground`));
    await page.getByLabel('Question').fill(question);
    await page.getByRole('button', { name: 'Ask' }).click();
  };
  const banner = () => page.getByRole('region', { name: 'Budget exceeded' });

  it("adds a workspace budget from the Budgets page, the API's message next to its field first", async () => {
    await page.goto(at('/org/budgets'));
    await page.getByRole('heading', { level: 1, name: 'Budgets' }).waitFor();
    await page.getByText(/^No budgets yet/).waitFor();
    await page.getByRole('button', { name: 'Add budget' }).click();
    const form = page.getByRole('form', { name: 'Add a budget' });
    await form.getByLabel('Covers').selectOption('workspace');
    await form.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Customer Support' });
    await form.getByLabel('Period').selectOption('day');
    const limit = form.getByLabel('Limit (USD)');
    await limit.fill('0');
    await form.getByRole('button', { name: 'Add budget' }).click();
    await expect.poll(() => limit.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await limit.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()).toMatch(/more than 0/);
    await checkPage(page, 'org-budgets-add-error');

    await limit.fill('1');
    await form.getByRole('button', { name: 'Add budget' }).click();
    await page.getByText('Added a budget of $1.00 per day for workspace Customer Support.').waitFor();
    const card = budgetCard();
    // A budget covers the whole day: the questions asked in this workspace earlier today count.
    expect(await card.textContent()).toMatch(/\$0\.0\d+ of \$1\.00 spent \(\d%\)/);
    expect(await card.locator('.badge').textContent()).toBe('ok');
    const before = await spent();
    expect(before).toBeGreaterThan(0);
    // The next UTC midnight, shown in local time with the instant in `datetime`.
    expect(await card.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT00:00:00\.000Z$/);
    await checkPage(page, 'org-budgets-added');
  });

  it('counts a question in the playground against it, on the budgets page and the workspace overview', async () => {
    await page.goto(at('/org/budgets'));
    await budgetCard().getByRole('meter').waitFor();
    const before = await spent();
    await ask('Where is my order 42?');
    await page.locator('.bubble.assistant:not([aria-busy])').filter({ hasText: ANSWER }).waitFor();
    await page.goto(at('/org/budgets'));
    await expect
      .poll(async () => {
        await page.reload();
        await budgetCard().getByRole('meter').waitFor();
        return spent();
      })
      .toBeGreaterThan(before);
    expect(await budgetCard().textContent()).toMatch(/\$0\.0\d+ of \$1\.00 spent/);

    await page.goto(at(workspace));
    const budgets = page.getByRole('region', { name: 'Budgets' });
    await budgets.getByRole('meter').waitFor();
    expect(await budgets.textContent()).toMatch(/Workspace budget per day.*\$0\.0\d+ of \$1\.00 spent/);
    expect(await budgets.locator('time').getAttribute('datetime')).toMatch(/T00:00:00\.000Z$/);
    await checkPage(page, 'workspace-overview-budget');
  });

  it('refuses the next question once the budget is spent: the playground says why, and a banner shows it everywhere', async () => {
    // Two more answered questions take the day's spending past $0.01 (each costs $0.00369: 930 tokens in, 60 out).
    for (const query of ['Where is order 7?', 'Where is order 8?']) {
      const answered = await page.request.post(at('/api/workspaces/ws-customer-support/query'), { data: { query } });
      expect(answered.status()).toBe(200);
    }
    expect(await banner().count()).toBe(0);
    await changeLimit('0.01');
    expect(await budgetCard().locator('.badge').textContent()).toBe('exceeded');
    await banner().waitFor();
    const said = (await banner().textContent()) ?? '';
    expect(said).toMatch(/Budget exceeded: workspace Customer Support has spent \$0\.0[1-9]\d* of its \$0\.01 per day/);
    expect(await banner().locator('time').getAttribute('datetime')).toMatch(/T00:00:00\.000Z$/);
    await checkPage(page, 'org-budgets-exceeded');

    await ask('Where is my order 42?');
    // Refused before it ran (402): the API's message above the form, the question back in the box.
    const refusal = page.getByRole('alert').filter({ hasText: 'budget exceeded' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(
      /^budget exceeded: workspace "Customer Support" spent \$0\.0[1-9]\d* of \$0\.01 this day; resets at 00:00 UTC on \d{1,2} [A-Z][a-z]+ \d{4}$/,
    );
    expect(await page.getByLabel('Question').inputValue()).toBe('Where is my order 42?');
    await banner().waitFor();
    await checkPage(page, 'playground-budget-exceeded');
    await banner().getByRole('link', { name: 'See the budgets' }).click();
    await page.getByRole('heading', { level: 1, name: 'Budgets' }).waitFor();
  });

  it('raises the limit again: the banner goes and questions are answered again', async () => {
    await changeLimit('1');
    await banner().waitFor({ state: 'detached' });
    expect(await budgetCard().locator('.badge').textContent()).toBe('ok');
    await ask('Where is my order 42?');
    await page.locator('.bubble.assistant:not([aria-busy])').filter({ hasText: ANSWER }).waitFor();
    expect(await banner().count()).toBe(0);
  });

  it('adds an organisation budget and deletes it after a confirmation', async () => {
    await page.goto(at('/org/budgets'));
    await page.getByRole('button', { name: 'Add budget' }).click();
    const form = page.getByRole('form', { name: 'Add a budget' });
    await form.getByLabel('Covers').selectOption('org');
    // The organisation needs no choice of what it covers.
    expect(await form.getByLabel('Workspace', { exact: true }).count()).toBe(0);
    await form.getByLabel('Period').selectOption('month');
    await form.getByLabel('Limit (USD)').fill('50');
    await form.getByLabel('Alert at (% of the limit)').fill('90, 50');
    await form.getByRole('button', { name: 'Add budget' }).click();
    const card = page.getByRole('article', { name: /organisation, per month/ });
    await card.waitFor();
    expect(await card.textContent()).toContain('50%, 90%');
    await card.getByRole('button', { name: /^Delete/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete budget' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByText(/^Deleted the budget of the organisation Analytical per month/).waitFor();
    // The workspace's stays, for the member to see.
    await budgetCard().waitFor();
  });

  it('adds a routine budget: the workspace, then one of its routines; the card names the routine, also once it is deleted', async () => {
    const routines = at(`/api/workspaces/ws-customer-support/routines`);
    const made = await page.request.post(routines, {
      data: { name: 'Nightly check', prompt: 'Summarise the day.', trigger: { schedule: '0 2 * * *' }, enabled: false },
    });
    expect(made.status()).toBe(201);
    const routineId = (await made.json()).routine.id as string;
    await page.goto(at('/org/budgets'));
    await page.getByRole('button', { name: 'Add budget' }).click();
    const form = page.getByRole('form', { name: 'Add a budget' });
    await form.getByLabel('Covers').selectOption({ label: 'A routine' });
    // The workspace first: its routines are listed once it is chosen.
    expect(await form.getByLabel('Routine', { exact: true }).count()).toBe(0);
    await form.getByLabel('Workspace of the routine').selectOption({ label: 'Customer Support' });
    await form.getByLabel('Routine', { exact: true }).selectOption({ label: 'Nightly check' });
    await form.getByLabel('Period').selectOption('day');
    await form.getByLabel('Limit (USD)').fill('2');
    await checkPage(page, 'org-budgets-add-routine');
    await form.getByRole('button', { name: 'Add budget' }).click();
    await page.getByText('Added a budget of $2.00 per day for routine Nightly check.').waitFor();
    const card = page.getByRole('article', { name: 'Nightly check · routine, per day' });
    await card.waitFor();
    expect(await card.locator('dd').first().textContent()).toBe('routine Nightly check');
    expect(await card.textContent()).not.toContain(routineId);

    // Its routine deleted, the budget keeps the name it was made with.
    expect((await page.request.delete(`${routines}/${routineId}`)).status()).toBe(200);
    await page.reload();
    await card.waitFor();
    expect(await card.locator('dd').first().textContent()).toBe('routine Nightly check');
    await card.getByRole('button', { name: /^Delete/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete budget' }).click();
    await card.waitFor({ state: 'detached' });
  });

  it('shows the prompt cache hit rate on the dashboard, as a figure and a chart named with its numbers', async () => {
    await page.goto(at(`${workspace}/dashboard`));
    const cache = page.getByRole('region', { name: 'Prompt cache' });
    const rate = cache.locator('.stat').filter({ hasText: 'Cache hit rate' }).locator('dd');
    await rate.waitFor();
    // The fake model reports no cache reads: all the input was uncached.
    expect(await rate.textContent()).toBe('0%');
    const uncached = (await cache.locator('.stat').filter({ hasText: 'Uncached input' }).locator('dd').textContent()) ?? '';
    expect(Number(uncached.replace(/\D/g, ''))).toBeGreaterThan(0);
    const chart = cache.getByRole('img', { name: /^Prompt cache hit rate per day/ });
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toMatch(/: 0% of input read from the cache over the \d+ days; highest 0% on/);
    await checkPage(page, 'dashboard-cache');
  });
});

describe('evaluations', () => {
  const workspace = '/workspaces/ws-customer-support';
  const NAME = 'Order questions';
  /** A case of the evaluation editor: its group, named by its legend ("Case 2", "Case 1 (case-1)"). */
  const caseOf = (form: Locator, n: number) => form.getByRole('group', { name: new RegExp(`^Case ${n}\\b`) });
  const runs = () => page.getByRole('table', { name: 'Runs' });
  /** Waits until the newest run is done (the page asks again every 1.5 s while it is queued or running). */
  const newestDone = async () => {
    const newest = runs().locator('tbody tr').first();
    await expect.poll(async () => (await newest.locator('.badge').textContent()) ?? '', { timeout: 30_000 }).toBe('done');
    return newest;
  };

  it("creates an evaluation of two cases, the API's message next to a case's field first", async () => {
    await page.goto(at(workspace));
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Evaluations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Evaluations' }).waitFor();
    await page.getByText(/^No evaluations yet/).waitFor();
    await checkPage(page, 'evals-empty');

    await page.getByRole('button', { name: 'New evaluation' }).click();
    const form = page.getByRole('form', { name: 'New evaluation' });
    await form.getByLabel('Name', { exact: true }).fill(NAME);
    // One that passes: the fake model looks the order up and says it has shipped with Parcelways.
    await caseOf(form, 1).getByLabel('Question').fill('Where is my order 42?');
    await caseOf(form, 1).getByLabel('Tools it must call').fill('lookup_order');
    await caseOf(form, 1).getByLabel('Texts the answer must contain').fill('has shipped\nparcelways');
    // One that fails: the fake never says this. Its question left empty first.
    await form.getByRole('button', { name: 'Add a case' }).click();
    await caseOf(form, 2).getByLabel('Texts the answer must contain').fill('refund issued');
    await form.getByRole('button', { name: 'Create evaluation' }).click();
    const question = caseOf(form, 2).getByLabel('Question');
    await expect.poll(() => question.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await question.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()).toMatch(/must not be empty/);
    expect(await caseOf(form, 1).getByLabel('Question').getAttribute('aria-invalid')).toBeNull();
    await checkPage(page, 'evals-new-error');

    await question.fill('Has the refund for order 42 been issued?');
    await form.getByRole('button', { name: 'Create evaluation' }).click();
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    const cases = page.getByRole('region', { name: 'Cases (2)' });
    await cases.waitFor();
    const said = (await cases.textContent()) ?? '';
    expect(said).toContain('case-1');
    expect(said).toContain('Calls lookup_order.');
    expect(said).toContain('The answer contains “has shipped” and “parcelways”');
    expect(said).toContain('The answer contains “refund issued”');
    await page.getByText(/^No finished runs yet/).waitFor();
    await page.getByText(/^No runs yet/).waitFor();
    await checkPage(page, 'eval');
  });

  it('runs it: the page follows the run until it is done, scores it 50%, and the run says why the second case failed', async () => {
    await page.getByRole('button', { name: `Run ${NAME}` }).click();
    const newest = await newestDone();
    expect(await newest.locator('td').nth(1).textContent()).toBe('50%');
    await page
      .getByRole('status')
      .getByText(/is done: score 50%, 1 passed, 1 failed\./)
      .waitFor();
    const chart = page.getByRole('region', { name: 'Score' }).getByRole('img', { name: /^Score of the last finished run/ });
    expect(await chart.getAttribute('aria-label')).toMatch(/: 50% \(1 of 2 cases passed\) on /);
    await checkPage(page, 'eval-ran');
    // The list of evaluations shows it as the last run.
    await page.getByRole('link', { name: 'All evaluations' }).click();
    const row = page.getByRole('table', { name: 'Evaluations' }).getByRole('row', { name: new RegExp(NAME) });
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('50%');
    expect(await row.textContent()).toContain('done');
    await checkPage(page, 'evals');

    await row.getByRole('link', { name: /run of Order questions$/ }).click();
    await page.getByRole('heading', { level: 1, name: /^Run of / }).waitFor();
    const figures = (await page.locator('.stats').textContent()) ?? '';
    expect(figures).toContain('Score50%');
    expect(figures).toContain('Passed1');
    expect(figures).toContain('Failed1');
    const results = page.getByRole('region', { name: 'Results' }).getByRole('article');
    await results.nth(1).waitFor();
    // The failure first, in words.
    const failed = (await results.first().textContent()) ?? '';
    expect(failed).toContain('case-2');
    expect(failed).toContain('failed');
    expect(failed).toContain('the answer does not contain "refund issued"');
    expect(failed).toContain('lookup_order');
    const passed = (await results.nth(1).textContent()) ?? '';
    expect(passed).toContain('Every expectation held.');
    expect(passed).toContain(ANSWER);
    await page.getByText('The first finished run of this evaluation: nothing to compare it with.').waitFor();
    await checkPage(page, 'eval-run');
  });

  it('edits a case and tries other settings: the case that passed before fails now, first and marked as a regression', async () => {
    await page.getByRole('link', { name: 'Back to the evaluation' }).click();
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    await page.getByRole('button', { name: `Edit the cases of ${NAME}` }).click();
    const form = page.getByRole('form', { name: `Edit ${NAME}` });
    expect(await caseOf(form, 1).getByLabel('Tools it must call').inputValue()).toBe('lookup_order');
    await caseOf(form, 1).getByLabel('Texts the answer must not contain').fill('Parcelways');
    await checkPage(page, 'eval-edit');
    await form.getByRole('button', { name: 'Save evaluation' }).click();
    await page.getByText(`Saved ${NAME}: 2 cases.`).waitFor();
    expect(await page.getByRole('region', { name: 'Cases (2)' }).textContent()).toContain('The answer does not contain “Parcelways”.');

    await page.getByRole('button', { name: 'Try these settings' }).click();
    const settings = page.getByRole('form', { name: 'Try these settings' });
    // It starts from the workspace's own prompt.
    expect(await settings.getByLabel('System prompt').inputValue()).toBe('You help our customers.');
    await settings.getByLabel('System prompt').fill('You help our customers, briefly.');
    await settings.getByLabel('Model').selectOption('fast');
    await checkPage(page, 'eval-try-settings');
    await settings.getByRole('button', { name: 'Run with these settings' }).click();
    await settings.waitFor({ state: 'detached' });
    await expect.poll(() => runs().locator('tbody tr').count()).toBe(2);
    const newest = await newestDone();
    expect(await newest.locator('td').nth(1).textContent()).toBe('0%');
    expect(await newest.textContent()).toContain('Tried model fast and another system prompt');
    await page
      .getByRole('status')
      .getByText(/is done: score 0%, 0 passed, 2 failed, 1 regression\./)
      .waitFor();

    await newest.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: /^Run of / }).waitFor();
    const results = page.getByRole('region', { name: 'Results' }).getByRole('article');
    await results.nth(1).waitFor();
    const first = results.first();
    expect(await page.getByRole('region', { name: 'Results' }).getByRole('article', { name: 'Regression: case-1' }).count()).toBe(1);
    const regression = (await first.textContent()) ?? '';
    expect(regression).toMatch(/^Regression: case-1/);
    expect(regression).toContain('regression');
    expect(regression).toContain('the answer contains "Parcelways", which it must not');
    const about = page.getByRole('region', { name: 'About this run' });
    expect(await about.textContent()).toContain('You help our customers, briefly.');
    expect(await about.textContent()).toMatch(/1 case that passed then fails now \(case-1\)/);
    await checkPage(page, 'eval-run-regression');
    // Compared to the first run, one click away.
    await about.getByRole('link', { name: /^Run of / }).click();
    await page.getByRole('heading', { level: 1, name: /^Run of / }).waitFor();
    await page.getByText('The first finished run of this evaluation: nothing to compare it with.').waitFor();
  });

  it('adds a case from an answer of a conversation with “Add to evaluation”, its question and tools filled in', async () => {
    const asked = await page.request.post(at('/api/workspaces/ws-customer-support/query'), { data: { query: 'Where is my order 51?' } });
    expect(asked.status()).toBe(200);
    const { conversation_id: conversationId } = (await asked.json()) as { conversation_id: string };
    await page.goto(at(`${workspace}/conversations/${conversationId}`));
    await page.locator('.transcript-about').waitFor();
    const answer = page.locator('.transcript-assistant').first();
    await answer.getByRole('button', { name: /^Add to evaluation/ }).click();
    const form = answer.getByRole('form', { name: 'Add this answer to an evaluation' });
    await form.waitFor();
    expect(await form.getByLabel('Evaluation').locator('option:checked').textContent()).toBe(`${NAME} (2 cases)`);
    expect(await form.getByLabel('Question').inputValue()).toBe('Where is my order 51?');
    expect(await form.getByLabel('Tools it must call').inputValue()).toContain('lookup_order');
    await form.getByLabel('Texts the answer must contain').fill('has shipped');
    await checkPage(page, 'transcript-add-to-eval');
    await form.getByRole('button', { name: 'Add case' }).click();
    await answer.getByRole('status').getByText(`Added case case-3 to ${NAME}.`).waitFor();

    await answer.getByRole('link', { name: NAME }).click();
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    const added = (await page.getByRole('region', { name: 'Cases (3)' }).locator('.eval-case').nth(2).textContent()) ?? '';
    expect(added).toContain('case-3');
    expect(added).toContain('Where is my order 51?');
    expect(added).toMatch(/Calls \S*lookup_order\./);
    expect(added).toContain('The answer contains “has shipped”');
  });
});

describe('single sign-on', () => {
  const issuer = 'http://127.0.0.1:9/nowhere';
  const domain = 'sso-browser.test';

  /** The API's message under a field (the last id its description names). */
  const messageOf = async (target: Page, field: Locator) => {
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    return target.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent();
  };

  it('tests a provider that cannot be reached, and says so', async () => {
    await page.goto(at('/org'));
    await page.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
    await page.getByText('Single sign-on is off: everyone signs in with a password.').waitFor();
    const form = page.getByRole('form', { name: 'Single sign-on setting' });
    await form.getByLabel('Issuer').fill(issuer);
    await form.getByLabel('Client id').fill('browser-client');
    await form.getByRole('button', { name: 'Test the provider' }).click();
    await form.getByText(/The provider could not be used: .*127\.0\.0\.1:9/).waitFor();
    await checkPage(page, 'org-sso-test');
  });

  it('saves the setting, and shows the redirect URI and the masked secret after a reload', async () => {
    const form = page.getByRole('form', { name: 'Single sign-on setting' });
    await form.getByLabel('Client secret').fill('browser-secret');
    await form.getByLabel('Domains').fill(domain);
    expect(await form.getByLabel('Required').isChecked()).toBe(false);
    await form.getByRole('button', { name: 'Save single sign-on' }).click();
    await form.getByText('Saved single sign-on.').waitFor();
    expect(await form.getByLabel('Client secret').inputValue()).toBe('');

    await page.reload();
    const current = page.getByRole('region', { name: 'Current setting' });
    await current.getByText(issuer).waitFor();
    // Who configured it is named once the users' list (a request of its own) has come.
    await current.getByText('Ada Lovelace').waitFor();
    const text = (await current.textContent()) ?? '';
    expect(text).toContain('••••••••');
    expect(text).not.toContain('browser-secret');
    expect(text).toContain(domain);
    expect(text).toContain('No: passwords still work.');
    expect(text).toContain('Ada Lovelace');
    expect(await page.getByRole('region', { name: 'Redirect URI' }).textContent()).toContain(at('/api/auth/sso/callback'));
    expect(await page.getByLabel('Domains').inputValue()).toBe(domain);
    await checkPage(page, 'org-sso');
  });

  it('refuses a domain that is not one, next to its field', async () => {
    const form = page.getByRole('form', { name: 'Single sign-on setting' });
    await form.getByLabel('Client secret').fill('browser-secret');
    await form.getByLabel('Domains').fill(`${domain}\nnot a domain`);
    await form.getByRole('button', { name: 'Save single sign-on' }).click();
    expect(await messageOf(page, form.getByLabel('Domains'))).toBe('not a domain: an e-mail domain, such as example.com');
    await checkPage(page, 'org-sso-error');
  });

  it('offers single sign-on on the sign-in page: an unknown domain is refused next to the field', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const visitor = await context.newPage();
    try {
      await visitor.goto(at('/signin'));
      await visitor.getByRole('link', { name: 'Sign in with single sign-on' }).click();
      const form = visitor.getByRole('form', { name: 'Sign in with single sign-on' });
      await form.getByLabel('Email').fill('someone@nobody-signs-in.test');
      await form.getByRole('button', { name: 'Continue with single sign-on' }).click();
      expect(await messageOf(visitor, form.getByLabel('Email'))).toMatch(/no organisation signs in this e-mail domain/);
      expect(visitor.url()).toBe(at('/signin?sso='));
      await checkPage(visitor, 'sign-in-sso-unknown');

      // A known domain whose provider cannot be reached: the check says so, and the browser stays.
      await form.getByLabel('Email').fill(`ada@${domain}`);
      await form.getByRole('button', { name: 'Continue with single sign-on' }).click();
      await form
        .getByRole('alert')
        .getByText(/identity provider could not be reached/)
        .waitFor();
      expect(visitor.url()).toBe(at('/signin?sso='));

      await visitor.getByRole('link', { name: 'Sign in with a password' }).click();
      await visitor.getByLabel('Password').waitFor();
    } finally {
      await context.close();
    }
  });

  it('is turned off after a confirmation', async () => {
    await page.getByRole('button', { name: 'Turn off single sign-on' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Turn off single sign-on' }).click();
    await page.getByText('Single sign-on is off: everyone signs in with a password.').waitFor();
    // Off is an answer, not an error: the page reads it without a failed request.
    const read = await page.request.get(at('/api/org/sso'));
    expect(read.status()).toBe(200);
    expect(await read.json()).toEqual({ sso: null });
  });
});

describe('provisioning', () => {
  let token = '';

  it('creates a SCIM token shown once, with which the identity provider creates a user and deactivates them', async () => {
    await page.goto(at('/org'));
    await page.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'Provisioning' }).click();
    await page.getByRole('heading', { level: 1, name: 'Provisioning' }).waitFor();
    const baseUrl = String(await page.getByRole('region', { name: 'SCIM base URL' }).locator('.secret-row code').textContent());
    expect(baseUrl).toMatch(/\/scim\/v2$/);
    const state = page.getByRole('region', { name: 'Token' });
    await state.getByText('No token yet').waitFor();
    const lastSync = state.locator('dt:text-is("Last sync") + dd');
    expect(await lastSync.textContent()).toBe('never');
    await checkPage(page, 'org-provisioning-empty');

    await state.getByRole('button', { name: 'Create token' }).click();
    const field = state.getByRole('textbox', { name: 'SCIM token', exact: true });
    await field.waitFor();
    token = await field.inputValue();
    expect(token).toMatch(/^scim\./);
    expect(await field.getAttribute('readonly')).not.toBeNull();
    await state.getByText('It will not be shown again.', { exact: false }).waitFor();
    expect(await state.locator('dt:text-is("Token") + dd').textContent()).toMatch(/…, created /);
    await checkPage(page, 'org-provisioning-token');

    // The identity provider's requests, with the token the admin copied.
    const scim = (method: string, path: string, body: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify(body),
      });
    const created = await scim('POST', '/Users', { userName: 'pat@example.test' });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    // Shown once: gone after a reload, where the provider's call shows as the last sync.
    await page.reload();
    await state.getByText(/, created /).waitFor();
    expect(await page.locator('main').textContent()).not.toContain(token);
    expect(await state.getByRole('textbox', { name: 'SCIM token', exact: true }).count()).toBe(0);
    expect(await lastSync.textContent()).toMatch(/^\d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/);

    await page.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'Users' }).click();
    const row = page.getByRole('row', { name: /pat@example\.test/ });
    await row.waitFor();
    expect(await row.textContent()).not.toContain('Deactivated');

    const off = await scim('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(off.status, await off.clone().text()).toBe(200);
    await page.reload();
    await row.getByText('Deactivated').waitFor();
    expect(await page.getByRole('row', { name: /Ada Lovelace/ }).textContent()).not.toContain('Deactivated');
    await checkPage(page, 'org-users-deactivated');
  });

  it('replaces the token after a confirmation, the old one refused, and is turned off after a confirmation', async () => {
    await page.goto(at('/org/provisioning'));
    const state = page.getByRole('region', { name: 'Token' });
    await state.getByRole('button', { name: 'Replace token' }).click();
    await page.getByRole('dialog', { name: 'Replace the SCIM token?' }).getByRole('button', { name: 'Replace token' }).click();
    const field = state.getByRole('textbox', { name: 'SCIM token', exact: true });
    await field.waitFor();
    const replacement = await field.inputValue();
    expect(replacement).toMatch(/^scim\./);
    expect(replacement).not.toBe(token);
    const users = (bearer: string) => fetch(at('/scim/v2/Users'), { headers: { authorization: `Bearer ${bearer}` } });
    expect((await users(token)).status).toBe(401);
    expect((await users(replacement)).status).toBe(200);
    await state.getByRole('button', { name: 'Done' }).click();
    await field.waitFor({ state: 'detached' });
    expect(await page.locator('main').textContent()).not.toContain(replacement);

    await state.getByRole('button', { name: 'Turn off provisioning' }).click();
    await page.getByRole('dialog', { name: 'Turn provisioning off?' }).getByRole('button', { name: 'Turn off provisioning' }).click();
    await state.getByText('No token yet').waitFor();
    expect((await users(replacement)).status).toBe(401);
    await state.getByRole('button', { name: 'Create token' }).waitFor();
  });
});

describe('a member', () => {
  it('is added by the admin on the users page', async () => {
    await page.goto(at('/org'));
    await page.getByRole('button', { name: 'Add user' }).click();
    const form = page.getByRole('form', { name: 'Add a user' });
    await form.getByLabel('Name').fill('Grace Hopper');
    await form.getByLabel('Email').fill('grace@example.com');
    await form.getByLabel('Password').fill('compiler pioneer');
    await form.getByLabel('Role').selectOption('member');
    await form.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor();
  });

  it('sees the data but none of the admin actions', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const member = await context.newPage();
    try {
      await member.goto(at('/signin'));
      await member.getByLabel('Email').fill('grace@example.com');
      await member.getByLabel('Password').fill('compiler pioneer');
      await member.getByRole('button', { name: 'Sign in' }).click();
      // Signing in lands on the chat; the workspaces are a click away.
      await member.getByRole('heading', { level: 1, name: /^Chat/ }).waitFor();
      await member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workspaces' }).click();
      await member.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
      await member.getByRole('row', { name: /Customer Support/ }).waitFor();
      expect(await member.getByRole('button', { name: 'New workspace' }).count()).toBe(0);
      expect(await member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).count()).toBe(0);
      await checkPage(member, 'member-workspaces');

      await member.goto(at('/workspaces/ws-customer-support/connections'));
      await member.getByRole('article', { name: 'Orders' }).waitFor();
      for (const name of ['Add a connection', 'Delete connection Orders', 'Edit credentials of Orders']) {
        expect(await member.getByRole('button', { name }).count(), name).toBe(0);
      }
      expect(await member.getByRole('article', { name: 'Orders' }).textContent()).toContain('shown to admins');
      // Any member may search the tools.
      await member.getByLabel('Search tools').fill('refund');
      await member
        .getByRole('table', { name: /^Tools matching “refund”/ })
        .getByRole('row', { name: /refund_order/ })
        .waitFor();
      await checkPage(member, 'member-connections');

      await member.goto(at('/workspaces/ws-customer-support/settings'));
      await member.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      await member.getByRole('region', { name: 'General' }).waitFor();
      expect(await member.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
      expect(await member.getByRole('region', { name: 'Tool search' }).textContent()).toContain('lookup_order, refund_order');

      await member.goto(at('/org'));
      await member.getByRole('row', { name: /Ada Lovelace/ }).waitFor();
      expect(await member.getByRole('button', { name: 'Add user' }).count()).toBe(0);
      expect(await member.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
      expect(await member.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'Single sign-on' }).count()).toBe(0);
      expect(await member.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'Provisioning' }).count()).toBe(0);

      // The budgets, read only.
      await member.goto(at('/org/budgets'));
      await member
        .getByRole('article', { name: /Customer Support/ })
        .getByRole('meter')
        .waitFor();
      for (const name of [/^Add budget/, /^Change/, /^Delete/]) expect(await member.getByRole('button', { name }).count()).toBe(0);
      await checkPage(member, 'member-budgets');

      await member.goto(at('/ops'));
      await member.getByText('Only admins of the organisation see operations.').waitFor();
      await checkPage(member, 'member-ops');
    } finally {
      await context.close();
    }
  });

  it('sees the evaluations, their runs and results, read only', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const member = await context.newPage();
    try {
      await member.goto(at('/signin?next=%2Fworkspaces%2Fws-customer-support%2Fevals'));
      await member.getByLabel('Email').fill('grace@example.com');
      await member.getByLabel('Password').fill('compiler pioneer');
      await member.getByRole('button', { name: 'Sign in' }).click();
      await member.getByRole('heading', { level: 1, name: 'Evaluations' }).waitFor();
      await member
        .getByRole('table', { name: 'Evaluations' })
        .getByRole('row', { name: /Order questions/ })
        .waitFor();
      expect(await member.getByRole('button', { name: 'New evaluation' }).count()).toBe(0);
      await checkPage(member, 'member-evals');

      await member.getByRole('link', { name: 'Order questions', exact: true }).click();
      await member.getByRole('region', { name: 'Cases (3)' }).waitFor();
      await member.getByRole('table', { name: 'Runs' }).waitFor();
      expect(await member.getByRole('table', { name: 'Runs' }).locator('tbody tr').count()).toBe(2);
      for (const name of [/^Run/, 'Try these settings', /^Edit/, /^Delete/])
        expect(await member.getByRole('button', { name }).count()).toBe(0);
      await checkPage(member, 'member-eval');

      await member.getByRole('table', { name: 'Runs' }).locator('tbody tr').first().getByRole('link').click();
      await member.getByRole('region', { name: 'Results' }).getByRole('article', { name: 'Regression: case-1' }).waitFor();

      // No "Add to evaluation" on a transcript's answers (of the member's own conversation: the
      // admin's are private to the admin).
      const asked = await member.request.post(at('/api/workspaces/ws-customer-support/query'), { data: { query: 'Where is my order?' } });
      expect(asked.status()).toBe(200);
      await member.goto(at('/workspaces/ws-customer-support/conversations'));
      await member.getByRole('table', { name: 'Conversations' }).locator('tbody tr').first().getByRole('link').first().click();
      await member.locator('.transcript-about').waitFor();
      await member.locator('.transcript-assistant').first().waitFor();
      expect(await member.getByRole('button', { name: /^Add to evaluation/ }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('a chat user', () => {
  it('opens the link the bot sent them, signs in, confirms, and sees their chat account linked', async () => {
    // What the bot does when an unlinked chat user presses Approve: a one-time link, sent only to them.
    const session = (await (await page.request.get(at('/api/auth/session'))).json()) as { user: { org_id: string } };
    const account = { teamId: 'T0CHAT', teamName: 'Analytical chat', userId: 'U0ADA', userName: 'Ada in chat' };
    const token = await requestChatLink(service.runtime.deps, session.user.org_id, account);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const chatUser = await context.newPage();
    try {
      // Signed out: sign in first, then back to the link.
      await chatUser.goto(at(`/chat/link/${token}`));
      await chatUser.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await chatUser.getByLabel('Email').fill('ada@example.com');
      await chatUser.getByLabel('Password').fill('analytical engine');
      await chatUser.getByRole('button', { name: 'Sign in' }).click();
      await chatUser.getByRole('heading', { level: 1, name: 'Link your chat account' }).waitFor();
      const main = chatUser.locator('main');
      await main.getByText('Ada in chat').first().waitFor();
      expect(await main.textContent()).toContain('Analytical chat');
      expect(await main.textContent()).toContain('U0ADA');
      await chatUser.getByText('No chat account is linked to you.').waitFor();
      await checkPage(chatUser, 'chat-link');

      await chatUser.getByRole('button', { name: 'Confirm: link this chat account to me' }).click();
      await chatUser.getByText(/Linked: the chat account/).waitFor();
      await chatUser
        .getByRole('table', { name: 'Chat accounts linked to you' })
        .getByRole('row', { name: /Ada in chat/ })
        .waitFor();
      await checkPage(chatUser, 'chat-linked');
      // The link works once.
      await chatUser.reload();
      await chatUser.getByText(/already used/).waitFor();
    } finally {
      await context.close();
    }
  });
});
