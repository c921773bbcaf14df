import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { queriesSettled } from '../../shared/http/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPersonMcpRequest } from '../../shared/agent/gateway/index.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';
import { CLIENT_NAME, gatewayClient, personPrincipal, textOf, type ToolResult } from '../support/mcp-gateway.js';
import { standardTools, startHttpMcpServer, type TestTool } from '../support/mcp-servers.js';
import { startOAuthMcpServer } from '../support/oauth-mcp-server.js';

/*
 * The workspace as an MCP server for a person (issue 48, items 3 and 4): what they list and call
 * through the gateway, driven by the MCP SDK's client against real MCP servers on loopback.
 */

/** 300 tools, each with words of its own; one refunds invoices. */
const MANY: TestTool[] = Array.from({ length: 300 }, (_, index) => {
  const name = `tool_${String(index).padStart(3, '0')}`;
  if (index === 123) return { name, description: 'Refund an invoice to the customer', run: () => 'refunded' };
  return { name, description: `Look up catalogue item number ${index} in warehouse ${index % 7}`, run: () => `item ${index}` };
});

let t: TestContext;
let model: FakeModel;
const helpdesk = await startHttpMcpServer({ name: 'helpdesk', tools: standardTools() });
const many = await startHttpMcpServer({ name: 'many', tools: MANY });
const mailbox = await startOAuthMcpServer();

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await Promise.all([model.stop(), helpdesk.stop(), many.stop(), mailbox.close()]);
});

