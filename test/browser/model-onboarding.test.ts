import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyOf, authenticationErrorReply, textReply } from '../support/fake-model.js';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { startConsoleService, type ConsoleService } from './service.js';

/**
 * Onboarding of the model (issue 47, item 4): on a fresh install without a model key, the
 * workspace list says so, with a link to Organisation → Settings for an admin (a member is told to
 * ask one); there the admin picks the provider and types the key, which is tested with a one-token
 * call before it is saved: a wrong key shows the provider's refusal under the field, the right one
 * is saved and the notice is gone. At 1280 and 390 px, with axe.
 */

const GOOD_KEY = 'sk-ant-api03-browser-good-0123456789-WXYZ';
const WRONG_KEY = 'sk-ant-api03-browser-wrong-0123456789-QRST';

let service: ConsoleService;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  service = await startConsoleService({ deploymentKey: false });
  // The model's API as Anthropic's: the good key answers, any other is 401 authentication_error.
  service.model.handle((request) => (apiKeyOf(request) === GOOD_KEY ? textReply('Hi') : authenticationErrorReply()));
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
const notice = (on: Page) => on.getByRole('region', { name: 'No model key' });

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

describe('a fresh install without a model key', () => {
  it('says so on the workspace list, with a link to Organisation → Settings', async () => {
    await page.goto(at('/signup'));
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('analytical engine');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    await notice(page).waitFor();
    expect(await notice(page).textContent()).toContain('No model key is set yet.');
    expect(await notice(page).getByRole('link', { name: 'Organisation → Settings' }).getAttribute('href')).toBe('/org/settings');
    await checkPage(page, 'model-onboarding-notice');
  });

  it('tells a member to ask an admin, with no link to settings they cannot open', async () => {
    const added = await page.request.post(at('/api/org/users'), {
      data: { name: 'Grace Hopper', email: 'grace@example.com', password: 'compiler pioneer', org_role: 'member' },
    });
    expect(added.status()).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const member = await context.newPage();
    try {
      await member.goto(at('/signin'));
      await member.getByLabel('Email').fill('grace@example.com');
      await member.getByLabel('Password').fill('compiler pioneer');
      await member.getByRole('button', { name: 'Sign in' }).click();
      await notice(member).waitFor();
      expect(await notice(member).textContent()).toContain('Ask an admin of your organisation');
      expect(await notice(member).getByRole('link').count()).toBe(0);
      await checkPage(member, 'model-onboarding-member-notice');
    } finally {
      await context.close();
    }
  });
});

describe('Organisation → Settings, the model form', () => {
  it('shows the provider and a masked, empty key field saying no key is set', async () => {
    await notice(page).getByRole('link', { name: 'Organisation → Settings' }).click();
    await page.getByRole('heading', { level: 2, name: 'Model' }).waitFor();
    const provider = page.getByLabel('Provider', { exact: true });
    expect(await provider.locator('option').allTextContents()).toEqual([
      'Anthropic (API key)',
      "Amazon Bedrock (the service's AWS account)",
    ]);
    const key = page.getByLabel('API key', { exact: true });
    expect(await key.getAttribute('type')).toBe('password');
    expect(await key.inputValue()).toBe('');
    expect(await page.locator('form[aria-label="Model"]').textContent()).toContain('No key is set');
    await checkPage(page, 'model-onboarding-form');
  });

  it("shows the provider's refusal of a wrong key under the field, and saves nothing", async () => {
    await page.getByLabel('Provider', { exact: true }).selectOption('anthropic');
    await page.getByLabel('API key', { exact: true }).fill(WRONG_KEY);
    await page.getByRole('button', { name: 'Test and save' }).click();
    expect(await messageUnder(page.getByLabel('API key', { exact: true }))).toBe('refused by the provider: invalid x-api-key');
    const tested = service.model.requests.at(-1);
    expect(tested && [apiKeyOf(tested), tested.body.max_tokens]).toEqual([WRONG_KEY, 1]);
    const status = await (await page.request.get(at('/api/org/model'))).json();
    expect(status).toEqual({ provider: 'anthropic', key_set: false, source: null });
    expect(await page.getByRole('row', { name: /ai_api_key/ }).textContent()).toContain('Not set');
    await checkPage(page, 'model-onboarding-wrong-key');
  });

  it('saves the right key, forgets it on screen, and the workspace list no longer says a key is missing', async () => {
    const key = page.getByLabel('API key', { exact: true });
    await key.fill(GOOD_KEY);
    await page.getByRole('button', { name: 'Test and save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: the key answered a test call.' }).waitFor();
    expect(await key.inputValue()).toBe('');
    expect(await key.getAttribute('aria-invalid')).toBeNull();
    await page.getByText('A key is set (••••••••WXYZ).').waitFor();
    expect(await page.getByRole('row', { name: /ai_api_key/ }).textContent()).toContain('••••••••WXYZ');
    expect(await page.locator('body').textContent()).not.toContain(GOOD_KEY);
    await checkPage(page, 'model-onboarding-saved');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workspaces' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    await page.getByText('No workspaces yet').waitFor();
    expect(await notice(page).count()).toBe(0);
    await checkPage(page, 'model-onboarding-no-notice');
  });

  it('sends a model setting typed in the free-text editor to the model form instead', async () => {
    await page.goto(at('/org/settings'));
    await page.getByLabel('Key', { exact: true }).fill('ai_api_key');
    await page.getByLabel('Value', { exact: true }).fill('sk-typed-by-hand');
    await page.getByRole('button', { name: 'Save setting' }).click();
    expect(await messageUnder(page.getByLabel('Key', { exact: true }))).toBe('set in the Model form above, which tests the key first');
    expect(await page.getByRole('row', { name: /ai_api_key/ }).textContent()).toContain('••••••••WXYZ');
    // A model setting's "Change" in the table goes to the model form.
    await page.getByRole('button', { name: 'Change setting ai_api_key' }).click();
    expect(await page.getByLabel('Provider', { exact: true }).evaluate((element) => element === document.activeElement)).toBe(true);
  });
});
