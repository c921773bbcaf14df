import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addWorkspaceCounters } from '../../shared/workspaces/counters.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { errorReply, startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { STDIO_SERVER_ARGS, startHttpMcpServer, standardTools } from '../support/mcp-servers.js';

let t: TestContext;
let model: FakeModel;
let docs: Awaited<ReturnType<typeof startHttpMcpServer>>;
let billing: Awaited<ReturnType<typeof startHttpMcpServer>>;

beforeAll(async () => {
  model = await startFakeModel();
  docs = await startHttpMcpServer({ name: 'docs-server', tools: standardTools({ hangMs: 5_000, tag: 'docs' }) });
  billing = await startHttpMcpServer({ name: 'billing-server', tools: standardTools({ tag: 'billing' }).slice(0, 2) });
  t = await createTestContext({
    env: {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-service-fallback-key',
      MCP_TIMEOUT_MS: '1500',
      MODEL_MAX_RETRIES: '1',
    },
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all([model.stop(), docs.stop(), billing.stop()]);
});
beforeEach(() => model.reset());

async function workspaceWith(
  connections: { name: string; url?: string; transport?: 'http' | 'stdio'; command?: string; args?: string[] }[],
) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, {
    name: `Query ${t.uniqueEmail('ws')}`,
    system_prompt: 'You answer support questions.',
  });
  for (const connection of connections) await t.connectMcp(admin.cookie, workspace.id, connection);
  return { admin, workspaceId: workspace.id };
}

function ask(cookie: string, workspaceId: string, body: Record<string, unknown>) {
  return t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body });
}

