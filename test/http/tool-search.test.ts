import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type ApiResponse, type TestContext } from '../support/context.js';
import { standardTools, startHttpMcpServer, type TestTool } from '../support/mcp-servers.js';

/*
 * GET /api/workspaces/:id/tools/search over real MCP servers on loopback and the embedded store, and
 * the workspace's tool_search setting (CONTRACT.md, "Many tools").
 */

const reply = () => 'done';
/** Tools whose words are only in their names (camelCase, kebab, dots) or only in a parameter's description. */
const EXTRA_TOOLS: TestTool[] = [
  { name: 'getPullRequest', description: 'Read one change under review', run: reply },
  { name: 'list-open-issues', description: 'What is still to be done', run: reply },
  { name: 'calendar.events.list', description: 'Upcoming entries', run: reply },
  {
    name: 'fetch_record',
    description: 'Fetch one record',
    inputSchema: { record_id: z.string().describe('The invoice number to look up') },
    run: reply,
  },
];

const helpdesk = await startHttpMcpServer({ name: 'helpdesk', tools: [...standardTools(), ...EXTRA_TOOLS] });
const billing = await startHttpMcpServer({
  name: 'billing',
  tools: [{ name: 'create_ticket', description: 'Open a billing dispute ticket', run: reply }],
});
const mail = await startHttpMcpServer({
  name: 'mail',
  tools: [{ name: 'send_email', description: 'Send an e-mail message to a customer', run: reply }],
});

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
  await Promise.all([helpdesk.stop(), billing.stop(), mail.stop()]);
});

let names = 0;
/** An organisation with a workspace connected to the helpdesk server (connection "helpdesk"). */
async function workspaceWithTools() {
  const admin = await t.signUp();
  names += 1;
  const workspace = await t.createWorkspace(admin.cookie, { name: `Tool search ${names} ${crypto.randomUUID().slice(0, 8)}` });
  const connection = await t.connectMcp(admin.cookie, workspace.id, { name: 'helpdesk', url: helpdesk.url });
  return { cookie: admin.cookie, id: workspace.id, connectionId: connection.id };
}

type Match = { name: string; connection: string; description: string; score: number };

function search(cookie: string, workspaceId: string, query: string): Promise<ApiResponse<{ tools: Match[]; error?: string }>> {
  return t.request('GET', `/api/workspaces/${workspaceId}/tools/search?${query}`, { cookie });
}

async function namesFound(cookie: string, workspaceId: string, q: string): Promise<string[]> {
  const response = await search(cookie, workspaceId, `q=${encodeURIComponent(q)}&limit=50`);
  expect(response.status, response.text).toBe(200);
  return response.body.tools.map((tool) => tool.name);
}

const pathsOf = (response: ApiResponse) => (response.body.details ?? []).map((detail: { path: string }) => detail.path);

