import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isStatsRequest, type ModelRequestRecord, textReply, toolUseReply } from '../support/fake-model.js';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { STATS, startConsoleService, type ConsoleService } from './service.js';

/*
 * Knowledge documents in the console: an admin drops a Markdown file on the upload area and picks a
 * PDF with the file picker, watches both be read, searches them as the model would, opens a passage;
 * a file over 20 MB is refused before it is sent, and the service's refusals are shown. In the chat
 * the model searches the documents and cites a passage, listed under the answer as a link to it.
 */

let service: ConsoleService;
let browser: Browser;
let page: Page;
let folder = '';
let pdfPath = '';

const at = (path: string) => `${service.url}${path}`;
let workspaceId = '';

const REFUNDS = `# Refund policy

## Returns

Returns are accepted within 30 days of delivery, in the original packaging.

## Exchanges

An exchange ships once the returned item has arrived at the warehouse.
`;
const CITED_SECTION = 'Refund policy › Returns';
const CITED_LINK = `[1] refunds › ${CITED_SECTION}`;
const QUESTION = 'How long do I have to return an item?';
const ANSWER = 'Returns are accepted within 30 days of delivery [1].';

/** The text of the tool results in a request to the model. */
function toolResultsOf(request: ModelRequestRecord): string {
  const texts: string[] = [];
  for (const message of request.body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type: string; content?: unknown }[]) {
      if (block.type !== 'tool_result') continue;
      if (typeof block.content === 'string') texts.push(block.content);
      else if (Array.isArray(block.content)) texts.push(...(block.content as { text?: string }[]).map((part) => part.text ?? ''));
    }
  }
  return texts.join('\n');
}

/**
 * The model of this test: a question gets a `search_knowledge` call, its passages an answer citing
 * the Returns passage by the number the search gave it (the statistics job gets its statistics).
 */
function knowledgeModel(request: ModelRequestRecord) {
  if (isStatsRequest(request)) return toolUseReply([{ name: 'record_conversation_stats', input: STATS }]);
  const found = toolResultsOf(request);
  if (!found) return toolUseReply([{ name: 'search_knowledge', input: { query: 'return an item days' } }]);
  const cited = new RegExp(`\\[(\\d+)\\] refunds › ${CITED_SECTION}`).exec(found)?.[1];
  return textReply(cited ? ANSWER.replace('[1]', `[${cited}]`) : 'The documents say nothing about it.');
}

/** A two-page PDF written by pdf-lib, as a real one would be read. */
async function writePdf(path: string): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const lines = [
    ['Travel handbook', 'Flights over 800 euros need the approval of a director.'],
    ['Trains', 'Train tickets are booked through the travel desk, first class only for trips over four hours.'],
  ];
  for (const [heading = '', text = ''] of lines) {
    const sheet = pdf.addPage([595, 842]);
    sheet.drawText(heading, { x: 50, y: 780, size: 20, font });
    sheet.drawText(text, { x: 50, y: 740, size: 11, font });
  }
  writeFileSync(path, await pdf.save());
}

/** Drops files made in the page on the upload area, as a drag from the desktop does. */
async function dropFiles(on: Page, files: { name: string; type: string; text?: string; bytes?: number }[]): Promise<void> {
  const dataTransfer = await on.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) {
      const body = file.bytes === undefined ? (file.text ?? '') : new Uint8Array(file.bytes);
      transfer.items.add(new File([body], file.name, { type: file.type }));
    }
    return transfer;
  }, files);
  const area = on.getByRole('group', { name: 'Upload documents' });
  await area.dispatchEvent('dragenter', { dataTransfer });
  await area.dispatchEvent('dragover', { dataTransfer });
  await area.dispatchEvent('drop', { dataTransfer });
}

const documentRow = (on: Page, name: string) => on.getByRole('table', { name: 'Documents' }).getByRole('row', { name: new RegExp(name) });

