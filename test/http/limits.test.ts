import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { startHttpMcpServer, standardTools } from '../support/mcp-servers.js';
import { wallClock } from '../support/clock.js';

let t: TestContext;
let model: FakeModel;
let server: Awaited<ReturnType<typeof startHttpMcpServer>>;

beforeAll(async () => {
  model = await startFakeModel();
  server = await startHttpMcpServer({ tools: standardTools({ hangMs: 3_000 }) });
  t = await createTestContext({
    env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', QUERY_RATE_LIMIT_PER_MINUTE: '3', MCP_TIMEOUT_MS: '5000' },
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all([model.stop(), server.stop()]);
});
beforeEach(() => model.reset());

const ask = (cookie: string, workspaceId: string, query = 'hello') =>
  t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query } });

describe('per-organisation query rate limit', () => {
  it("counts the model key's test calls too: an organisation cannot make the deployment's key answer past the rate", async () => {
    const admin = await t.signUp();
    t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 60_000) * 60_000 + 1_000));
    model.handle(() => textReply('H'));
    // Without a key of its own, the test call is made with the deployment's: each one the operator pays for.
    const test = () => t.request('POST', '/api/org/settings/model', { cookie: admin.cookie, body: { provider: 'anthropic' } });
    const statuses = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await test()).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(model.requests).toHaveLength(3);
    t.clock.advance(60_000);
  });

  it('answers 429 with Retry-After past the limit, counts every workspace of the organisation, and opens again next minute', async () => {
    const admin = await t.signUp();
    const first = await t.createWorkspace(admin.cookie, { name: `Rate ${t.uniqueEmail('a')}` });
    const second = await t.createWorkspace(admin.cookie, { name: `Rate ${t.uniqueEmail('b')}` });
    // Start at the beginning of a minute so the four queries share one window.
    t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 60_000) * 60_000 + 1_000));
    expect((await ask(admin.cookie, first.id)).status).toBe(200);
    expect((await ask(admin.cookie, second.id)).status).toBe(200);
    expect((await ask(admin.cookie, first.id)).status).toBe(200);
    const limited = await ask(admin.cookie, second.id);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/3 a minute/);
    expect(Number(limited.headers.get('retry-after'))).toBe(59);
    expect(model.requests).toHaveLength(3);

    // Another organisation has its own window.
    const other = await t.signUp();
    const theirs = await t.createWorkspace(other.cookie, { name: `Rate ${t.uniqueEmail('c')}` });
    expect((await ask(other.cookie, theirs.id)).status).toBe(200);

    t.clock.advance(60_000);
    expect((await ask(admin.cookie, first.id)).status).toBe(200);
  });
});

describe('per-workspace limits', () => {
  it('validates and shows max_tokens_per_query and tool_timeout_seconds, null by default', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: `Limits ${t.uniqueEmail('w')}` });
    const summary = await t.request('GET', `/api/workspaces/${workspace.id}/summary`, { cookie: admin.cookie });
    expect(summary.body.workspace).toMatchObject({ max_tokens_per_query: null, tool_timeout_seconds: null });
    for (const [body, path] of [
      [{ max_tokens_per_query: 10 }, 'max_tokens_per_query'],
      [{ max_tokens_per_query: 2.5e3 + 0.5 }, 'max_tokens_per_query'],
      [{ tool_timeout_seconds: 0 }, 'tool_timeout_seconds'],
      [{ tool_timeout_seconds: 601 }, 'tool_timeout_seconds'],
    ] as const) {
      const response = await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details[0].path).toBe(path);
    }
    const set = await t.request('PUT', `/api/workspaces/${workspace.id}`, {
      cookie: admin.cookie,
      body: { max_tokens_per_query: 5_000, tool_timeout_seconds: 0.5 },
    });
    expect(set.body.workspace).toMatchObject({ max_tokens_per_query: 5_000, tool_timeout_seconds: 0.5 });
    const cleared = await t.request('PUT', `/api/workspaces/${workspace.id}`, {
      cookie: admin.cookie,
      body: { max_tokens_per_query: null },
    });
    expect(cleared.body.workspace.max_tokens_per_query).toBeNull();
  });

  it('stops a query once its token budget is spent', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: `Budget ${t.uniqueEmail('w')}` });
    await t.connectMcp(admin.cookie, workspace.id, { name: 'docs', url: server.url });
    await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body: { max_tokens_per_query: 2_500 } });
    model.handle(() => toolUseReply([{ name: 'search_docs', input: { query: 'more' } }], { input_tokens: 1_000, output_tokens: 100 }));
    const response = await ask(admin.cookie, workspace.id, 'dig deep');
    expect(response.status).toBe(200);
    expect(response.body.error).toBe('token budget reached (2500)');
    // 1 100 tokens after the first call, 2 200 after the second, 3 300 after the third: stopped then.
    expect(model.requests).toHaveLength(3);
    expect(response.body.tools_called).toEqual(['search_docs', 'search_docs']);
  });

  it('times a tool call out after the workspace’s tool_timeout_seconds', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: `Timeout ${t.uniqueEmail('w')}` });
    await t.connectMcp(admin.cookie, workspace.id, { name: 'docs', url: server.url });
    await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body: { tool_timeout_seconds: 0.3 } });
    model.reply(toolUseReply([{ name: 'slow_tool' }]), textReply('it was slow'));
    const started = wallClock.ms();
    const response = await ask(admin.cookie, workspace.id, 'be slow');
    expect(wallClock.ms() - started).toBeLessThan(2_500);
    const result = (model.requests[1]?.body.messages.at(-1)?.content as { content: string; is_error: boolean }[])?.[0];
    expect(result).toMatchObject({ is_error: true, content: 'tool slow_tool timed out after 300 ms' });
    expect(response.body.answer).toBe('it was slow');
  });
});
