import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { startConsoleService, type ConsoleService } from './service.js';

/**
 * People managing themselves in Chromium: their own name and password on the profile page; an admin
 * inviting someone by link, who opens it in a browser of their own and joins; an admin setting a
 * member's password; an admin archiving a workspace, then deleting it after typing its name.
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
const ADMIN_EMAIL = 'grace@example.com';

/** Whether a password signs this email in, from a browser of its own (so this page's session is left alone). */
async function signsIn(email: string, password: string): Promise<boolean> {
  const context = await browser.newContext();
  try {
    const response = await context.request.post(at('/api/auth/login'), { data: { email, password } });
    return response.ok();
  } finally {
    await context.close();
  }
}

describe('the profile', () => {
  it('opens from the header', async () => {
    await page.goto(at('/signup'));
    await page.getByLabel('Your name').fill('Grace');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill('first password');
    await page.getByLabel('Organisation name').fill('Navy Labs');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    await page.getByRole('link', { name: /^Profile: Grace/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await page.getByText(ADMIN_EMAIL).waitFor();
    await checkPage(page, 'profile');
  });

  it('changes your display name, shown in the header at once', async () => {
    await page.getByLabel('Display name').fill('Grace Hopper');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Saved: you are shown as Grace Hopper.').waitFor();
    await page.getByRole('link', { name: /^Profile: Grace Hopper/ }).waitFor();
  });

  it('refuses a wrong current password under its field, then changes it', async () => {
    await page.getByLabel('Current password').fill('not the password');
    await page.getByLabel('New password').fill('second password');
    await page.getByRole('button', { name: 'Change password' }).click();
    const current = page.getByLabel('Current password');
    await expect.poll(() => current.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('is not your current password').waitFor();

    await current.fill('first password');
    await page.getByLabel('New password').fill('second password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/Password changed\. You stay signed in here/).waitFor();
    expect(await signsIn(ADMIN_EMAIL, 'second password')).toBe(true);
    expect(await signsIn(ADMIN_EMAIL, 'first password')).toBe(false);
    // Still signed in here.
    await page.goto(at('/me'));
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await checkPage(page, 'profile-changed');
  });
});

describe('inviting by link', () => {
  let link = '';

  it('makes a link, shown once with Copy, and lists the invitation as pending', async () => {
    await page.goto(at('/org'));
    await page.getByRole('button', { name: 'Invite by link' }).click();
    const form = page.getByRole('form', { name: 'Invite by link' });
    await form.getByLabel('Email').fill('ada@example.com');
    await form.getByLabel('Role').selectOption('member');
    await form.getByLabel('Link works for (hours)').fill('48');
    await page.getByRole('button', { name: 'Make invitation link' }).click();
    const field = page.getByLabel('Invitation link');
    await field.waitFor();
    link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${at('/invite/')}[A-Za-z0-9_-]{40,}$`));
    await page.getByRole('button', { name: 'Copy the invitation link' }).waitFor();
    const pending = page.getByRole('region', { name: 'Pending invitations' }).getByRole('row', { name: /ada@example\.com/ });
    await pending.waitFor();
    await checkPage(page, 'users-invitation-link');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByLabel('Invitation link').count()).toBe(0);
  });

  it('lets the invitee open the link in a browser of their own and join', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const invitee = await context.newPage();
    try {
      await invitee.goto(link);
      await invitee.getByRole('heading', { level: 1, name: 'Join your organisation' }).waitFor();
      await invitee.getByText('Navy Labs').waitFor();
      await invitee.getByText('ada@example.com').waitFor();
      await checkPage(invitee, 'invitation');
      await invitee.getByLabel('Your name').fill('Ada');
      await invitee.getByLabel('Choose a password').fill('ada password');
      await invitee.getByRole('button', { name: 'Join' }).click();
      // Joining lands on the chat, as signing in does.
      await invitee.getByRole('heading', { level: 1, name: /^Chat/ }).waitFor();
      await invitee.getByRole('link', { name: /^Profile: Ada \(member\)/ }).waitFor();
      // The link works once.
      await invitee.goto(link);
      await invitee
        .getByRole('alert')
        .getByText(/used already/)
        .waitFor();
      await checkPage(invitee, 'invitation-used');
    } finally {
      await context.close();
    }
  });

  it('shows the new member to the admin, who sets their password', async () => {
    await page.goto(at('/org'));
    await page
      .getByRole('row', { name: /ada@example\.com/ })
      .first()
      .waitFor();
    await page.getByText('No invitation is waiting.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Set password of Ada' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set the password of Ada' });
    await dialog.getByLabel('New password').fill('reset by grace');
    await checkPage(page, 'users-set-password');
    await dialog.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password of Ada set', { exact: false }).waitFor();
    expect(await signsIn('ada@example.com', 'reset by grace')).toBe(true);
    expect(await signsIn('ada@example.com', 'ada password')).toBe(false);
  });
});

describe("a workspace's end", () => {
  it('archives a workspace: hidden from the list until "Show archived"', async () => {
    const created = await page.request.post(at('/api/workspaces'), { data: { name: 'Old Project' } });
    expect(created.status()).toBe(201);
    await page.goto(at('/workspaces/ws-old-project/settings'));
    await page.getByRole('heading', { level: 2, name: 'Archive or delete' }).waitFor();
    await page.getByRole('button', { name: 'Archive workspace' }).click();
    await page.getByRole('dialog', { name: 'Archive Old Project?' }).getByRole('button', { name: 'Archive workspace' }).click();
    await page.getByText('This workspace is archived', { exact: false }).waitFor();
    await checkPage(page, 'workspace-archived');

    await page.goto(at('/workspaces'));
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    await page.getByText('No workspaces yet', { exact: false }).waitFor();
    await page.getByLabel('Show archived workspaces').check();
    const row = page.getByRole('row', { name: /Old Project/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('archived');
    await checkPage(page, 'workspaces-archived');
  });

  it('deletes it only once its name is typed', async () => {
    await page.getByRole('link', { name: 'Old Project' }).click();
    await page.goto(at('/workspaces/ws-old-project/settings'));
    await page.getByRole('button', { name: 'Delete workspace Old Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Old Project?' });
    const confirm = dialog.getByRole('button', { name: 'Delete workspace' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type the workspace's name/).fill('Old Projec');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type the workspace's name/).fill('Old Project');
    await checkPage(page, 'workspace-delete');
    await confirm.click();
    await page.waitForURL(at('/workspaces'));
    await page.getByLabel('Show archived workspaces').check();
    await page.getByText('No workspaces yet', { exact: false }).waitFor();
    const gone = await page.request.get(at('/api/workspaces/ws-old-project'));
    expect(gone.status()).toBe(404);
  });
});
