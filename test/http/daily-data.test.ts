import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUNDLED_STDIO_SERVERS } from '../../shared/platform/config.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { STDIO_SERVER_ARGS, standardTools, startHttpMcpServer } from '../support/mcp-servers.js';
import { wallClock } from '../support/clock.js';

/**
 * What people reach for every day (issue 33): a connection's tools known once it is saved, and
 * refreshed on demand; conversations titled by their first question, searched and filtered by
 * consumer; consumers with a name and when their key was last used.
 */

/** A stdio server that starts and never answers: the save must not wait for it longer than its bound. */
const HANG_ARGS = ['-e', 'setInterval(() => {}, 1000)'];

let t: TestContext;
let model: FakeModel;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
let workspaceId: string;

beforeAll(async () => {
  model = await startFakeModel();
  model.handle((request) => {
    if ((request.body as { tool_choice?: unknown }).tool_choice) {
      const stats = { sentiment_score: 0, resolution_status: 'resolved', category: 'orders', summary: 'Asked.' };
      return toolUseReply([{ name: 'record_conversation_stats', input: stats }]);
    }
    return textReply('Answered.');
  });
  t = await createTestContext({
    env: {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'k',
      MODEL_MAX_RETRIES: '0',
      MCP_TIMEOUT_MS: '1500',
      MCP_STDIO_SERVERS: JSON.stringify({
        ...BUNDLED_STDIO_SERVERS,
        fixture: { command: 'node', args: STDIO_SERVER_ARGS, env: [] },
        broken: { command: 'node', args: ['test/fixtures/no-such-server.mjs'], env: [] },
        hang: { command: 'node', args: HANG_ARGS, env: [] },
      }),
    },
  });
  admin = await t.signUp();
  workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Daily' })).id;
});

afterAll(async () => {
  await t?.close();
  await model?.stop();
});

async function connectionsOf(workspace = workspaceId, cookie = admin.cookie) {
  const response = await t.request('GET', `/api/workspaces/${workspace}/connections`, { cookie });
  expect(response.status, response.text).toBe(200);
  return response.body as {
    connections: { id: string; name: string; status: string; last_error: string | null; tool_count: number }[];
    tools: { name: string; connection_id: string }[];
  };
}

const saveStdio = (name: string, args: string[], workspace = workspaceId) =>
  t.request('POST', '/api/connectors/mcp', {
    cookie: admin.cookie,
    body: { workspace_id: workspace, name, transport: 'stdio', command: 'node', args },
  });