describe('GET /api/workspaces/:id/tools/search: ranking', () => {
  it('finds a tool by the stem of its words: "creating tickets" answers create_ticket first, with its connection and description', async () => {
    const { cookie, id } = await workspaceWithTools();
    const response = await search(cookie, id, 'q=creating%20tickets');
    expect(response.status).toBe(200);
    expect(response.body.tools[0]).toEqual({
      name: 'create_ticket',
      connection: 'helpdesk',
      description: 'Open a support ticket',
      score: expect.any(Number),
    });
    expect(response.body.tools[0]?.score).toBeGreaterThan(0);
    const scores = response.body.tools.map((tool) => tool.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // "creating" and "create" share their stem only.
    expect(await namesFound(cookie, id, 'creating')).toEqual(['create_ticket']);
  });

  it('splits names into words: camelCase, kebab-case and dotted names', async () => {
    const { cookie, id } = await workspaceWithTools();
    expect((await namesFound(cookie, id, 'pull requests'))[0]).toBe('getPullRequest');
    expect((await namesFound(cookie, id, 'open issues'))[0]).toBe('list-open-issues');
    // The dotted MCP name is offered as calendar_events_list (names the model accepts).
    expect((await namesFound(cookie, id, 'calendar events'))[0]).toBe('calendar_events_list');
  });

  it("counts a parameter's description: an invoice number finds the tool whose parameter is one", async () => {
    const { cookie, id } = await workspaceWithTools();
    expect(await namesFound(cookie, id, 'invoices')).toEqual(['fetch_record']);
  });

  it('answers no tools for words no tool has, or only words like "the"', async () => {
    const { cookie, id } = await workspaceWithTools();
    expect(await namesFound(cookie, id, 'zebra')).toEqual([]);
    expect(await namesFound(cookie, id, 'the of and')).toEqual([]);
  });

  it('answers at most limit tools (default 10)', async () => {
    const { cookie, id } = await workspaceWithTools();
    await t.connectMcp(cookie, id, { name: 'mail', url: mail.url });
    await t.connectMcp(cookie, id, { name: 'billing', url: billing.url });
    const everyTool = 'search docs ticket tool time fails record issues calendar pull review invoice email';
    const many = await search(cookie, id, `q=${encodeURIComponent(everyTool)}`);
    expect(many.body.tools).toHaveLength(10);
    expect((await search(cookie, id, `q=${encodeURIComponent(everyTool)}&limit=50`)).body.tools).toHaveLength(11);
    expect((await search(cookie, id, `q=${encodeURIComponent(everyTool)}&limit=1`)).body.tools).toEqual([many.body.tools[0]]);
  });

  it('names a tool two connections share <connection>__<tool>, as the model is offered it', async () => {
    const { cookie, id } = await workspaceWithTools();
    await t.connectMcp(cookie, id, { name: 'billing', url: billing.url });
    const found = await namesFound(cookie, id, 'create a ticket');
    expect(found.slice(0, 2).sort()).toEqual(['billing__create_ticket', 'helpdesk__create_ticket']);
    expect((await namesFound(cookie, id, 'billing dispute'))[0]).toBe('billing__create_ticket');
  });
});

describe('GET /api/workspaces/:id/tools/search: permissions first', () => {
  it('never finds a tool the role may not use: a member limited to search_* does not find create_ticket', async () => {
    const { cookie, id } = await workspaceWithTools();
    const member = await t.addMember(cookie);
    const set = await t.request('PUT', `/api/workspaces/${id}/permissions/member`, { cookie, body: { tool_patterns: ['search_*'] } });
    expect(set.status).toBe(200);
    expect(await namesFound(member.cookie, id, 'creating tickets')).toEqual([]);
    expect(await namesFound(member.cookie, id, 'search the documentation')).toEqual(['search_docs']);
    // The admin's role still may.
    expect((await namesFound(cookie, id, 'creating tickets'))[0]).toBe('create_ticket');
  });

  it('never finds a tool a block_tool guardrail names, by any of its names', async () => {
    const { cookie, id } = await workspaceWithTools();
    const blocked = await t.request('POST', `/api/workspaces/${id}/guardrails`, {
      cookie,
      body: { name: 'No new tickets', type: 'block_tool', pattern: 'helpdesk__create_*' },
    });
    expect(blocked.status).toBe(201);
    expect(await namesFound(cookie, id, 'creating tickets')).not.toContain('create_ticket');
    // Disabled, it blocks nothing.
    await t.request('PUT', `/api/workspaces/${id}/guardrails/${blocked.body.guardrail.id}`, { cookie, body: { enabled: false } });
    expect((await namesFound(cookie, id, 'creating tickets'))[0]).toBe('create_ticket');
  });
});

describe('GET /api/workspaces/:id/tools/search: the index follows the tool cache', () => {
  it("is rebuilt when a connection's tools are discovered again at another server", async () => {
    const { cookie, id, connectionId } = await workspaceWithTools();
    expect(await namesFound(cookie, id, 'send an email')).toEqual([]);
    expect((await namesFound(cookie, id, 'creating tickets'))[0]).toBe('create_ticket');
    const moved = await t.request('PUT', `/api/connections/${connectionId}`, { cookie, body: { url: mail.url } });
    expect(moved.status, moved.text).toBe(200);
    expect(await namesFound(cookie, id, 'send an email')).toEqual(['send_email']);
    expect(await namesFound(cookie, id, 'creating tickets')).toEqual([]);
  });

  it('is rebuilt when a connection is deleted, and when one is added', async () => {
    const { cookie, id, connectionId } = await workspaceWithTools();
    await t.connectMcp(cookie, id, { name: 'mail', url: mail.url });
    expect(await namesFound(cookie, id, 'send an email')).toEqual(['send_email']);
    expect((await t.request('DELETE', `/api/connections/${connectionId}`, { cookie })).status).toBe(200);
    expect(await namesFound(cookie, id, 'creating tickets')).toEqual([]);
    expect(await namesFound(cookie, id, 'send an email')).toEqual(['send_email']);
  });
});

describe('GET /api/workspaces/:id/tools/search: requests it refuses', () => {
  it.each([
    ['', 'q'],
    ['q=', 'q'],
    ['q=%20%20', 'q'],
    [`q=${'x'.repeat(501)}`, 'q'],
    ['q=ticket&limit=0', 'limit'],
    ['q=ticket&limit=51', 'limit'],
    ['q=ticket&limit=1.5', 'limit'],
    ['q=ticket&limit=ten', 'limit'],
    ['q=ticket&limit=-1', 'limit'],
  ])('answers 400 { error, details } naming the field for ?%s', async (query, field) => {
    const { cookie, id } = await workspaceWithTools();
    const response = await search(cookie, id, query);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid query string');
    expect(pathsOf(response)).toEqual([field]);
  });

  it('takes q of 500 characters and limit 50', async () => {
    const { cookie, id } = await workspaceWithTools();
    const response = await search(cookie, id, `q=${'ticket '.repeat(72).slice(0, 500)}&limit=50`);
    expect(response.status).toBe(200);
    expect(response.body.tools[0]?.name).toBe('create_ticket');
  });

  it("answers 404 for another organisation's workspace and for one that does not exist", async () => {
    const { id } = await workspaceWithTools();
    const stranger = await t.signUp();
    const foreign = await search(stranger.cookie, id, 'q=ticket');
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('create_ticket');
    expect((await search(stranger.cookie, 'ws-no-such-workspace', 'q=ticket')).status).toBe(404);
  });
});

describe('the tool_search setting (PUT /api/workspaces/:id)', () => {
  const summaryOf = async (cookie: string, id: string) =>
    (await t.request('GET', `/api/workspaces/${id}/summary`, { cookie })).body.workspace;

  it('defaults to auto, 30 tools, nothing pinned', async () => {
    const { cookie, id } = await workspaceWithTools();
    expect((await summaryOf(cookie, id)).tool_search).toEqual({ mode: 'auto', threshold: 30, pinned: [] });
  });

  it('is stored and shown; a name pinned twice is pinned once; fields left out take their defaults', async () => {
    const { cookie, id } = await workspaceWithTools();
    const setting = { mode: 'always', threshold: 5, pinned: ['create_ticket', 'helpdesk__search_docs', 'create_ticket'] };
    const saved = await t.request('PUT', `/api/workspaces/${id}`, { cookie, body: { tool_search: setting } });
    expect(saved.status, saved.text).toBe(200);
    const expected = { mode: 'always', threshold: 5, pinned: ['create_ticket', 'helpdesk__search_docs'] };
    expect(saved.body.workspace.tool_search).toEqual(expected);
    expect((await summaryOf(cookie, id)).tool_search).toEqual(expected);
    expect((await t.request('GET', `/api/workspaces/${id}`, { cookie })).body.workspace.tool_search).toEqual(expected);
    const replaced = await t.request('PUT', `/api/workspaces/${id}`, { cookie, body: { tool_search: { mode: 'off' } } });
    expect(replaced.body.workspace.tool_search).toEqual({ mode: 'off', threshold: 30, pinned: [] });
  });

  it.each([
    [{ mode: 'sometimes' }, 'tool_search.mode'],
    [{ threshold: 0 }, 'tool_search.threshold'],
    [{ threshold: 1001 }, 'tool_search.threshold'],
    [{ threshold: 2.5 }, 'tool_search.threshold'],
    [{ threshold: '30' }, 'tool_search.threshold'],
    [{ pinned: 'create_ticket' }, 'tool_search.pinned'],
    [{ pinned: Array.from({ length: 51 }, (_, index) => `tool_${index}`) }, 'tool_search.pinned'],
    [{ pinned: ['bad name!'] }, 'tool_search.pinned.0'],
    [{ pinned: [''] }, 'tool_search.pinned.0'],
  ])('answers 400 naming the field for %j and changes nothing', async (toolSearch, field) => {
    const { cookie, id } = await workspaceWithTools();
    const before = await summaryOf(cookie, id);
    const response = await t.request('PUT', `/api/workspaces/${id}`, { cookie, body: { tool_search: toolSearch } });
    expect(response.status).toBe(400);
    expect(pathsOf(response)).toEqual([field]);
    expect(await summaryOf(cookie, id)).toEqual(before);
  });

  it('is for admins: a member gets 403', async () => {
    const { cookie, id } = await workspaceWithTools();
    const member = await t.addMember(cookie);
    const response = await t.request('PUT', `/api/workspaces/${id}`, { cookie: member.cookie, body: { tool_search: { mode: 'off' } } });
    expect(response.status).toBe(403);
    expect((await summaryOf(cookie, id)).tool_search.mode).toBe('auto');
  });
});
