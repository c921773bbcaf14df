import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, visibleTools, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';
import { standardTools, startHttpMcpServer, type TestTool } from '../support/mcp-servers.js';

/*
 * The model searches a workspace's tools instead of reading every definition (CONTRACT.md, "Many
 * tools"): the real Anthropic SDK against the fake Messages API, which loads deferred tools as the
 * API does (a deferred definition is read once a tool result references it, and it refuses what
 * the API refuses), and real MCP servers on loopback.
 */

const calls: string[] = [];
const counted = (name: string, text: string): TestTool => ({
  name,
  description: text,
  run: () => {
    calls.push(name);
    return `${name} ran`;
  },
});
/** Nine tools: the standard five (create_ticket a write tool) and four more. */
const TOOLS: TestTool[] = [
  ...standardTools().map((tool) => ({
    ...tool,
    run: (args: Record<string, unknown>) => {
      calls.push(tool.name);
      return tool.run(args);
    },
  })),
  counted('refund_order', 'Refund a customer order in full'),
  counted('track_parcel', 'Where a parcel is on its way'),
  counted('list_invoices', 'The invoices of a customer'),
  counted('close_account', 'Close a customer account for good'),
];

const helpdesk = await startHttpMcpServer({ name: 'helpdesk', tools: TOOLS });
let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
  await helpdesk.stop();
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
  calls.length = 0;
});

let names = 0;
/** An organisation with a workspace connected to the helpdesk (9 tools) and this tool_search setting. */
async function workspaceWith(toolSearch: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const admin = await t.signUp();
  names += 1;
  const workspace = await t.createWorkspace(admin.cookie, { name: `Searching ${names}` });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'helpdesk', url: helpdesk.url });
  const set = await t.request('PUT', `/api/workspaces/${workspace.id}`, {
    cookie: admin.cookie,
    body: { tool_search: toolSearch, ...more },
  });
  expect(set.status, set.text).toBe(200);
  return { admin, id: workspace.id };
}

async function ask(cookie: string, workspaceId: string, query = 'Please open a ticket about my broken login') {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query } });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const toolsOf = (request: ModelRequestRecord | undefined) => request?.body.tools ?? [];
const deferredOf = (request: ModelRequestRecord | undefined) =>
  toolsOf(request)
    .filter((tool) => tool.defer_loading)
    .map((tool) => tool.name);
/** The text of the tool result for the call `id` in a request's last message. */
function toolResultText(request: ModelRequestRecord | undefined): string {
  const last = request?.body.messages.at(-1)?.content as { type: string; content?: unknown }[] | undefined;
  const result = last?.find((block) => block.type === 'tool_result');
  if (typeof result?.content === 'string') return result.content;
  return ((result?.content as { type: string; text?: string }[] | undefined) ?? [])
    .map((block) => block.text ?? `<${block.type}>`)
    .join('|');
}

