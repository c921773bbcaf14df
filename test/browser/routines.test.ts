import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { ANSWER, startConsoleService, type ConsoleService } from './service.js';

/*
 * Routines in the console (issue 50, item 5): an admin types a schedule and sees its next five
 * times in the chosen zone change as they type, has a schedule the service refuses shown under its
 * field, creates the routine and sees its next run listed, runs it now and opens the run's
 * transcript, pauses it; then makes a webhook routine, whose URL and secret are shown once (a
 * reload does not show them again), and fires it with the page's own curl example, signed with
 * openssl, to see the webhook's run in its history; then rotates its secret, whose new one is shown
 * once with its own curl example, the old one still working for the hour it was kept.
 */

let service: ConsoleService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const at = (path: string) => `${service.url}${path}`;
let workspaceId = '';

async function call(method: 'GET' | 'POST', path: string, data?: unknown): Promise<any> {
  const response = await page.request.fetch(at(path), { method, ...(data === undefined ? {} : { data }) });
  const body = await response.json();
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${JSON.stringify(body)}`);
  return body;
}

const form = () => page.getByRole('form', { name: 'New routine' });
const nextRuns = () => form().getByRole('list', { name: /^Next five runs in / });
/** The instants of the next five runs the form shows (their `datetime`). */
const shownTimes = () =>
  nextRuns()
    .locator('time')
    .evaluateAll((times) => times.map((time) => time.getAttribute('datetime') ?? ''));
const routineRow = (name: string) => page.getByRole('table', { name: 'Routines' }).getByRole('row', { name: new RegExp(name) });
const cellOf = (row: Locator, column: string) => row.locator(`[data-label="${column}"]`);

beforeAll(async () => {
  service = await startConsoleService();
  browser = await launchBrowser();
  // The browser's own zone is a new routine's default.
  context = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId: 'America/New_York' });
  page = await context.newPage();
  await call('POST', '/api/signup', {
    name: 'Grace Hopper',
    email: 'grace@example.com',
    password: 'a long enough password',
    org_name: 'Navy',
  });
  workspaceId = (await call('POST', '/api/workspaces', { name: 'Operations' })).id;
});
afterEach(async (test) => {
  if (test.task.result?.state === 'fail') await saveFailure(page, test.task.name);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await service?.stop();
});

/** The wall-clock time (`HH:MM`) of an instant in a time zone. */
const wallClock = (time: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(time));

describe('routines', () => {
  it('shows the next five times of a schedule in its zone as the cron and the zone change', async () => {
    await page.goto(at(`/workspaces/${workspaceId}`));
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Routines' }).click();
    await page.getByText('No routines yet').waitFor();
    await page.getByRole('button', { name: 'New routine' }).click();
    expect(await form().getByLabel('Time zone').inputValue()).toBe('America/New_York');

    await form().getByLabel('Schedule', { exact: true }).fill('30 8 * * *');
    await expect.poll(shownTimes).toHaveLength(5);
    // 08:30 read in New York (13:30 UTC in winter, 12:30 in summer: the browser runs on today's date);
    // in Tokyo, 08:30 there (23:30 UTC the day before, no daylight saving).
    expect((await shownTimes()).map((time) => wallClock(time, 'America/New_York'))).toEqual(Array(5).fill('08:30'));
    expect(await nextRuns().locator('li').first().textContent()).toMatch(/08:30 GMT-[45]$/);
    await form().getByLabel('Time zone').selectOption('Asia/Tokyo');
    await page.getByRole('list', { name: 'Next five runs in Asia/Tokyo' }).waitFor();
    await expect.poll(async () => (await shownTimes()).every((time) => time.endsWith('T23:30:00.000Z'))).toBe(true);

    // A rate counts from the minute it is saved: five times, 15 minutes apart.
    await form().getByLabel('Schedule', { exact: true }).fill('rate(15 minutes)');
    const gaps = (times: string[]) => times.slice(1).map((time, index) => Date.parse(time) - Date.parse(times[index] ?? ''));
    await expect.poll(async () => gaps(await shownTimes())).toEqual([900_000, 900_000, 900_000, 900_000]);

    await form().getByLabel('Schedule', { exact: true }).fill('0 8 * * * *');
    await form().getByText('Not a schedule yet: a cron expression has 5 fields').waitFor();
    expect(await nextRuns().count()).toBe(0);
    await form().getByLabel('Schedule', { exact: true }).fill('0 8 * * MON-FRI');
    await expect.poll(shownTimes).toHaveLength(5);
    await checkPage(page, 'routines-form');
  });

  it('shows a schedule the service refuses under its field, then creates the routine and lists its next run', async () => {
    await form().getByLabel('Name').fill('Failed orders, daily');
    await form().getByLabel('Prompt').fill("Summarise yesterday's failed orders.");
    await form().getByLabel('Schedule', { exact: true }).fill('0 25 * * *');
    await form().getByRole('button', { name: 'Create routine' }).click();
    const schedule = form().getByLabel('Schedule', { exact: true });
    await expect.poll(() => schedule.getAttribute('aria-invalid')).toBe('true');
    const described = (await schedule.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${described.split(' ').pop()}"]`).textContent()).toMatch(/hour/i);
    // Every message is under its field: none above the form.
    expect(await form().locator('.form-error').count()).toBe(0);

    await schedule.fill('0 8 * * MON-FRI');
    await form().getByLabel('Time zone').selectOption('Europe/Paris');
    await expect.poll(shownTimes).toHaveLength(5);
    const [first] = await shownTimes();
    await form().getByRole('button', { name: 'Create routine' }).click();
    await page.getByText('Created Failed orders, daily.').waitFor();
    const row = routineRow('Failed orders, daily');
    expect(await cellOf(row, 'Trigger').textContent()).toBe('0 8 * * MON-FRI' + 'Europe/Paris');
    expect(await cellOf(row, 'Status').textContent()).toBe('active');
    // The next run the service worked out is the first the form showed.
    expect(await cellOf(row, 'Next run').locator('time').getAttribute('datetime')).toBe(first);
    expect(await cellOf(row, 'Last run').textContent()).toBe('never run');
    await checkPage(page, 'routines');
  });

  it('runs a routine now, shows the run in its history with a working transcript link, and pauses it', async () => {
    const row = routineRow('Failed orders, daily');
    await row.getByRole('button', { name: 'Run now Failed orders, daily' }).click();
    await page.getByText('Started a run of Failed orders, daily.').waitFor();
    const runs = page.getByRole('table', { name: 'Runs of Failed orders, daily' });
    const run = runs.locator('tbody tr').first();
    await cellOf(run, 'Status').getByText('done').waitFor({ timeout: 15_000 });
    expect(await cellOf(run, 'Trigger').textContent()).toBe('Run now');
    expect(await cellOf(run, 'Cost').textContent()).toMatch(/^\$0\.\d+/);
    expect(await cellOf(run, 'Duration').textContent()).toMatch(/\d/);
    // The list asks again while the run is under way: its last outcome shows.
    await cellOf(row, 'Last run').getByText('done').waitFor();
    await checkPage(page, 'routines-runs');

    await cellOf(run, 'Transcript').getByRole('link').click();
    await page.getByText(ANSWER).first().waitFor();
    await page.goBack();
    await runs.waitFor();

    await row.getByRole('button', { name: 'Pause Failed orders, daily' }).click();
    await cellOf(row, 'Status').getByText('paused').waitFor();
    expect(await cellOf(row, 'Next run').textContent()).toBe('paused');
    await row.getByRole('button', { name: 'Resume Failed orders, daily' }).waitFor();
    const { routines } = await call('GET', `/api/workspaces/${workspaceId}/routines`);
    expect(routines.map((routine: { enabled: boolean }) => routine.enabled)).toEqual([false]);
  });

  it('edits a routine: a new schedule with its next times, and a webhook URL read back masked', async () => {
    const about = page.getByRole('region', { name: 'Failed orders, daily' });
    await about.getByRole('button', { name: 'Edit Failed orders, daily' }).click();
    const edit = page.getByRole('form', { name: 'Edit Failed orders, daily' });
    expect(await edit.getByLabel('Schedule', { exact: true }).inputValue()).toBe('0 8 * * MON-FRI');
    expect(await edit.getByLabel('Time zone').inputValue()).toBe('Europe/Paris');
    await edit.getByLabel('Schedule', { exact: true }).fill('rate(1 hour)');
    await expect
      .poll(() =>
        edit
          .getByRole('list', { name: /^Next five runs in / })
          .getByRole('listitem')
          .count(),
      )
      .toBe(5);
    await edit.getByLabel('Also POST it to this webhook URL').fill('https://hooks.example.com/ops/daily?token=abc');
    await edit.getByRole('button', { name: 'Save routine' }).click();
    await page.getByText('Saved Failed orders, daily.').waitFor();
    expect(await cellOf(routineRow('Failed orders, daily'), 'Trigger').textContent()).toBe('rate(1 hour)Europe/Paris');
    expect(await about.getByText('https://hooks.example.com/••••••••').count()).toBe(1);
    expect(await page.getByText('token=abc').count()).toBe(0);
  });

  it('shows a webhook routine’s secret once, with a curl example that starts a run', async () => {
    await page.getByRole('button', { name: 'New routine' }).click();
    await form().getByLabel('Name').fill('Triage new tickets');
    await form().getByLabel('Prompt').fill('Triage the ticket below.');
    await form().getByLabel('When its webhook is called').check();
    expect(await form().getByLabel('Schedule', { exact: true }).count()).toBe(0);
    await form().getByRole('button', { name: 'Create routine' }).click();
    const shown = page.getByRole('region', { name: 'The webhook of Triage new tickets' });
    await shown.waitFor();
    const secret = (await shown.locator('.secret-once code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(await shown.getByText('copy it now: it is shown only this once').count()).toBe(1);
    const url = (await shown.locator('.rt-url code').textContent()) ?? '';
    expect(url).toMatch(new RegExp(`^${service.url}/hooks/routines/rtn_`));
    const curl = (await shown.locator('.rt-curl').textContent()) ?? '';
    expect(curl).toContain(`SECRET='${secret}'`);
    expect(curl).toContain('X-Signature-256: sha256=$SIG');
    await checkPage(page, 'routines-webhook-secret');

    // The example, as a person would paste it in a shell (not run synchronously: the service answers from this process).
    const fired = await promisify(execFile)('bash', ['-c', curl], { encoding: 'utf8', timeout: 10_000 });
    expect(JSON.parse(fired.stdout).run).toMatchObject({ trigger: 'webhook', status: 'queued' });

    await page.reload();
    const row = routineRow('Triage new tickets');
    await row.waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    expect(await page.getByRole('region', { name: /The webhook of/ }).count()).toBe(0);
    expect(await cellOf(row, 'Trigger').textContent()).toBe('Webhook');
    expect(await cellOf(row, 'Next run').textContent()).toBe('when called');
    await row.getByRole('link', { name: 'Triage new tickets', exact: true }).click();
    const run = page.getByRole('table', { name: 'Runs of Triage new tickets' }).locator('tbody tr').first();
    await cellOf(run, 'Status').getByText('done').waitFor({ timeout: 15_000 });
    expect(await cellOf(run, 'Trigger').textContent()).toMatch(/^Webhookdelivery test-\d+$/);

    // Rotate secret, confirmed, with the old one kept for an hour: the new one is shown once with its curl example.
    await page.getByRole('button', { name: 'Rotate secret of Triage new tickets' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate the secret of Triage new tickets?' });
    await confirm.getByLabel('The old secret').selectOption({ label: 'Keeps working for 1 hour' });
    await checkPage(page, 'routines-rotate-secret');
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('region', { name: 'The webhook of Triage new tickets' });
    await rotated.waitFor();
    const next = (await rotated.locator('.secret-once code').textContent()) ?? '';
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect(await rotated.getByText('The old secret keeps working for 1 hour').count()).toBe(1);
    const nextCurl = (await rotated.locator('.rt-curl').textContent()) ?? '';
    expect(nextCurl).toContain(`SECRET='${next}'`);
    // Both sign for now: the old example and the new one are each answered a run (not a 401). Run in
    // the same second, their delivery ids (test-<time>) may be one: the second is then its redelivery.
    for (const example of [curl, nextCurl]) {
      const started = await promisify(execFile)('bash', ['-c', example], { encoding: 'utf8', timeout: 10_000 });
      expect(JSON.parse(started.stdout).run).toMatchObject({ trigger: 'webhook' });
    }
    await rotated.getByRole('button', { name: 'I have copied the secret' }).click();
    expect(await page.getByText(next).count()).toBe(0);
  });

  it('is for admins: a member has no Routines tab, and the page says who manages routines', async () => {
    const added = await page.request.post(at('/api/org/users'), {
      data: { name: 'Mo Member', email: 'mo@example.com', password: 'a long enough password', org_role: 'member' },
    });
    expect(added.status()).toBe(201);
    const other = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const member = await other.newPage();
      expect(
        (await other.request.post(at('/api/auth/login'), { data: { email: 'mo@example.com', password: 'a long enough password' } })).ok(),
      ).toBe(true);
      await member.goto(at(`/workspaces/${workspaceId}/routines`));
      await member.getByText("Only admins see and manage a workspace's routines.").waitFor();
      expect(await member.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Knowledge' }).count()).toBe(1);
      expect(await member.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Routines' }).count()).toBe(0);
      expect(await member.getByText('Failed orders, daily').count()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