/** An organisation with a workspace on the helpdesk server, its admin and a member, each with a gateway client. */
async function setup(options: { member?: boolean } = {}) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Gateway ${t.uniqueEmail('ws')}` });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'helpdesk', url: helpdesk.url });
  const org = admin.org.id as string;
  const adminPrincipal = personPrincipal(t, { ...admin.user, email: admin.email }, { orgId: org, role: 'admin' }, workspace.id);
  const member = options.member ? await t.addMember(admin.cookie, { name: 'Mia Member' }) : undefined;
  const memberPrincipal = member ? personPrincipal(t, member.user, { orgId: org, role: 'member' }, workspace.id) : undefined;
  return { admin, member, workspaceId: workspace.id, org, adminPrincipal, memberPrincipal };
}

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

async function activityOf(cookie: string, workspaceId: string) {
  // Audit entries are written after the answers (shared/agent/gateway/call.ts): the process waits for them.
  await queriesSettled();
  const listed = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie });
  expect(listed.status, listed.text).toBe(200);
  return listed.body as { activity: Record<string, unknown>[]; total: number };
}

describe('tools/list: the tools this person may use, and ask', () => {
  it("lists what the person's role may use under the agent's names, with their schemas, plus ask", async () => {
    const { admin, workspaceId, adminPrincipal, memberPrincipal } = await setup({ member: true });
    const set = await t.request('PUT', `/api/workspaces/${workspaceId}/permissions/member`, {
      cookie: admin.cookie,
      body: { tool_patterns: ['search_*', 'plain_tool'] },
    });
    expect(set.status, set.text).toBe(200);
    const asAdmin = await gatewayClient(t.deps, adminPrincipal, workspaceId);
    const asMember = await gatewayClient(t.deps, memberPrincipal!, workspaceId);
    expect(await names(asAdmin)).toEqual(['create_ticket', 'fail_tool', 'plain_tool', 'search_docs', 'slow_tool', 'ask']);
    const { tools } = await asMember.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['plain_tool', 'search_docs', 'ask']);
    expect(tools[1]).toMatchObject({
      description: 'Search the documentation',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    });
    expect(tools[2]?.inputSchema).toMatchObject({ required: ['question'] });
    await Promise.all([asAdmin.close(), asMember.close()]);
  });

  it('refuses a tool the permissions deny by its name, without calling its server, and audits the attempt', async () => {
    const { admin, workspaceId, memberPrincipal } = await setup({ member: true });
    await t.request('PUT', `/api/workspaces/${workspaceId}/permissions/member`, {
      cookie: admin.cookie,
      body: { tool_patterns: ['search_*'] },
    });
    const client = await gatewayClient(t.deps, memberPrincipal!, workspaceId);
    expect(await names(client)).toEqual(['search_docs', 'ask']);
    const calls = helpdesk.stats.toolCalls;
    await expect(client.callTool({ name: 'create_ticket', arguments: { title: 'sneaky' } })).rejects.toThrow(/unknown tool: create_ticket/);
    expect(helpdesk.stats.toolCalls).toBe(calls);
    const { activity } = await activityOf(admin.cookie, workspaceId);
    expect(activity[0]).toMatchObject({
      kind: 'tool_call',
      tool: 'create_ticket',
      outcome: 'unknown_tool',
      user_id: memberPrincipal!.userId,
    });
    await client.close();
  });

  it('neither lists nor calls a tool a block_tool guardrail names', async () => {
    const { admin, workspaceId, adminPrincipal } = await setup();
    const guardrail = await t.request('POST', `/api/workspaces/${workspaceId}/guardrails`, {
      cookie: admin.cookie,
      body: { name: 'No tickets', type: 'block_tool', pattern: 'create_*' },
    });
    expect(guardrail.status, guardrail.text).toBe(201);
    const client = await gatewayClient(t.deps, adminPrincipal, workspaceId);
    expect(await names(client)).not.toContain('create_ticket');
    expect(await names(client)).toContain('search_docs');
    const calls = helpdesk.stats.toolCalls;
    await expect(client.callTool({ name: 'create_ticket', arguments: { title: 'x' } })).rejects.toThrow(/unknown tool/);
    expect(helpdesk.stats.toolCalls).toBe(calls);
    await client.close();
  });

  it('applies a guardrail or a permission added while a client is connected at its next request (the process forgets what it read)', async () => {
    const { admin, workspaceId, adminPrincipal } = await setup();
    const client = await gatewayClient(t.deps, adminPrincipal, workspaceId);
    expect(await names(client)).toContain('create_ticket');
    const reads = t.deps.table.roundTrips;
    expect(await names(client)).toContain('create_ticket');
    expect(t.deps.table.roundTrips, 'a listing read again within seconds comes from the process').toBe(reads);
    const guardrail = await t.request('POST', `/api/workspaces/${workspaceId}/guardrails`, {
      cookie: admin.cookie,
      body: { name: 'No tickets', type: 'block_tool', pattern: 'create_*' },
    });
    expect(guardrail.status, guardrail.text).toBe(201);
    expect(await names(client)).not.toContain('create_ticket');
    await expect(client.callTool({ name: 'create_ticket', arguments: { title: 'x' } })).rejects.toThrow(/unknown tool/);
    const permissions = await t.request('PUT', `/api/workspaces/${workspaceId}/permissions/admin`, {
      cookie: admin.cookie,
      body: { tool_patterns: ['plain_*'] },
    });
    expect(permissions.status, permissions.text).toBe(200);
    expect(await names(client)).toEqual(['plain_tool', 'ask']);
    await client.close();
  });

  it('past the tool-search threshold lists search_tools, the pinned tools and ask (300 tools), and a found tool is callable by its name', async () => {
    const { admin, workspaceId, adminPrincipal } = await setup();
    const connected = await t.connectMcp(admin.cookie, workspaceId, { name: 'many', url: many.url });
    expect(connected.tools).toBe(300);
    const put = await t.request('PUT', `/api/workspaces/${workspaceId}`, {
      cookie: admin.cookie,
      body: { tool_search: { mode: 'auto', threshold: 30, pinned: ['search_docs'] } },
    });
    expect(put.status, put.text).toBe(200);
    const client = await gatewayClient(t.deps, adminPrincipal, workspaceId);
    const listed = await names(client);
    expect(listed).toEqual(['search_tools', 'search_docs', 'ask']);
    expect(listed.length).toBeLessThanOrEqual(12);
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'refund an invoice' } });
    expect(found.isError).toBeFalsy();
    expect(textOf(found).split('\n')[0]).toMatch(/^tool_123: Refund an invoice/);
    const called = await client.callTool({ name: 'tool_123', arguments: {} });
    expect(textOf(called)).toBe('refunded');
    // A tool not listed is callable by its name all the same (nothing is remembered between requests).
    expect(textOf(await client.callTool({ name: 'tool_007', arguments: {} }))).toBe('item 7');
    await client.close();
  });
});

describe('tools/call: the path of the agent’s own calls', () => {
  it('calls the tool and audits each call: kind tool_call, the person, the client, the tool, the outcome, the duration', async () => {
    const { admin, workspaceId, adminPrincipal } = await setup();
    const client = await gatewayClient(t.deps, adminPrincipal, workspaceId);
    const result = (await client.callTool({ name: 'search_docs', arguments: { query: 'vpn' } })) as ToolResult;
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'results for vpn' }] });
    expect(result.isError).toBeFalsy();
    const failed = await client.callTool({ name: 'fail_tool', arguments: {} });
    expect(failed.isError).toBe(true);
    const { activity, total } = await activityOf(admin.cookie, workspaceId);
    expect(total).toBe(2);
    expect(activity).toMatchObject([
      { kind: 'tool_call', tool: 'fail_tool', outcome: 'error', error: expect.stringMatching(/the tool broke/) },
      {
        kind: 'tool_call',
        user_id: adminPrincipal.userId,
        user_name: adminPrincipal.name,
        client: CLIENT_NAME,
        consumer: `mcp:${CLIENT_NAME}`,
        tool: 'search_docs',
        tools_called: ['search_docs'],
        connections_hit: ['helpdesk'],
        outcome: 'ok',
        error: null,
        conversation_id: null,
        cost_usd: 0,
      },
    ]);
    expect(activity[1]?.duration_ms).toEqual(expect.any(Number));
    await queriesSettled();
    const byTool = await t.request('GET', `/api/workspaces/${workspaceId}/activity?tool=search_docs`, { cookie: admin.cookie });
    expect(byTool.body.activity).toHaveLength(1);
    const csv = await t.request('GET', `/api/workspaces/${workspaceId}/activity.csv`, { cookie: admin.cookie });
    const [header, first] = csv.text.split('\r\n');
    expect(header?.split(',').slice(-4)).toEqual(['kind', 'client', 'tool', 'outcome']);
    expect(first?.split(',').slice(-4)).toEqual(['tool_call', CLIENT_NAME, 'fail_tool', 'error']);
    await client.close();
  });

  it('blocks a call whose arguments match an input guardrail before it leaves, and redacts an answer an output guardrail names', async () => {
    const { admin, workspaceId, adminPrincipal } = await setup();
    for (const body of [
      { name: 'No secrets', type: 'block_pattern', pattern: 'secret\\d+', applies_to: 'input' },
      { name: 'Tokens', type: 'redact_pattern', pattern: 'token\\d+', applies_to: 'output' },
    ]) {
      const created = await t.request('POST', `/api/workspaces/${workspaceId}/guardrails`, { cookie: admin.cookie, body });
      expect(created.status, created.text).toBe(201);
    }
    const client = await gatewayClient(t.deps, adminPrincipal, workspaceId);
    const calls = helpdesk.stats.toolCalls;
    const blocked = await client.callTool({ name: 'search_docs', arguments: { query: 'the secret42 plan' } });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toMatch(/guardrail "No secrets"/);
    expect(helpdesk.stats.toolCalls).toBe(calls);
    const redacted = await client.callTool({ name: 'search_docs', arguments: { query: 'token77' } });
    expect(textOf(redacted)).toBe('results for [redacted]');
    const { activity } = await activityOf(admin.cookie, workspaceId);
    expect(activity.map((entry) => entry.outcome)).toEqual(['ok', 'blocked']);
    await client.close();
  });

  it('answers ask with the agent, as the person: the conversation is theirs', async () => {
    const { member, workspaceId, memberPrincipal } = await setup({ member: true });
    model.reset();
    model.reply(textReply('Hello from the workspace.'));
    const client = await gatewayClient(t.deps, memberPrincipal!, workspaceId);
    const answered = (await client.callTool({ name: 'ask', arguments: { question: 'Hi?' } })) as ToolResult;
    expect(textOf(answered)).toBe('Hello from the workspace.');
    const conversationId = answered.structuredContent?.conversation_id as string;
    const mine = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${conversationId}`, { cookie: member!.cookie });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.conversation).toMatchObject({ user_name: 'Mia Member' });
    await client.close();
  });

  it('is 404 for a workspace of another organisation, and for none', async () => {
    const { adminPrincipal } = await setup();
    const other = await setup();
    const request = () =>
      new Request(`http://gateway.test/api/workspaces/${other.workspaceId}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    await expect(answerPersonMcpRequest(t.deps, adminPrincipal, other.workspaceId, request())).rejects.toMatchObject({ status: 404 });
    await expect(answerPersonMcpRequest(t.deps, adminPrincipal, 'ws_nothing_here', request())).rejects.toMatchObject({ status: 404 });
  });
});

describe('tools/call of a per-user connection', () => {
  async function perUser() {
    const setupped = await setup({ member: true });
    const saved = await t.request('POST', '/api/connectors/mcp', {
      cookie: setupped.admin.cookie,
      body: {
        workspace_id: setupped.workspaceId,
        name: 'Mailbox',
        transport: 'http',
        url: mailbox.url,
        auth: 'oauth',
        credential: 'per_user',
      },
    });
    expect(saved.status, saved.text).toBe(201);
    // The admin's own grant lists the tools.
    const location = new URL(await mailbox.login(saved.body.authorization_url, 'alice'));
    const callback = await t.request('GET', `${location.pathname}${location.search}`, { cookie: setupped.admin.cookie });
    expect(callback.status, callback.text).toBe(200);
    return setupped;
  }

  it('without a grant of their own: a tool error with the link; with their grant, the call acts as them', async () => {
    const { member, workspaceId, memberPrincipal, adminPrincipal } = await perUser();
    const client = await gatewayClient(t.deps, memberPrincipal!, workspaceId);
    expect(await names(client)).toContain('whoami');
    const calls = mailbox.toolCalls.length;
    const refused = await client.callTool({ name: 'whoami', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/"Mailbox" needs your own authorization/);
    const link = /https?:\/\/\S+/.exec(textOf(refused))?.[0];
    expect(link).toEqual(expect.stringContaining('code_challenge='));
    expect(mailbox.toolCalls.length).toBe(calls);
    // The link is the member's own grant: finished by them, their calls go as them.
    const location = new URL(await mailbox.login(link!, 'bob'));
    expect((await t.request('GET', `${location.pathname}${location.search}`, { cookie: member!.cookie })).status).toBe(200);
    await client.callTool({ name: 'whoami', arguments: {} });
    const asAdmin = await gatewayClient(t.deps, adminPrincipal, workspaceId);
    await asAdmin.callTool({ name: 'whoami', arguments: {} });
    expect(mailbox.toolCalls.slice(-2).map((call) => call.user)).toEqual(['bob', 'alice']);
    await Promise.all([client.close(), asAdmin.close()]);
  });

  it('sends a URL-mode elicitation to the link when the client declares one', async () => {
    const { admin, workspaceId, memberPrincipal } = await perUser();
    const client = await gatewayClient(t.deps, memberPrincipal!, workspaceId, { urlElicitation: true });
    const error = await client.callTool({ name: 'whoami', arguments: {} }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    const [elicitation] = (error as UrlElicitationRequiredError).elicitations;
    expect(elicitation).toMatchObject({ mode: 'url', message: expect.stringMatching(/"Mailbox" needs your own authorization/) });
    expect(elicitation?.url).toEqual(expect.stringContaining('code_challenge='));
    const { activity } = await activityOf(admin.cookie, workspaceId);
    expect(activity[0]).toMatchObject({ tool: 'whoami', outcome: 'needs_authorization' });
    await client.close();
  });
});