describe('tool search in the agent loop (Anthropic: deferred loading)', () => {
  it('offers search_tools with every other tool deferred; a tool it finds is called in the same query, with the same definitions each turn', async () => {
    const { admin, id } = await workspaceWith({ mode: 'auto', threshold: 3 });
    model.reply(
      toolUseReply([{ name: 'search_tools', input: { query: 'open a support ticket' } }]),
      toolUseReply([{ name: 'create_ticket', input: { title: 'Broken login' } }]),
      textReply('I opened the ticket.'),
    );
    const answer = await ask(admin.cookie, id);
    expect(answer.answer).toBe('I opened the ticket.');
    expect(answer.tools_called).toEqual(['search_tools', 'create_ticket']);
    expect(calls).toEqual(['create_ticket']);

    const [first, second, third] = model.requests;
    // The first call: search_tools is the only definition the model reads; the nine tools are deferred.
    expect(toolsOf(first)[0]?.name).toBe('search_tools');
    expect(deferredOf(first).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
    expect(visibleTools(first!.body)).toEqual(['search_tools']);
    expect(first?.body.system?.[0]?.text).toContain('search_tools');
    // The search's result lists the matches, one line each, and references the tools found.
    expect(toolResultText(second)).toMatch(/^create_ticket: Open a support ticket/);
    expect(toolResultText(second)).toContain('<tool_reference>');
    expect(visibleTools(second!.body)).toContain('create_ticket');
    expect(toolResultText(third)).toContain('ticket created: Broken login');
    // The definitions are the same bytes on every turn, and on the next query (the prompt cache holds).
    const definitions = JSON.stringify(toolsOf(first));
    expect(JSON.stringify(toolsOf(second))).toBe(definitions);
    expect(JSON.stringify(toolsOf(third))).toBe(definitions);
    model.reset();
    await ask(admin.cookie, id, 'Another question');
    expect(JSON.stringify(toolsOf(model.requests[0]))).toBe(definitions);
  });

  it('streams a search as a tool call whose result says what it found', async () => {
    const { admin, id } = await workspaceWith({ mode: 'always' });
    model.reply(
      toolUseReply([{ name: 'search_tools', input: { query: 'refund an order' } }]),
      toolUseReply([{ name: 'refund_order', input: {} }]),
      textReply('Refunded.'),
    );
    const streamed = await t.request('POST', `/api/workspaces/${id}/query`, {
      cookie: admin.cookie,
      headers: { accept: 'text/event-stream' },
      body: { query: 'Refund order 7' },
    });
    const events: EventSourceMessage[] = [];
    createParser({ onEvent: (event) => events.push(event) }).feed(streamed.text);
    const results = events.filter((event) => event.event === 'tool_result').map((event) => JSON.parse(event.data));
    expect(results[0]).toMatchObject({ name: 'search_tools', is_error: false, found: expect.arrayContaining(['refund_order']) });
    expect(results[1]).toMatchObject({ name: 'refund_order', is_error: false });
    expect(results[1]).not.toHaveProperty('found');
    expect(calls).toEqual(['refund_order']);
  });

  it('refuses a deferred tool the query has not found: it does not run, and the model is told it is unknown', async () => {
    const { admin, id } = await workspaceWith({ mode: 'always' });
    model.reply(toolUseReply([{ name: 'close_account', input: {} }]), textReply('Could not.'));
    const answer = await ask(admin.cookie, id, 'Close my account');
    expect(calls).toEqual([]);
    expect(toolResultText(model.requests[1])).toContain('unknown tool: close_account');
    expect(answer.answer).toBe('Could not.');
  });

  it('searches only past the threshold: 9 usable tools with threshold 9 are all sent, with threshold 8 they are searched', async () => {
    const under = await workspaceWith({ mode: 'auto', threshold: 9 });
    await ask(under.admin.cookie, under.id);
    expect(toolsOf(model.requests[0]).map((tool) => tool.name)).not.toContain('search_tools');
    expect(deferredOf(model.requests[0])).toEqual([]);
    expect(toolsOf(model.requests[0])).toHaveLength(9);
    model.reset();
    const over = await workspaceWith({ mode: 'auto', threshold: 8 });
    await ask(over.admin.cookie, over.id);
    expect(visibleTools(model.requests[0]!.body)).toEqual(['search_tools']);
    model.reset();
    const off = await workspaceWith({ mode: 'off' });
    await ask(off.admin.cookie, off.id);
    expect(toolsOf(model.requests[0])).toHaveLength(9);
  });

  it('always sends the pinned tools, whatever name pins them', async () => {
    const { admin, id } = await workspaceWith({ mode: 'always', pinned: ['search_docs', 'helpdesk__track_parcel'] });
    await ask(admin.cookie, id);
    expect(visibleTools(model.requests[0]!.body)).toEqual(['search_tools', 'search_docs', 'track_parcel']);
  });

  it('never finds, lists or loads a tool the caller may not use (role permissions, block_tool)', async () => {
    const { admin, id } = await workspaceWith({ mode: 'always' });
    const member = await t.addMember(admin.cookie);
    const permit = await t.request('PUT', `/api/workspaces/${id}/permissions/member`, {
      cookie: admin.cookie,
      body: { tool_patterns: ['*_ticket', 'refund_*', 'close_*'] },
    });
    expect(permit.status, permit.text).toBe(200);
    const guard = await t.request('POST', `/api/workspaces/${id}/guardrails`, {
      cookie: admin.cookie,
      body: { name: 'No closing', type: 'block_tool', pattern: 'close_account' },
    });
    expect(guard.status, guard.text).toBe(201);
    model.reply(
      toolUseReply([{ name: 'search_tools', input: { query: 'close account refund order ticket docs invoices', limit: 10 } }]),
      toolUseReply([{ name: 'list_invoices', input: {} }]),
      textReply('done'),
    );
    await ask(member.cookie, id, 'Close my account and refund my order');
    const [first, second, third] = model.requests;
    expect(
      toolsOf(first)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(['create_ticket', 'refund_order', 'search_tools']);
    const found = toolResultText(second);
    expect(found).toContain('refund_order: ');
    expect(found).toContain('create_ticket: ');
    for (const hidden of ['close_account', 'list_invoices', 'search_docs']) expect(found).not.toContain(hidden);
    // A tool the member may not use is unknown to the loop even when the model names it.
    expect(toolResultText(third)).toContain('unknown tool: list_invoices');
    expect(calls).toEqual([]);
    // The console's ranking is the same for the same caller.
    const ranked = await t.request(
      'GET',
      `/api/workspaces/${id}/tools/search?q=${encodeURIComponent('close account refund order ticket')}`,
      {
        cookie: member.cookie,
      },
    );
    expect(ranked.body.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['create_ticket', 'refund_order']);
  });

  it('keeps the tools a search found across an approval: the approved call runs and the next turn still reads it', async () => {
    const { admin, id } = await workspaceWith(
      { mode: 'always' },
      { approval: { mode: 'write_tools', approvers: 'requester', expires_minutes: 60 } },
    );
    model.reply(
      toolUseReply([{ name: 'search_tools', input: { query: 'support ticket' } }]),
      toolUseReply([{ name: 'create_ticket', input: { title: 'Approved one' } }]),
    );
    const paused = await ask(admin.cookie, id);
    expect(paused.pending_approval).toMatchObject({ tool: 'create_ticket' });
    model.reply(textReply('Ticket opened after approval.'));
    const decided = await t.request('POST', `/api/workspaces/${id}/approvals/${paused.pending_approval.id}`, {
      cookie: admin.cookie,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.answer).toBe('Ticket opened after approval.');
    expect(calls).toEqual(['create_ticket']);
    const after = model.requests.at(-1);
    expect(toolResultText(after)).toContain('ticket created: Approved one');
    expect(visibleTools(after!.body)).toContain('create_ticket');
    expect(JSON.stringify(toolsOf(after))).toBe(JSON.stringify(toolsOf(model.requests[0])));
  });

  it('answers a search without a query, or with a limit out of range, with an error result the model can correct', async () => {
    const { admin, id } = await workspaceWith({ mode: 'always' });
    model.reply(
      toolUseReply([
        { name: 'search_tools', input: { query: '  ' } },
        { name: 'search_tools', input: { query: 'ticket', limit: 50 } },
      ]),
      textReply('ok'),
    );
    await ask(admin.cookie, id);
    const results = ((model.requests[1]?.body.messages.at(-1)?.content ?? []) as { content: string; is_error?: boolean }[]).map((block) => [
      block.content,
      block.is_error,
    ]);
    expect(results).toEqual([
      ['query is required: what the tool should do, in a few words', true],
      ['limit must be a whole number from 1 to 10', true],
    ]);
  });
});
