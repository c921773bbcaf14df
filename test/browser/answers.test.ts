import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { ANSWER, CODE_LINE, startConsoleService, type ConsoleService } from './service.js';

/**
 * Answers as people read them: the model's Markdown (a list, a table, code with Copy, links that
 * open safely, a `javascript:` link that is no link) in the playground, the transcript and the
 * approvals; tool calls that open to show their arguments and result; the number of calls waiting
 * for a decision on the Approvals tab; an answer stopped mid-way (Stop, Escape), copied whole.
 */

let service: ConsoleService;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const workspace = '/workspaces/ws-orders';
const at = (path: string) => `${service.url}${path}`;
const TRACKING = 'https://parcels.example/track/42';

beforeAll(async () => {
  service = await startConsoleService();
  service.script.markdown = true;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
  // The answer's link leads off this machine: answered here, so nothing leaves it.
  await context.route(`${TRACKING}**`, (route) => route.fulfill({ contentType: 'text/plain', body: 'Order 42: in transit' }));
  page = await context.newPage();
});
afterEach(async (test) => {
  if (test.task.result?.state === 'fail') await saveFailure(page, test.task.name);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** The Markdown of the fake model's answer, as a reader meets it inside `answer`. */
async function expectRenderedAnswer(answer: Locator): Promise<void> {
  await answer.getByRole('listitem').filter({ hasText: 'shipped with Parcelways' }).waitFor();
  expect(await answer.getByRole('listitem').allTextContents()).toEqual(['shipped with Parcelways', 'arrives within 2 days']);
  const table = answer.getByRole('table');
  expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Item', 'Qty']);
  expect(
    await table
      .getByRole('row', { name: /Teapot/ })
      .getByRole('cell')
      .allTextContents(),
  ).toEqual(['Teapot', '1']);
  // The link the model wrote opens in a new tab that cannot reach back to the console.
  const link = answer.getByRole('link', { name: /the tracking page/ });
  expect(await link.getAttribute('href')).toBe(TRACKING);
  const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await popup.waitForLoadState();
  expect(popup.url()).toBe(TRACKING);
  expect(await popup.evaluate(() => window.opener)).toBeNull();
  await popup.close();
  // A javascript: link is shown as its words, not as a link.
  await answer.getByText('run this').waitFor();
  expect(await answer.getByRole('link', { name: /run this/ }).count()).toBe(0);
  // The code block, and Copy puts its text on the clipboard.
  await answer.getByText(CODE_LINE).waitFor();
  await answer.getByRole('button', { name: 'Copy the code' }).click();
  await answer.getByRole('button', { name: 'Copied the code' }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE_LINE);
}

/** Opens the lookup_order call in `tools` and checks what it was given and answered. */
async function expectToolCallOpens(tools: Locator): Promise<void> {
  const call = tools.locator('details').filter({ hasText: 'lookup_order' });
  await call.locator('summary').click();
  const body = (await call.textContent()) ?? '';
  expect(body).toContain('Arguments');
  expect(body).toContain('"order_id": "42"');
  expect(body).toContain('Result');
  expect(body).toContain('order 42 has shipped with Parcelways; it arrives within 2 days');
}

describe('answers in Markdown', () => {
  it('sets up a workspace with the orders server', async () => {
    await page.goto(at('/signup'));
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Organisation name').fill('Compilers');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    await page.getByRole('button', { name: 'New workspace' }).click();
    await page.getByLabel('Name').fill('Orders');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.waitForURL(at(workspace));
    await page.goto(at(`${workspace}/connections`));
    await page.getByRole('button', { name: 'Add a connection' }).click();
    const form = page.getByRole('form', { name: 'Add a connection' });
    await form.getByLabel('Name').fill('Orders');
    await form.getByLabel('Transport').selectOption({ label: 'stdio: a server the service runs' });
    await form.getByLabel('Server').selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Save connection' }).click();
    await page.getByRole('article', { name: 'Orders' }).getByRole('table', { name: 'Tools of Orders' }).waitFor();
  });

  it('shows the answer rendered in the playground, and its tool call opens', async () => {
    await page.goto(at(`${workspace}/playground`));
    await page.getByLabel('Question').fill('Where is my order 42?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByRole('link', { name: 'View transcript' }).waitFor();
    await expectRenderedAnswer(page.locator('.bubble.assistant'));
    await expectToolCallOpens(page.getByRole('list', { name: 'Tool calls' }));
    await checkPage(page, 'answers-playground');
  });

  it('shows the same in the transcript', async () => {
    await page.getByRole('link', { name: 'View transcript' }).click();
    await page.locator('.transcript-about').waitFor();
    await expectRenderedAnswer(page.locator('.transcript-assistant .bubble'));
    await expectToolCallOpens(page.getByRole('list', { name: 'Tool calls' }));
    await checkPage(page, 'answers-transcript');
  });

  it('fits an answer with a long code line and a table on a 390 px phone: the code scrolls inside its block, not the page', async () => {
    const transcript = page.url();
    const phone = await context.newPage();
    try {
      for (const url of [transcript, at(`${workspace}/playground`)]) {
        // checkPage (below) ends at its wide size: back to the phone's.
        await phone.setViewportSize({ width: 390, height: 844 });
        await phone.goto(url);
        if (url !== transcript) {
          await phone.getByLabel('Question').fill('Where is my order 42, on the phone?');
          await phone.getByRole('button', { name: 'Ask' }).click();
          await phone.getByRole('link', { name: 'View transcript' }).waitFor();
        }
        const code = phone.locator('.markdown-code pre').last();
        await code.waitFor();
        // The page is no wider than the phone; the long line scrolls within its block.
        await expect
          .poll(() => phone.evaluate(() => document.documentElement.scrollWidth), {
            message: `${url} at ${phone.viewportSize()?.width} px`,
          })
          .toBeLessThanOrEqual(390);
        const box = await code.evaluate((pre) => ({ scroll: pre.scrollWidth, client: pre.clientWidth }));
        expect(box.scroll).toBeGreaterThan(box.client);
        await checkPage(phone, url === transcript ? 'answers-phone-transcript' : 'answers-phone-playground');
      }
    } finally {
      await phone.close();
    }
  });

  it('stops an answer mid-way (Stop, or Escape in the question box), keeps what was answered, and copies the whole answer', async () => {
    service.script.markdown = false;
    try {
      await page.goto(at(`${workspace}/playground`));
      const turns = page.locator('.chat-turn');
      const stopMidWay = async (question: string, stop: () => Promise<void>) => {
        await page.getByLabel('Question').fill(question);
        await page.getByRole('button', { name: 'Ask' }).click();
        const answer = turns.last().locator('.bubble.assistant');
        // The answer streams slowly (ANSWER, 8 characters every 150 ms): stopped after its first words.
        await answer.getByText(/Order 42/).waitFor();
        await stop();
        await answer.getByText('Stopped: this is what was answered before you stopped it.').waitFor();
        expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
        const text = (await answer.locator('.markdown').textContent()) ?? '';
        expect(ANSWER.startsWith(text.trim())).toBe(true);
        expect(text.trim().length).toBeLessThan(ANSWER.length);
        return { answer, text: text.trim() };
      };
      const first = await stopMidWay('Where is order 42 now?', () => page.getByRole('button', { name: 'Stop' }).click());
      await first.answer.getByRole('button', { name: 'Copy the answer' }).click();
      await first.answer.getByRole('button', { name: 'Copied the answer' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.text);
      await checkPage(page, 'answers-stopped');
      await stopMidWay('And when does it arrive?', () => page.getByLabel('Question').press('Escape'));

      // The transcript keeps what was answered, marked stopped, as far as the service had sent it.
      await turns.last().getByRole('link', { name: 'View transcript' }).click();
      await page.locator('.transcript-about').waitFor();
      const stopped = page.getByText('Stopped: the person stopped this answer here.');
      await expect.poll(() => stopped.count()).toBe(2);
    } finally {
      service.script.markdown = true;
    }
  });

  it('counts the calls waiting for approval on the Approvals tab, and renders the answer after a decision', async () => {
    await page.goto(at(`${workspace}/settings`));
    await page.getByLabel('Approval mode').selectOption('patterns');
    await page.getByLabel('Approval patterns').fill('*lookup_order');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const tab = page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: /^Approvals/ });
    expect(await tab.textContent()).toBe('Approvals');

    await page.goto(at(`${workspace}/playground`));
    await page.getByLabel('Question').fill('And order 42 again?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByRole('button', { name: /^Approve/ }).waitFor();
    // Opened again (a reload), the chat says the question waits and offers nothing to redo on it.
    await page.waitForURL(/\/chat\/[^/]+\/c\//);
    await page.reload();
    await page.getByText('A tool call waits for approval').waitFor();
    expect(await page.getByRole('button', { name: 'Regenerate the answer' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit your question' }).count()).toBe(0);
    // The chat is a page of its own: the workspace's tabs count what waits.
    await page.goto(at(workspace));
    await expect.poll(() => tab.evaluate((link) => link.textContent)).toBe('Approvals 1 pending');

    await tab.click();
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    await page.getByRole('button', { name: /^Approve the call to .*lookup_order/ }).click();
    const outcome = page.getByRole('region', { name: /You chose to approve/ });
    await outcome.getByRole('table').getByRole('cell', { name: 'Teapot' }).waitFor();
    expect(await outcome.getByRole('link', { name: /run this/ }).count()).toBe(0);
    await expect.poll(() => tab.evaluate((link) => link.textContent)).toBe('Approvals');
    await checkPage(page, 'answers-approvals');
  });
});