describe('saving a connection lists its tools', () => {
  it('shows the tools of a stdio server as soon as it is saved, without a query', async () => {
    const workspace = (await t.createWorkspace(admin.cookie, { name: 'Stdio tools' })).id;
    const saved = await saveStdio('Orders', STDIO_SERVER_ARGS, workspace);
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({ status: 'saved', tools: 3, message: 'Connected "Orders" with 3 tools' });
    const { connections, tools } = await connectionsOf(workspace);
    expect(connections).toEqual([expect.objectContaining({ id: saved.body.id, status: 'connected', last_error: null, tool_count: 3 })]);
    expect(tools.map((tool) => tool.name).sort()).toEqual(['env_names', 'lookup_order', 'refund_order']);
    const listed = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
    expect(listed.body.workspaces.find((w: { id: string }) => w.id === workspace).tool_count).toBe(3);
  });

  it('saves a stdio server that cannot start, with status error and why, and lists nothing', async () => {
    const workspace = (await t.createWorkspace(admin.cookie, { name: 'Broken tools' })).id;
    const saved = await saveStdio('Broken', ['test/fixtures/no-such-server.mjs'], workspace);
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({ status: 'saved', tools: 0, message: expect.stringMatching(/could not be listed/) });
    const { connections, tools } = await connectionsOf(workspace);
    expect(connections[0]).toMatchObject({ status: 'error', tool_count: 0, last_error: expect.any(String) });
    expect(connections[0]?.last_error).not.toBe('');
    expect(tools).toEqual([]);
  });

  it('saves a stdio server that never answers within the bound, not waiting for it', async () => {
    const started = wallClock.ms();
    const saved = await saveStdio('Silent', HANG_ARGS);
    expect(saved.status, saved.text).toBe(201);
    // The hub's connect timeout (1.5 s here), well within the save's 10 s bound.
    expect(wallClock.ms() - started).toBeLessThan(8_000);
    const listed = (await connectionsOf()).connections.find((connection) => connection.id === saved.body.id);
    expect(listed).toMatchObject({ status: 'error', last_error: expect.stringMatching(/1500 ms/), tool_count: 0 });
  });

  it('still refuses an http server that cannot be reached (400 on url), saving nothing', async () => {
    const workspace = (await t.createWorkspace(admin.cookie, { name: 'Unreachable' })).id;
    const response = await t.request('POST', '/api/connectors/mcp', {
      cookie: admin.cookie,
      body: { workspace_id: workspace, name: 'Gone', transport: 'http', url: 'http://127.0.0.1:9/mcp' },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.details.map((detail: { path: string }) => detail.path)).toEqual(['url']);
    expect((await connectionsOf(workspace)).connections).toEqual([]);
  });
});

describe('POST /api/connections/:id/refresh', () => {
  it("lists the server's tools again: new ones added, gone ones removed, the counts kept true", async () => {
    const tools = standardTools();
    const server = await startHttpMcpServer({ name: 'refreshing', tools });
    try {
      const workspace = (await t.createWorkspace(admin.cookie, { name: 'Refresh' })).id;
      const saved = await t.connectMcp(admin.cookie, workspace, { name: 'Docs', url: server.url });
      const before = saved.tools;
      tools.push({ name: 'new_tool', description: 'Added later', annotations: { readOnlyHint: true }, run: () => 'new' });
      tools.splice(0, 1);
      const refreshed = await t.request('POST', `/api/connections/${saved.id}/refresh`, { cookie: admin.cookie });
      expect(refreshed.status, refreshed.text).toBe(200);
      expect(refreshed.body.connection).toMatchObject({ id: saved.id, status: 'connected', tool_count: before, last_error: null });
      const names = refreshed.body.tools.map((tool: { name: string }) => tool.name);
      expect(names).toContain('new_tool');
      expect(names).not.toContain('search_docs');
      expect(names).toHaveLength(before);
      expect((await connectionsOf(workspace)).tools.map((tool) => tool.name).sort()).toEqual([...names].sort());
    } finally {
      await server.stop();
    }
  });

  it('keeps the tools of a connection whose server is down, and says why', async () => {
    const tools = standardTools();
    const server = await startHttpMcpServer({ name: 'late', tools });
    try {
      const workspace = (await t.createWorkspace(admin.cookie, { name: 'Late' })).id;
      const saved = await t.connectMcp(admin.cookie, workspace, { name: 'Late', url: server.url });
      await server.stop();
      const down = await t.request('POST', `/api/connections/${saved.id}/refresh`, { cookie: admin.cookie });
      expect(down.status, down.text).toBe(200);
      // Its tools are kept; the connection says why it could not be reached.
      expect(down.body.connection).toMatchObject({ status: 'error', last_error: expect.any(String), tool_count: saved.tools });
      expect(down.body.tools).toHaveLength(saved.tools);
    } finally {
      await server.stop().catch(() => undefined);
    }
  });

  it('keeps a stdio connection that still cannot start in error, with no tools', async () => {
    const saved = await saveStdio('Broken again', ['test/fixtures/no-such-server.mjs']);
    const refreshed = await t.request('POST', `/api/connections/${saved.body.id}/refresh`, { cookie: admin.cookie });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body).toMatchObject({ connection: { status: 'error', tool_count: 0 }, tools: [] });
  });

  it('is for admins: a member is refused (403), another organisation finds nothing (404), a bad id is 400 or 404', async () => {
    const saved = await saveStdio('Guarded', STDIO_SERVER_ARGS);
    const member = await t.addMember(admin.cookie);
    const outsider = await t.signUp({ name: 'Olga Outsider' });
    expect((await t.request('POST', `/api/connections/${saved.body.id}/refresh`, { cookie: member.cookie })).status).toBe(403);
    expect((await t.request('POST', `/api/connections/${saved.body.id}/refresh`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await t.request('POST', '/api/connections/conn_nope/refresh', { cookie: admin.cookie })).status).toBe(404);
    const long = await t.request('POST', `/api/connections/${'x'.repeat(300)}/refresh`, { cookie: admin.cookie });
    expect(long.status).toBe(400);
  });
});

/** Connects a key consumer; answers its id and key. */
async function connectKey(name?: string, type: 'api' | 'messaging' = 'api') {
  const response = await t.request('POST', '/api/connectors/consumer', {
    cookie: admin.cookie,
    body: { type, workspace_id: workspaceId, credentials: {}, ...(name === undefined ? {} : { name }) },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; api_key: string };
}

const ask = (query: string, auth: { cookie?: string; key?: string }, sessionId?: string) =>
  t.request('POST', `/api/workspaces/${workspaceId}/query`, {
    ...(auth.cookie ? { cookie: auth.cookie } : {}),
    headers: auth.key ? { authorization: `Bearer ${auth.key}` } : {},
    body: { query, ...(sessionId ? { session_id: sessionId } : {}) },
  });

async function consumersOf() {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/consumers`, { cookie: admin.cookie });
  expect(response.status, response.text).toBe(200);
  return response.body.consumers as { id: string; name: string | null; last_used_at: string | null }[];
}

const list = (query: string, cookie = admin.cookie) =>
  t.request('GET', `/api/workspaces/${workspaceId}/conversations?${query}`, { cookie });

describe('conversations: titled by their first question, searched, filtered by consumer', () => {
  let website: { id: string; api_key: string };
  let ci: { id: string; api_key: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    website = await connectKey('Support site');
    ci = await connectKey('CI');
    const first = await ask('Where is my ORDER 42?', { key: website.api_key });
    expect(first.status, first.text).toBe(200);
    ids.website = first.body.conversation_id;
    // A follow-up keeps the title of the first question.
    expect((await ask('And when does it arrive?', { key: website.api_key }, ids.website)).status).toBe(200);
    ids.ci = (await ask('Run the nightly check', { key: ci.api_key })).body.conversation_id;
    ids.long = (await ask(`Refund   please:\n${'a'.repeat(300)}`, { cookie: admin.cookie })).body.conversation_id;
  });

  it('titles each conversation by its first question, cut to 120 characters on one line, with its consumer', async () => {
    const response = await list('limit=50');
    expect(response.status, response.text).toBe(200);
    const byId = new Map(response.body.conversations.map((c: { id: string }) => [c.id, c]));
    expect(byId.get(ids.website)).toMatchObject({ title: 'Where is my ORDER 42?', consumer_id: website.id });
    expect(byId.get(ids.ci)).toMatchObject({ title: 'Run the nightly check', consumer_id: ci.id });
    const long = byId.get(ids.long) as { title: string; consumer_id: string | null };
    expect(long.consumer_id).toBeNull();
    expect([...long.title]).toHaveLength(120);
    expect(long.title.startsWith('Refund please: aaa')).toBe(true);
    expect(long.title.endsWith('…')).toBe(true);
  });

  it('searches the titles and user names, ignoring case; q is documented as a bounded filter', async () => {
    const found = await list('q=order%2042');
    expect(found.status, found.text).toBe(200);
    expect(found.body.conversations.map((c: { id: string }) => c.id)).toEqual([ids.website]);
    expect(found.body.total).toBe(1);
    const none = await list('q=nothing%20like%20this');
    expect(none.body).toMatchObject({ conversations: [], total: 0, next_cursor: null });
    // The user's name matches too (the admin's conversation, by its user).
    const byUser = await list(`q=${encodeURIComponent('ada admin')}`);
    expect(byUser.body.conversations.map((c: { id: string }) => c.id)).toContain(ids.long);
  });

  it('pages a search by its cursor', async () => {
    const first = await list('q=e&limit=1');
    expect(first.body.conversations).toHaveLength(1);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await list(`q=e&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.status, second.text).toBe(200);
    expect(second.body.conversations[0]?.id).not.toBe(first.body.conversations[0]?.id);
  });

  it('filters by one consumer (not only by type), alone or with other filters and a search', async () => {
    const mine = await list(`consumer_id=${website.id}`);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.conversations.map((c: { id: string }) => c.id)).toEqual([ids.website]);
    expect(mine.body.total).toBe(1);
    const combined = await list(`consumer_id=${ci.id}&status=open&q=nightly`);
    expect(combined.body.conversations.map((c: { id: string }) => c.id)).toEqual([ids.ci]);
    expect((await list(`consumer_id=${ci.id}&q=order`)).body.conversations).toEqual([]);
    expect((await list('consumer_id=cons_unknown')).body).toMatchObject({ conversations: [], total: 0 });
  });

  it('refuses a bad search or consumer with 400 naming the field', async () => {
    for (const [query, path] of [
      ['q=', 'q'],
      ['q=%20%20', 'q'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['consumer_id=', 'consumer_id'],
      [`consumer_id=${'c'.repeat(201)}`, 'consumer_id'],
    ] as const) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(
        response.body.details.map((detail: { path: string }) => detail.path),
        query,
      ).toContain(path);
    }
  });

  it('lets an api key search its own workspace only', async () => {
    const response = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?q=order`, {
      headers: { authorization: `Bearer ${website.api_key}` },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.conversations.map((c: { id: string }) => c.id)).toEqual([ids.website]);
  });
});

describe('consumers: a name and when their key was last used', () => {
  it('keeps the optional name given on connect, and null without one', async () => {
    const named = await connectKey('Mobile app');
    const unnamed = await connectKey();
    const consumers = await consumersOf();
    expect(consumers.find((c) => c.id === named.id)).toMatchObject({ name: 'Mobile app', last_used_at: null });
    expect(consumers.find((c) => c.id === unnamed.id)).toMatchObject({ name: null, last_used_at: null });
  });

  it('refuses a bad name with 400 naming it', async () => {
    for (const name of ['', '   ', 'x'.repeat(101), 'bad\u0007name', 'right\u202eleft']) {
      const response = await t.request('POST', '/api/connectors/consumer', {
        cookie: admin.cookie,
        body: { type: 'api', workspace_id: workspaceId, credentials: {}, name },
      });
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toEqual(['name']);
    }
  });

  it('records when a key authenticates, writing at most once a minute per key', async () => {
    const key = await connectKey('Throttled');
    const use = () =>
      t.request('GET', `/api/workspaces/${workspaceId}/conversations?limit=1`, { headers: { authorization: `Bearer ${key.api_key}` } });
    const lastUsed = async () => (await consumersOf()).find((c) => c.id === key.id)?.last_used_at;
    const firstAt = t.clock.now().toISOString();
    expect((await use()).status).toBe(200);
    expect(await lastUsed()).toBe(firstAt);

    const updates = vi.spyOn(t.deps.table, 'update');
    try {
      t.clock.advance(30_000);
      for (let index = 0; index < 5; index += 1) expect((await use()).status).toBe(200);
      // Within the minute: no write of the key or its consumer (the request rates' counts aside:
      // platform/request-rate.ts), and the time stays.
      expect(updates.mock.calls.filter(([key]) => !String(key.pk).startsWith('REQRATE#'))).toEqual([]);
      expect(await lastUsed()).toBe(firstAt);

      t.clock.advance(31_000);
      const secondAt = t.clock.now().toISOString();
      await Promise.all([use(), use(), use()]);
      expect(await lastUsed()).toBe(secondAt);
      // Three requests at once: one wins the conditional write of the key record and updates the consumer.
      const consumerWrites = updates.mock.calls.filter(([key]) => String(key.pk).startsWith('WS#') || String(key.sk).startsWith('CONS'));
      expect(consumerWrites.length).toBe(1);
    } finally {
      updates.mockRestore();
    }
  });

  it('does not record a key refused on a workspace that is not its own', async () => {
    const key = await connectKey('Refused');
    const other = (await t.createWorkspace(admin.cookie, { name: 'Not its own' })).id;
    const refused = await t.request('GET', `/api/workspaces/${other}/conversations`, {
      headers: { authorization: `Bearer ${key.api_key}` },
    });
    expect(refused.status).toBe(404);
    expect((await consumersOf()).find((c) => c.id === key.id)?.last_used_at).toBeNull();
  });
});
