import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js';
import { startHttpMcpServer, type TestTool } from '../support/mcp-servers.js';

/*
 * Tool search with an embedding provider (docs/knowledge.md, "Embeddings"): the tools' vectors
 * fused with the full-text ranking by reciprocal rank fusion, among the tools the caller may use
 * only. The provider is the faithful fake OpenAI embeddings API whose model knows a few synonyms;
 * a service without a provider is the control.
 */

const reply = () => 'done';
const TOOLS: TestTool[] = [
  { name: 'book_visit', description: 'Book a visit with the company physician', run: reply },
  { name: 'order_workstation', description: 'Order a new workstation for an employee', run: reply },
  { name: 'send_email', description: 'Send an e-mail message to a customer', run: reply },
  { name: 'list_invoices', description: 'List the invoices of an account', run: reply },
];

const server = await startHttpMcpServer({ name: 'office', tools: TOOLS });
let embeddings: FakeEmbeddings;
let hybrid: TestContext;
let plain: TestContext;

beforeAll(async () => {
  embeddings = await startFakeEmbeddings();
  hybrid = await createTestContext({ env: { EMBEDDINGS_BASE_URL: embeddings.baseUrl, EMBEDDINGS_MODEL: 'fake-embed-1' } });
  plain = await createTestContext();
});
afterAll(async () => {
  await Promise.all([hybrid.close(), plain.close()]);
  await embeddings.close();
  await server.stop();
});

async function workspaceWithTools(t: TestContext) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Hybrid tools ${t.uniqueEmail('ws')}` });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'office', url: server.url });
  return { admin, id: workspace.id as string };
}

async function namesFound(t: TestContext, cookie: string, workspaceId: string, q: string): Promise<string[]> {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/tools/search?q=${encodeURIComponent(q)}&limit=5`, { cookie });
  expect(response.status, response.text).toBe(200);
  return response.body.tools.map((tool: { name: string }) => tool.name);
}

describe('hybrid tool search', () => {
  it('finds by meaning what full text misses: "see a doctor" finds book_visit, "new laptop" order_workstation', async () => {
    const { admin, id } = await workspaceWithTools(hybrid);
    expect((await namesFound(hybrid, admin.cookie, id, 'see a doctor'))[0]).toBe('book_visit');
    expect((await namesFound(hybrid, admin.cookie, id, 'new laptop'))[0]).toBe('order_workstation');
    // Words it has still find it first.
    expect((await namesFound(hybrid, admin.cookie, id, 'send an email'))[0]).toBe('send_email');

    const control = await workspaceWithTools(plain);
    expect(await namesFound(plain, control.admin.cookie, control.id, 'see a doctor')).not.toContain('book_visit');
  });

  it('embeds each tool once per process, and never offers a tool the role may not use', async () => {
    const { admin, id } = await workspaceWithTools(hybrid);
    await namesFound(hybrid, admin.cookie, id, 'pay');
    const before = embeddings.requests.length;
    await namesFound(hybrid, admin.cookie, id, 'invoices');
    // Only the question is embedded the second time.
    expect(embeddings.requests.slice(before).flatMap((request) => request.input)).toEqual(['invoices']);

    const member = await hybrid.addMember(admin.cookie);
    const set = await hybrid.request('PUT', `/api/workspaces/${id}/permissions/member`, {
      cookie: admin.cookie,
      body: { tool_patterns: ['send_*'] },
    });
    expect(set.status, set.text).toBe(200);
    expect(await namesFound(hybrid, member.cookie, id, 'see a doctor')).toEqual([]);
    expect(await namesFound(hybrid, member.cookie, id, 'mail the customer')).toEqual(['send_email']);
  });

  it("never reuses another organisation's tool vectors: how fast a first search answers tells nothing of another tenant's tools", async () => {
    const first = await workspaceWithTools(hybrid);
    await namesFound(hybrid, first.admin.cookie, first.id, 'invoices');
    // Another organisation connects the very same server: its tools are embedded for it, not taken from the first's.
    const second = await workspaceWithTools(hybrid);
    const before = embeddings.requests.length;
    await namesFound(hybrid, second.admin.cookie, second.id, 'invoices');
    const inputs = embeddings.requests.slice(before).flatMap((request) => request.input);
    expect(inputs).toEqual(expect.arrayContaining(TOOLS.map((tool) => expect.stringContaining(tool.description as string))));
  });

  it('ranks by full text alone while the provider fails', async () => {
    const { admin, id } = await workspaceWithTools(hybrid);
    // The tools' request and the question's, each tried three times (the SDK's two retries).
    embeddings.failNext(6);
    expect((await namesFound(hybrid, admin.cookie, id, 'list invoices'))[0]).toBe('list_invoices');
    expect(hybrid.logger.records.some((record) => /tool search ranked by full text alone/.test(record.message))).toBe(true);
  });
});