describe('POST /api/workspaces/:id/query', () => {
  it('runs the loop over MCP tools and answers with tools, connections, tokens, cost and timing', async () => {
    const { admin, workspaceId } = await workspaceWith([{ name: 'docs', url: docs.url }]);
    model.reply(
      toolUseReply([{ name: 'search_docs', input: { query: 'reset password' } }], { input_tokens: 1000, output_tokens: 50 }),
      textReply('Go to Settings → Reset.', { input_tokens: 1200, output_tokens: 80 }),
    );
    const response = await ask(admin.cookie, workspaceId, { query: 'How do I reset my password?' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      answer: 'Go to Settings → Reset.',
      tools_called: ['search_docs'],
      connections_hit: ['docs'],
      tokens: { input: 2200, output: 130, cache_read: 0, cache_write: 0 },
      error: null,
    });
    // balanced tier: $3 in, $15 out per million tokens.
    expect(response.body.cost_usd).toBeCloseTo((2200 * 3 + 130 * 15) / 1e6, 9);
    expect(response.body.conversation_id).toMatch(/^conv_/);
    expect(response.body.session_id).toBe(response.body.conversation_id);
    expect(response.body.duration_ms).toBeGreaterThanOrEqual(0);
    expect(response.headers.get('server-timing')).toMatch(/overhead;dur=[\d.]+, model;dur=[\d.]+, tools;dur=[\d.]+, total;dur=[\d.]+/);

    // What the model received: system prompt and tools first, marked for caching, then the question;
    // the tool result went back in the second call.
    const [first, second] = model.requests;
    expect(first?.body.model).toBe('claude-sonnet-4-6');
    expect(first?.body.system).toEqual([{ type: 'text', text: 'You answer support questions.', cache_control: { type: 'ephemeral' } }]);
    expect(first?.body.tools?.map((tool) => tool.name)).toEqual(['create_ticket', 'fail_tool', 'plain_tool', 'search_docs', 'slow_tool']);
    expect(first?.body.tools?.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(first?.body.tools?.[0]?.cache_control).toBeUndefined();
    expect(first?.headers.authorization).toBe('Bearer sk-service-fallback-key');
    const toolResult = (second?.body.messages.at(-1)?.content as { type: string; content: string; is_error: boolean }[])?.[0];
    expect(toolResult).toMatchObject({ type: 'tool_result', content: 'results for reset password (docs)', is_error: false });
  });

  it('saves the conversation, its messages with seq, an audit entry and the counters', async () => {
    const { admin, workspaceId } = await workspaceWith([{ name: 'docs', url: docs.url }]);
    model.reply(toolUseReply([{ name: 'search_docs', input: { query: 'x' } }]), textReply('first answer'));
    const first = await ask(admin.cookie, workspaceId, { query: 'first question' });
    model.reply(textReply('second answer'));
    await ask(admin.cookie, workspaceId, { query: 'second question', session_id: first.body.session_id });

    const detail = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${first.body.conversation_id}`, {
      cookie: admin.cookie,
    });
    expect(detail.status).toBe(200);
    expect(detail.body.conversation).toMatchObject({
      id: first.body.conversation_id,
      workspace_id: workspaceId,
      consumer_type: 'api',
      status: 'open',
      user_name: 'Ada Admin',
      channel: null,
      message_count: 4,
      stats_status: 'pending',
      sentiment_score: null,
    });
    expect(detail.body.messages.map((m: { seq: number; role: string; content: string }) => [m.seq, m.role, m.content])).toEqual([
      [1, 'user', 'first question'],
      [2, 'assistant', 'first answer'],
      [3, 'user', 'second question'],
      [4, 'assistant', 'second answer'],
    ]);
    expect(detail.body.messages[0].tools_called).toBeNull();
    expect(JSON.parse(detail.body.messages[1].tools_called)).toEqual(['search_docs']);
    expect(detail.body.messages[1].tokens_output).toBe(40);
    expect(detail.body.stats).toMatchObject({ stats_status: 'pending', summary: null });
    expect(detail.body.conversation.total_cost_usd).toBeCloseTo(first.body.cost_usd + (100 * 3 + 20 * 15) / 1e6, 9);

    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.total).toBe(2);
    expect(activity.body.activity[0]).toMatchObject({ query: 'second question', tools_called: [], user_name: 'Ada Admin' });
    expect(activity.body.activity[1]).toMatchObject({ query: 'first question', tools_called: ['search_docs'], connections_hit: ['docs'] });

    const list = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
    const item = list.body.workspaces.find((w: { id: string }) => w.id === workspaceId);
    expect(item.queries_today).toBe(2);
    expect(item.cost_mtd).toBeCloseTo(first.body.cost_usd + (100 * 3 + 20 * 15) / 1e6, 6);
    const stats = (await t.request('GET', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie })).body.stats;
    expect(stats).toMatchObject({ today: 2, week: 2, month: 2, error_rate: 0 });

    const conversations = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?status=open`, { cookie: admin.cookie });
    expect(conversations.body.total).toBe(1);
    expect(conversations.body.conversations[0].id).toBe(first.body.conversation_id);
  });

  it('sends the stored conversation as context on a follow-up, and history only for a new conversation', async () => {
    const { admin, workspaceId } = await workspaceWith([]);
    model.reply(textReply('Paris.'));
    const first = await ask(admin.cookie, workspaceId, {
      query: 'And its capital?',
      session_id: 'client-session-1',
      history: [
        { role: 'user', content: 'Tell me about France.' },
        { role: 'assistant', content: 'France is a country in Europe.' },
      ],
    });
    expect(first.body.conversation_id).toBe('client-session-1');
    expect(model.requests[0]?.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Tell me about France.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'France is a country in Europe.' }] },
      // The conversation's cache breakpoint: on the last block, so the next call reads all of it.
      { role: 'user', content: [{ type: 'text', text: 'And its capital?', cache_control: { type: 'ephemeral' } }] },
    ]);
    model.reply(textReply('About 2 million.'));
    await ask(admin.cookie, workspaceId, {
      query: 'Population?',
      session_id: 'client-session-1',
      history: [{ role: 'user', content: 'ignored on an existing conversation' }],
    });
    const sent = model.requests[1]?.body.messages.map((m) => (m.content as { text: string }[])?.[0]?.text);
    expect(sent).toEqual(['Tell me about France.', 'France is a country in Europe.', 'And its capital?', 'Paris.', 'Population?']);
  });

  it('runs the tool calls of one turn concurrently', async () => {
    const slowA = await startHttpMcpServer({
      name: 'slow-a',
      tools: [{ name: 'wait_a', annotations: { readOnlyHint: true }, run: () => new Promise((r) => setTimeout(() => r('a done'), 400)) }],
    });
    const slowB = await startHttpMcpServer({
      name: 'slow-b',
      tools: [{ name: 'wait_b', annotations: { readOnlyHint: true }, run: () => new Promise((r) => setTimeout(() => r('b done'), 400)) }],
    });
    try {
      const { admin, workspaceId } = await workspaceWith([
        { name: 'a', url: slowA.url },
        { name: 'b', url: slowB.url },
      ]);
      model.reply(toolUseReply([{ name: 'wait_a' }, { name: 'wait_b' }]), textReply('both done'));
      const response = await ask(admin.cookie, workspaceId, { query: 'wait for both' });
      expect(response.body.tools_called.sort()).toEqual(['wait_a', 'wait_b']);
      const tools = Number(/tools;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1]);
      // Two 400 ms calls in parallel take about 400 ms, not 800.
      expect(tools).toBeGreaterThanOrEqual(390);
      expect(tools).toBeLessThan(750);
    } finally {
      await Promise.all([slowA.stop(), slowB.stop()]);
    }
  });

  it('sends tool errors and timeouts back to the model as error results', async () => {
    const { admin, workspaceId } = await workspaceWith([{ name: 'docs', url: docs.url }]);
    model.reply(
      toolUseReply([{ name: 'fail_tool' }, { name: 'slow_tool' }, { name: 'invented_tool' }]),
      textReply('sorry, the tools failed'),
    );
    const response = await ask(admin.cookie, workspaceId, { query: 'use the broken tools' });
    expect(response.body).toMatchObject({ answer: 'sorry, the tools failed', error: null });
    const results = model.requests[1]?.body.messages.at(-1)?.content as { content: string; is_error: boolean }[];
    expect(results.map((result) => result.is_error)).toEqual([true, true, true]);
    expect(results[0]?.content).toContain('the tool broke');
    expect(results[1]?.content).toMatch(/timed out after 1500 ms/);
    expect(results[2]?.content).toBe('unknown tool: invented_tool');
  });

  it('stops a model that never stops calling tools at max_tool_rounds', async () => {
    const { admin, workspaceId } = await workspaceWith([{ name: 'docs', url: docs.url }]);
    await t.request('PUT', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie, body: { max_tool_rounds: 3 } });
    model.handle(() => toolUseReply([{ name: 'search_docs', input: { query: 'again' } }], undefined, 'still looking'));
    const response = await ask(admin.cookie, workspaceId, { query: 'loop forever' });
    expect(response.status).toBe(200);
    expect(response.body.error).toBe('max tool rounds reached (3)');
    expect(response.body.tools_called).toEqual(['search_docs', 'search_docs', 'search_docs']);
    expect(response.body.answer).toContain('still looking');
    expect(model.requests).toHaveLength(4);
    expect(response.body.tokens).toEqual({ input: 400, output: 80, cache_read: 0, cache_write: 0 });
    const stats = (await t.request('GET', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie })).body.stats;
    expect(stats.error_rate).toBe(1);
  });

  it('fails before the model runs when a connection is unreachable, naming it, with zero tokens and cost', async () => {
    const doomed = await startHttpMcpServer({ name: 'doomed' });
    const { admin, workspaceId } = await workspaceWith([
      { name: 'docs', url: docs.url },
      { name: 'Doomed CRM', url: doomed.url },
    ]);
    await doomed.stop();
    const response = await ask(admin.cookie, workspaceId, { query: 'anything' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      answer: '',
      tools_called: [],
      connections_hit: [],
      tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
      cost_usd: 0,
    });
    expect(response.body.error).toMatch(/MCP connection "Doomed CRM" is unreachable/);
    expect(response.body.error).not.toMatch(/"docs"/);
    expect(model.requests).toHaveLength(0);
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.activity[0]).toMatchObject({ query: 'anything', error: response.body.error, cost_usd: 0 });
  });

  it('keeps what was spent when the model fails after tool calls', async () => {
    const { admin, workspaceId } = await workspaceWith([{ name: 'docs', url: docs.url }]);
    model.reply(
      toolUseReply([{ name: 'search_docs', input: { query: 'x' } }], { input_tokens: 500, output_tokens: 10 }),
      errorReply(500, 'overloaded'),
      errorReply(500, 'overloaded'),
    );
    const response = await ask(admin.cookie, workspaceId, { query: 'try' });
    expect(response.body.error).toMatch(/model API answered 500/);
    expect(response.body.tools_called).toEqual(['search_docs']);
    expect(response.body.tokens).toEqual({ input: 500, output: 10, cache_read: 0, cache_write: 0 });
    expect(response.body.cost_usd).toBeGreaterThan(0);
  });

  it('retries a 429 with retry-after, then answers', async () => {
    const { admin, workspaceId } = await workspaceWith([]);
    model.reply(errorReply(429, 'slow down', { 'retry-after-ms': '20' }), textReply('after the wait'));
    const response = await ask(admin.cookie, workspaceId, { query: 'hello' });
    expect(response.body).toMatchObject({ answer: 'after the wait', error: null });
    expect(model.requests).toHaveLength(2);
  });

  it('marks three cache breakpoints: the last tool, the system prompt (an hour for a busy workspace) and the last message of each call', async () => {
    const { admin, workspaceId } = await workspaceWith([{ name: 'docs', url: docs.url }]);
    model.reply(toolUseReply([{ name: 'search_docs', input: { query: 'vpn' } }]), textReply('done'));
    await ask(admin.cookie, workspaceId, { query: 'hello' });
    for (const request of model.requests) {
      const { tools = [], system = [], messages } = request.body;
      const marked = JSON.stringify(request.body).match(/cache_control/g) ?? [];
      expect(marked).toHaveLength(3);
      expect(tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(system[0]?.cache_control).toEqual({ type: 'ephemeral' });
      const last = messages.at(-1)?.content as { cache_control?: unknown }[];
      expect(last.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    }
    // The second call's prefix is the first's, with the turn and its tool result after it.
    const [first, second] = model.requests;
    expect(second?.body.messages.slice(0, 1)[0]?.content).toEqual([{ type: 'text', text: 'hello' }]);
    expect(JSON.stringify(second?.body.tools)).toBe(JSON.stringify(first?.body.tools));

    // A workspace that has averaged a query an hour this month keeps its prefix an hour.
    const month = t.clock.now().toISOString().slice(0, 7);
    await addWorkspaceCounters(t.deps, admin.org.id, workspaceId, { [`month#${month}#queries`]: 24 * 31 });
    model.reset();
    await ask(admin.cookie, workspaceId, { query: 'busy' });
    const busy = model.requests[0]?.body;
    expect(busy?.tools?.at(-1)?.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(busy?.system?.[0]?.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(((busy?.messages.at(-1)?.content ?? []) as { cache_control?: unknown }[]).at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('prices a 1-hour cache write at twice the input price, a 5-minute one at 1.25 times', async () => {
    const { admin, workspaceId } = await workspaceWith([]);
    await t.request('PUT', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie, body: { model: 'fast' } });
    model.reply(
      textReply('cached', {
        input_tokens: 0,
        output_tokens: 0,
        cache_creation_input_tokens: 3000,
        cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
      }),
    );
    const response = await ask(admin.cookie, workspaceId, { query: 'hello' });
    // fast tier: $1 input per million: 1 000 at $1.25, 2 000 at $2.
    expect(response.body.cost_usd).toBeCloseTo((1000 * 1.25 + 2000 * 2) / 1e6, 9);
    expect(response.body.tokens).toEqual({ input: 0, output: 0, cache_read: 0, cache_write: 3000 });
  });

  it('prices cache writes and reads at their own rates', async () => {
    const { admin, workspaceId } = await workspaceWith([]);
    await t.request('PUT', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie, body: { model: 'fast' } });
    model.reply(
      textReply('cached', { input_tokens: 10, output_tokens: 100, cache_creation_input_tokens: 2000, cache_read_input_tokens: 8000 }),
    );
    const response = await ask(admin.cookie, workspaceId, { query: 'hello' });
    // fast tier: $1 in, $5 out, cache write $1.25, cache read $0.10 per million.
    expect(response.body.cost_usd).toBeCloseTo((10 * 1 + 100 * 5 + 2000 * 1.25 + 8000 * 0.1) / 1e6, 9);
    // input is the uncached input only; the cache's reads and writes are reported apart.
    expect(response.body.tokens).toEqual({ input: 10, output: 100, cache_read: 8000, cache_write: 2000 });
    expect(model.requests[0]?.body.model).toBe('claude-haiku-4-5');
  });

  it("uses the organisation's ai_api_key over the service's key", async () => {
    const { admin, workspaceId } = await workspaceWith([]);
    await t.request('PUT', '/api/org/settings/ai_api_key', { cookie: admin.cookie, body: { value: 'sk-org-own-key-123456' } });
    await ask(admin.cookie, workspaceId, { query: 'hello' });
    expect(model.requests[0]?.headers.authorization).toBe('Bearer sk-org-own-key-123456');
  });

  it('prefixes tool names with the connection name only where two connections share one', async () => {
    const { admin, workspaceId } = await workspaceWith([
      { name: 'docs', url: docs.url },
      { name: 'billing', url: billing.url },
    ]);
    model.reply(toolUseReply([{ name: 'billing__create_ticket', input: { title: 'refund' } }]), textReply('done'));
    const response = await ask(admin.cookie, workspaceId, { query: 'open a billing ticket' });
    const names = model.requests[0]?.body.tools?.map((tool) => tool.name);
    expect(names).toEqual([
      'billing__create_ticket',
      'billing__search_docs',
      'docs__create_ticket',
      'fail_tool',
      'plain_tool',
      'docs__search_docs',
      'slow_tool',
    ]);
    expect(response.body.tools_called).toEqual(['billing__create_ticket']);
    expect(response.body.connections_hit).toEqual(['billing']);
    const result = (model.requests[1]?.body.messages.at(-1)?.content as { content: string }[])?.[0];
    expect(result?.content).toBe('ticket created: refund (billing)');
  });

  it("sends a member only the tools the member role's patterns allow", async () => {
    const { admin, workspaceId } = await workspaceWith([{ name: 'docs', url: docs.url }]);
    const saved = await t.deps.table.update(
      { pk: `WS#${admin.org.id}#${workspaceId}`, sk: 'META' },
      {
        update: 'SET #permissions.#member = :patterns',
        names: { '#permissions': 'permissions', '#member': 'member' },
        values: { ':patterns': '["search_*","plain_tool"]' },
      },
    );
    expect(saved.permissions).toMatchObject({ member: '["search_*","plain_tool"]' });
    const member = await t.addMember(admin.cookie);
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'sneaky' } }]), textReply('I cannot'));
    const response = await ask(member.cookie, workspaceId, { query: 'create a ticket' });
    expect(model.requests[0]?.body.tools?.map((tool) => tool.name)).toEqual(['plain_tool', 'search_docs']);
    // Even if the model names a tool it was not given, the call is refused, not run.
    const result = (model.requests[1]?.body.messages.at(-1)?.content as { content: string; is_error: boolean }[])?.[0];
    expect(result).toMatchObject({ content: 'unknown tool: create_ticket', is_error: true });
    expect(response.body.connections_hit).toEqual([]);
    // The admin still gets everything.
    model.reply(textReply('ok'));
    await ask(admin.cookie, workspaceId, { query: 'list' });
    expect(model.requests[2]?.body.tools).toHaveLength(5);
  });

  it('uses the stdio tools listed when it was saved, in a process without the service secrets', async () => {
    const { admin, workspaceId } = await workspaceWith([{ name: 'orders', transport: 'stdio', command: 'node', args: STDIO_SERVER_ARGS }]);
    const before = await t.request('GET', `/api/workspaces/${workspaceId}/connections`, { cookie: admin.cookie });
    expect(before.body.tools).toHaveLength(3);
    model.reply(
      toolUseReply([{ name: 'lookup_order', input: { order_id: '42' } }, { name: 'env_names' }]),
      textReply('Order 42 is shipped.'),
    );
    const response = await ask(admin.cookie, workspaceId, { query: 'Where is order 42?' });
    expect(response.body).toMatchObject({ answer: 'Order 42 is shipped.', connections_hit: ['orders'], error: null });
    expect(model.requests[0]?.body.tools?.map((tool) => tool.name)).toEqual(['env_names', 'lookup_order', 'refund_order']);
    const results = model.requests[1]?.body.messages.at(-1)?.content as { content: string }[];
    expect(results[0]?.content).toBe('order 42 is shipped');
    const envNames: string[] = JSON.parse(results[1]?.content ?? '[]');
    expect(envNames).not.toContain('ANTHROPIC_API_KEY');
    expect(envNames).not.toContain('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED');
    expect(envNames.every((name) => ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].includes(name))).toBe(true);
    const after = await t.request('GET', `/api/workspaces/${workspaceId}/connections`, { cookie: admin.cookie });
    expect(after.body.tools.map((tool: { name: string; is_write: boolean }) => [tool.name, tool.is_write])).toEqual([
      ['env_names', false],
      ['lookup_order', false],
      ['refund_order', true],
    ]);
    expect(after.body.connections[0].tool_count).toBe(3);
    const list = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
    expect(list.body.workspaces.find((w: { id: string }) => w.id === workspaceId).tool_count).toBe(3);
  });

  it('reuses the live MCP session: no new session and no tools/list on a warm query', async () => {
    const fresh = await startHttpMcpServer({ name: 'warm' });
    try {
      const { admin, workspaceId } = await workspaceWith([{ name: 'warm', url: fresh.url }]);
      // Saving probed the server once (its own session, with one tools/list).
      expect(fresh.stats).toMatchObject({ sessions: 1, toolLists: 1 });
      model.handle(() => textReply('hi'));
      await ask(admin.cookie, workspaceId, { query: 'first' });
      expect(fresh.stats).toMatchObject({ sessions: 2, toolLists: 1 });
      for (let index = 0; index < 3; index += 1) await ask(admin.cookie, workspaceId, { query: `again ${index}` });
      expect(fresh.stats).toMatchObject({ sessions: 2, toolLists: 1 });
    } finally {
      await fresh.stop();
    }
  });

  it('makes 5 store calls without a session_id (a conversation it has just named has nothing to read, and its item goes in the batch of its messages), 7 with one, 8 for a follow-up', async () => {
    const { admin, workspaceId } = await workspaceWith([]);
    model.handle(() => textReply('hi'));
    // Shards chosen at random (day items, counters) all 0 here: the cache check below is made by
    // the day's first query in each day shard (workspaces/counters.ts).
    const random = vi.spyOn(Math, 'random').mockReturnValue(0);
    const callsOf = async (body: Record<string, unknown>) => {
      const before = t.deps.table.roundTrips;
      const answer = await ask(admin.cookie, workspaceId, body);
      expect(answer.status, answer.text).toBe(200);
      return { calls: t.deps.table.roundTrips - before, sessionId: answer.body.session_id as string };
    };
    try {
      // The workspace's first query of the day also reads the two days before (the cache hit-rate
      // check), and the first of this second adds the organisation's query count to the store (the
      // test clock stands still: no other query here does).
      expect((await callsOf({ query: 'first of the day' })).calls).toBe(7);
      const first = await callsOf({ query: 'first' });
      expect(first.calls).toBe(5);
      // A follow-up puts its question and answer, one item, on condition that the number is free (query/persist-follow-up.ts).
      expect((await callsOf({ query: 'follow-up', session_id: first.sessionId })).calls).toBe(8);
      // An id the caller names is read, whether or not something is stored under it.
      expect((await callsOf({ query: 'named', session_id: 'my-own-session' })).calls).toBe(7);
      const detail = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${first.sessionId}`, { cookie: admin.cookie });
      expect(detail.body.messages.map((message: { content: string }) => message.content)).toEqual(['first', 'hi', 'follow-up', 'hi']);
    } finally {
      random.mockRestore();
    }
  });

  it('writes a new conversation (its item put with its messages) and a follow-up in one round of store calls, one it names in two (its claim numbers the messages first)', async () => {
    const { admin, workspaceId } = await workspaceWith([]);
    model.handle(() => textReply('hi'));
    const table = t.deps.table;
    const { updateReturningOld, batchPut } = table;
    const events: string[] = [];
    table.updateReturningOld = (async (...args: Parameters<typeof updateReturningOld>) => {
      events.push('claim sent');
      try {
        return await updateReturningOld.apply(table, args);
      } finally {
        events.push('claim answered');
      }
    }) as typeof updateReturningOld;
    const batches: { sk: string }[][] = [];
    table.batchPut = (...args: Parameters<typeof batchPut>) => {
      events.push('messages sent');
      batches.push(args[0] as { sk: string }[]);
      return batchPut.apply(table, args);
    };
    let sessionId = '';
    try {
      const first = await ask(admin.cookie, workspaceId, { query: 'first' });
      expect(first.status, first.text).toBe(200);
      sessionId = first.body.session_id;
      expect(events).toEqual(['messages sent']);
      expect(batches[0]?.filter((item) => item.sk === 'STATE')).toHaveLength(1);
      events.length = 0;
      const next = await ask(admin.cookie, workspaceId, { query: 'next', session_id: sessionId });
      expect(next.status, next.text).toBe(200);
      // The follow-up's audit entry goes out before its claim is answered (its messages too: follow-up.test.ts).
      expect(events).toEqual(['claim sent', 'messages sent', 'claim answered']);
      events.length = 0;
      const named = await ask(admin.cookie, workspaceId, { query: 'named', session_id: `named-${sessionId}` });
      expect(named.status, named.text).toBe(200);
      expect(events).toEqual(['claim sent', 'claim answered', 'messages sent']);
    } finally {
      table.updateReturningOld = updateReturningOld;
      table.batchPut = batchPut;
    }
    const detail = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${sessionId}`, { cookie: admin.cookie });
    expect(detail.body.conversation.message_count).toBe(4);
    expect(detail.body.messages.map((message: { seq: number; content: string }) => `${message.seq} ${message.content}`)).toEqual([
      '1 first',
      '2 hi',
      '3 next',
      '4 hi',
    ]);
  });

  it('answers 409 to a query on a closed conversation, without calling the model', async () => {
    const { admin, workspaceId } = await workspaceWith([]);
    const first = await ask(admin.cookie, workspaceId, { query: 'hello', session_id: 'closing-1' });
    expect(first.status).toBe(200);
    await t.deps.table.update(
      { pk: `CONV#${admin.org.id}#${workspaceId}#closing-1`, sk: 'STATE' },
      { update: 'SET #s = :closed', names: { '#s': 'status' }, values: { ':closed': 'closed' } },
    );
    const again = await ask(admin.cookie, workspaceId, { query: 'still there?', session_id: 'closing-1' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/closed/);
    expect(model.requests).toHaveLength(1);
  });

  it('validates the body and answers 404 for another organisation’s workspace', async () => {
    const { admin, workspaceId } = await workspaceWith([]);
    for (const [body, path] of [
      [{}, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 'x'.repeat(32_001) }, 'query'],
      [{ query: 'hi', session_id: 'has spaces' }, 'session_id'],
      [{ query: 'hi', session_id: 'a#b' }, 'session_id'],
      [{ query: 'hi', history: [{ role: 'system', content: 'x' }] }, 'history.0.role'],
      [{ query: 'hi', history: 'not a list' }, 'history'],
    ] as const) {
      const response = await ask(admin.cookie, workspaceId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    const other = await t.signUp();
    const foreign = await ask(other.cookie, workspaceId, { query: 'hi' });
    expect(foreign.status).toBe(404);
    expect(model.requests).toHaveLength(0);
  });

  it('answers with an error, before any model call, when no API key is configured', async () => {
    const bare = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url } });
    try {
      const admin = await bare.signUp();
      const workspace = await bare.createWorkspace(admin.cookie, { name: 'No key' });
      const response = await bare.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: admin.cookie, body: { query: 'hi' } });
      expect(response.status).toBe(200);
      expect(response.body.error).toMatch(/no model API key/);
      expect(model.requests).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});
