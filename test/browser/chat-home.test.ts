import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { ANSWER, CODE_LINE, startConsoleService, type ConsoleService } from './service.js';

/*
 * The chat home (issue 47): signing in lands on Chat; the person's chats are listed beside the
 * conversation (newest first, searchable, renamed, pinned, deleted from the history); a chat opened
 * from the history, or after a reload, goes on with the same session; the last answer is
 * regenerated, the last question edited and asked again; an answer with a code block fits a phone.
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
let workspaceId = '';

/** The finished answers on the page. */
const answers = (on: Page) => on.locator('.bubble.assistant:not([aria-busy])');

async function ask(on: Page, question: string): Promise<void> {
  const before = await answers(on).count();
  await on.getByLabel('Question').fill(question);
  await on.getByLabel('Question').press('Enter');
  await expect.poll(() => answers(on).count(), { timeout: 15_000 }).toBe(before + 1);
  await answers(on).last().filter({ hasText: ANSWER }).waitFor();
}

const history = (on: Page) => on.getByRole('navigation', { name: 'Your chats' });

describe('the chat home', () => {
  it('opens after signing in, with the workspace asked and an empty history', async () => {
    await page.goto(at('/signup'));
    await page.getByLabel('Your name').fill('Ada Admin');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Organisation name').fill('Engines');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    const created = await page.request.post(at('/api/workspaces'), { data: { name: 'Support' } });
    expect(created.status()).toBe(201);
    workspaceId = (await created.json()).id;

    // Signing in again (a new session) lands on the chat of the workspace.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(at(`/chat/${workspaceId}`));
    await history(page).getByText('Your chats will be listed here.').waitFor();
    expect(await page.title()).toBe('Chat · Support · Workspace agent proxy');
    await checkPage(page, 'chat-home-empty');
  });

  it('asks, puts the chat in the address and the history, and goes on with it after a reload', async () => {
    await ask(page, 'Where is order 42?');
    await page.waitForURL(/\/chat\/[^/]+\/c\/conv/);
    const address = page.url();
    await history(page).getByRole('link', { name: 'Where is order 42?' }).waitFor();

    await page.reload();
    await answers(page).filter({ hasText: ANSWER }).waitFor();
    await page.getByText('Where is order 42?', { exact: true }).first().waitFor();
    await ask(page, 'And order 43?');
    expect(page.url()).toBe(address);
    // The follow-up went to the same conversation: one chat in the history, with both turns.
    const conversationId = decodeURIComponent(address.split('/c/')[1] ?? '');
    const detail = await page.request.get(at(`/api/workspaces/${workspaceId}/conversations/${conversationId}`));
    expect((await detail.json()).messages.map((message: { content: string }) => message.content)).toEqual([
      'Where is order 42?',
      ANSWER,
      'And order 43?',
      ANSWER,
    ]);
    expect(await history(page).getByRole('listitem').count()).toBe(1);
    await checkPage(page, 'chat-home-conversation');
  });

  it('regenerates the last answer and edits the last question, replacing the last turn', async () => {
    await answers(page).last().getByRole('button', { name: 'Regenerate the answer' }).click();
    // Asked again in place: the answer being written replaces the last one.
    await page.locator('.bubble.assistant[aria-busy]').waitFor();
    expect(await page.locator('.bubble.assistant').count()).toBe(2);
    await page.locator('.chat-turn').last().getByRole('button', { name: 'Regenerate the answer' }).waitFor({ timeout: 15_000 });
    expect(await answers(page).last().textContent()).toContain(ANSWER);
    await page.getByRole('button', { name: 'Edit your question' }).click();
    const edit = page.getByRole('form', { name: 'Edit your question' });
    await edit.getByLabel('Your question').fill('And order 44?');
    await edit.getByLabel('Your question').press('Enter');
    // The edited turn's answer is in once Regenerate is offered on it again.
    await page.locator('.chat-turn').last().getByRole('button', { name: 'Regenerate the answer' }).waitFor();
    expect(await page.locator('.bubble.user').allTextContents()).toEqual([
      expect.stringContaining('Where is order 42?'),
      expect.stringContaining('And order 44?'),
    ]);
    expect(await answers(page).last().textContent()).toContain(ANSWER);
    // What is stored is what is shown.
    await page.reload();
    await page.locator('.bubble.user').filter({ hasText: 'And order 44?' }).waitFor();
    expect(await page.locator('.bubble.user').count()).toBe(2);
  });

  it('starts a new chat, then renames, pins, searches and deletes chats in the history', async () => {
    await history(page).getByRole('link', { name: 'New chat' }).click();
    await page.waitForURL(at(`/chat/${workspaceId}`));
    await page.getByText('Follow-up questions continue the chat.').waitFor();
    await ask(page, 'Reset my password');
    await history(page).getByRole('link', { name: 'Reset my password' }).waitFor();

    const first = history(page).getByRole('listitem').filter({ hasText: 'Where is order 42?' });
    await first.locator('summary').click();
    await first.getByRole('button', { name: 'Rename' }).click();
    await history(page).getByLabel('New name of the chat').fill('Orders');
    await history(page).getByLabel('New name of the chat').press('Enter');
    const orders = history(page).getByRole('listitem').filter({ hasText: 'Orders' });
    await orders.locator('summary').click();
    await orders.getByRole('button', { name: 'Pin' }).click();
    await history(page).getByRole('heading', { name: 'Pinned' }).waitFor();
    expect(await history(page).locator('.chat-history-list').first().textContent()).toContain('Orders');

    await history(page).getByLabel('Search your chats').fill('password');
    await history(page).getByRole('heading', { name: 'Found' }).waitFor();
    await expect.poll(() => history(page).getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Reset my password')]);
    await history(page).getByLabel('Search your chats').fill('');

    // Opening a chat from the history shows its turns; its transcript is titled by its name.
    await history(page).getByRole('link', { name: 'Orders' }).click();
    await page.locator('.bubble.user').filter({ hasText: 'And order 44?' }).waitFor();
    await page.getByRole('link', { name: 'Open the transcript' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(await page.title()).toBe('Orders · Workspace agent proxy');
    await page.goBack();
    await page.locator('.bubble.user').filter({ hasText: 'And order 44?' }).waitFor();

    const reset = history(page).getByRole('listitem').filter({ hasText: 'Reset my password' });
    await reset.locator('summary').click();
    await reset.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this chat from your history?' }).getByRole('button', { name: 'Delete chat' }).click();
    await expect.poll(() => history(page).getByRole('listitem').count()).toBe(1);
    await checkPage(page, 'chat-home-history');
  });

  it('the old playground opens the chat, and a member is sent to their own empty history', async () => {
    await page.goto(at(`/workspaces/${workspaceId}/playground`));
    await page.waitForURL(at(`/chat/${workspaceId}`));
    const added = await page.request.post(at('/api/org/users'), {
      data: { name: 'Mo Member', email: 'mo@example.com', password: 'a long enough password', org_role: 'member' },
    });
    expect(added.status()).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const member = await context.newPage();
    try {
      await member.goto(at('/signin'));
      await member.getByLabel('Email').fill('mo@example.com');
      await member.getByLabel('Password').fill('a long enough password');
      await member.getByRole('button', { name: 'Sign in' }).click();
      await member.waitForURL(at(`/chat/${workspaceId}`));
      // The admin's chats are not theirs.
      await history(member).getByText('Your chats will be listed here.').waitFor();
      await checkPage(member, 'chat-home-member');
    } finally {
      await context.close();
    }
  });
});

describe('on a phone', () => {
  it('fits 390 px: the history behind its button, an answer with a code block scrolls inside its block', async () => {
    service.script.markdown = true;
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await phone.context().addCookies(await page.context().cookies());
      await phone.goto(at(`/chat/${workspaceId}`));
      expect(await history(phone).isVisible()).toBe(false);
      await phone.getByLabel('Question').fill('Show me the command');
      await phone.getByLabel('Question').press('Enter');
      await phone.locator('.bubble.assistant:not([aria-busy])').getByText(CODE_LINE).waitFor();
      // Screen readers are told the answer is in, not read its Markdown source.
      const announced = (await phone.locator('[aria-live="polite"]').allTextContents()).join(' ');
      expect(announced).toContain('The answer is in.');
      expect(announced).not.toMatch(/```|\*\*|\|---/);
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await phone.getByRole('button', { name: 'Your chats' }).click();
      await history(phone).getByRole('link', { name: 'Orders' }).click();
      await phone.locator('.bubble.user').filter({ hasText: 'And order 44?' }).waitFor();
      expect(await history(phone).isVisible()).toBe(false);
      await checkPage(phone, 'chat-home-phone');
    } finally {
      service.script.markdown = false;
      await phone.close();
    }
  });
});