beforeAll(async () => {
  service = await startConsoleService();
  service.model.handle(knowledgeModel);
  folder = mkdtempSync(join(tmpdir(), 'knowledge-browser-'));
  pdfPath = join(folder, 'handbook.pdf');
  await writePdf(pdfPath);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await saveFailure(page, context.task.name);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('knowledge documents', () => {
  it('uploads a dropped Markdown file and a picked PDF, and follows both until they are read', async () => {
    await page.goto(at('/signup'));
    await page.getByLabel('Your name').fill('Ada Admin');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Organisation name').fill('Engines');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    await page.getByRole('button', { name: 'New workspace' }).click();
    await page.getByLabel('Name').fill('Support');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.waitForURL(/\/workspaces\/[^/]+$/);
    workspaceId = new URL(page.url()).pathname.split('/').pop() ?? '';

    await page.goto(at(`/workspaces/${workspaceId}/knowledge`));
    await page.getByText('No documents yet').waitFor();
    // Each file goes to an upload's URL (the bucket on AWS, the service's own route here), not in a request to the API.
    const sentTo: string[] = [];
    const noteSends = (request: Request) => {
      if (request.method() === 'POST' && /\/knowledge(\/documents|\/uploads|-uploads\/)/.test(request.url()))
        sentTo.push(new URL(request.url()).pathname);
    };
    page.on('request', noteSends);
    await dropFiles(page, [{ name: 'refunds.md', type: 'text/markdown', text: REFUNDS }]);
    await page.getByText('Added refunds.md: it is being read.').waitFor();
    await page.getByLabel('Choose files').setInputFiles(pdfPath);
    await page.getByText('Added handbook.pdf: it is being read.').waitFor();
    page.off('request', noteSends);
    const kinds = sentTo.map((path) =>
      path.replace(/knowledge-uploads\/[^/]+$/, 'knowledge-uploads/:id').replace(`/workspaces/${workspaceId}`, ''),
    );
    expect(kinds).toEqual(
      [...Array(2)].flatMap(() => ['/api/knowledge/uploads', '/api/knowledge-uploads/:id', '/api/knowledge/documents']),
    );

    // The list is asked again until both are read (1.5 s apart), then the progress bars are gone.
    for (const name of ['refunds', 'handbook']) {
      await documentRow(page, name).getByText('ready', { exact: true }).waitFor({ timeout: 20_000 });
    }
    await expect.poll(() => page.getByRole('progressbar').count()).toBe(0);
    // All settled: the list is asked no more.
    let listed = 0;
    const countLists = (request: Request) => {
      if (request.method() === 'GET' && request.url().endsWith('/knowledge/documents')) listed += 1;
    };
    page.on('request', countLists);
    await page.waitForTimeout(3_500);
    page.off('request', countLists);
    expect(listed).toBe(0);
    const pdf = await documentRow(page, 'handbook').getByRole('cell').allTextContents();
    expect(pdf.slice(0, 4)).toEqual(['PDF', 'ready', '2', expect.stringMatching(/^[1-9]/)]);
    expect(await documentRow(page, 'handbook').getByRole('rowheader').textContent()).toContain('handbook.pdf');
    expect((await documentRow(page, 'refunds').getByRole('cell').allTextContents()).slice(0, 2)).toEqual(['Markdown', 'ready']);
  });

  it('refuses a file over 20 MB before sending it, and shows what the service refuses', async () => {
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/knowledge/documents')) posted += 1;
    });
    await dropFiles(page, [{ name: 'scans.pdf', type: 'application/pdf', bytes: 21 * 1024 * 1024 }]);
    await page.getByText('Not added: scans.pdf: it is 21.0 MB; a document is at most 20 MB.').waitFor();
    expect(posted).toBe(0);

    // A kind the service does not read: its message and the field's.
    await page.getByLabel('Choose files').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0, 0, 1]) });
    await page.getByText(/Not added: photo\.png: this kind of file is not read: must be Markdown/).waitFor();
    expect(posted).toBe(1);

    // A URL the address policy refuses: the API's message under the field.
    const form = page.getByRole('form', { name: 'Add from a URL' });
    await form.getByLabel('Document URL').fill('http://127.0.0.1/handbook.html');
    await form.getByRole('button', { name: 'Add URL' }).click();
    await expect.poll(() => form.getByLabel('Document URL').getAttribute('aria-invalid')).toBe('true');
    expect(await documentRow(page, 'handbook').count()).toBe(1);
    expect(await page.getByRole('table', { name: 'Documents' }).getByRole('row').count()).toBe(3);
  });

  it('finds the passages the model would, and opens one in its document', async () => {
    await page.getByLabel('Search the documents').fill('director approval flights');
    const found = page.getByRole('list', { name: /Passages matching/ });
    await found.getByText('approval of a director').waitFor();
    expect(await found.getByRole('listitem').first().textContent()).toMatch(/handbook.*score \d+\.\d\d/);
    await checkPage(page, 'knowledge-documents');

    await page.getByLabel('Search the documents').fill('return delivery packaging');
    const link = found.getByRole('link', { name: `refunds › ${CITED_SECTION}` });
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'refunds' }).waitFor();
    const opened = page.locator('.kd-passage-target');
    await opened.getByText('The passage you opened').waitFor();
    expect(await opened.textContent()).toContain('within 30 days of delivery');
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(expect.arrayContaining([CITED_SECTION]));
    await checkPage(page, 'knowledge-passages');
  });

  it('lists the passage an answer cites under it in the chat, and the citation opens it', async () => {
    await page.goto(at(`/chat/${workspaceId}`));
    await page.getByLabel('Question').fill(QUESTION);
    await page.getByLabel('Question').press('Enter');
    await page.locator('.bubble.assistant:not([aria-busy])').filter({ hasText: 'within 30 days of delivery' }).waitFor();
    const sources = page.getByRole('list', { name: 'Sources' });
    const citation = sources.getByRole('link', { name: CITED_LINK });
    await citation.waitFor();
    expect(await sources.getByRole('listitem').count()).toBe(1);
    await checkPage(page, 'knowledge-chat-citation');
    await citation.click();
    await page.getByRole('heading', { level: 1, name: 'refunds' }).waitFor();
    expect(new URL(page.url()).searchParams.get('section')).toBe(CITED_SECTION);
    expect(await page.locator('.kd-passage-target').textContent()).toContain('within 30 days of delivery');
  });

  it('keeps the citation in the chat opened again and in the transcript', async () => {
    await page.goBack();
    await page.reload();
    await page.getByRole('list', { name: 'Sources' }).getByRole('link', { name: CITED_LINK }).waitFor();
    await page.getByRole('link', { name: 'Open the transcript' }).click();
    await page.getByRole('heading', { level: 2, name: 'Transcript' }).waitFor();
    const inTranscript = page.locator('.transcript-assistant').getByRole('link', { name: CITED_LINK });
    await inTranscript.waitFor();
    await inTranscript.click();
    await page.locator('.kd-passage-target').getByText('within 30 days of delivery').waitFor();
  });

  it('deletes a document after a confirmation', async () => {
    await page.goto(at(`/workspaces/${workspaceId}/knowledge`));
    await documentRow(page, 'handbook').getByRole('button', { name: 'Delete document handbook' }).click();
    await page.getByRole('dialog', { name: 'Delete handbook?' }).getByRole('button', { name: 'Delete document' }).click();
    await expect.poll(() => documentRow(page, 'handbook').count()).toBe(0);
    expect(await documentRow(page, 'refunds').count()).toBe(1);
  });
});
