import { execFileSync } from 'node:child_process';
import diagnosticsChannel from 'node:diagnostics_channel';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type ApiResponse, type TestContext } from '../support/context.js';
import { STDIO_SERVER_ARGS, startHttpMcpServer, startSseMcpServer } from '../support/mcp-servers.js';

type HttpMcpServer = Awaited<ReturnType<typeof startHttpMcpServer>>;
type SseMcpServer = Awaited<ReturnType<typeof startSseMcpServer>>;

const STANDARD_TOOL_NAMES = ['search_docs', 'create_ticket', 'plain_tool', 'slow_tool', 'fail_tool'];
const STDIO_TOOL_NAMES = ['lookup_order', 'refund_order', 'env_names'];
const METADATA_REDIRECT = 'http://169.254.169.254/latest/meta-data/';

/**
 * An HTTP proxy in front of an MCP server that counts the requests still open through it. A client
 * that keeps its session holds the GET event stream (streamable HTTP) or the /sse stream (HTTP+SSE)
 * open; a closed session leaves none.
 */
async function startOpenRequestCounter(target: string) {
  const targetUrl = new URL(target);
  const state = { open: 0, seen: [] as string[] };
  const server: Server = createServer((req, res) => {
    state.open += 1;
    state.seen.push(`${req.method} ${new URL(req.url ?? '/', 'http://proxy').pathname}`);
    let finished = false;
    const upstream = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!finished) state.open -= 1;
      finished = true;
      upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${targetUrl.pathname}`,
    state,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every process started by this test process (the service runs in it). */
function stdioChildren(): string[] {
  const lines = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => Number(line.trim().split(/\s+/)[1]) === process.pid && !line.includes(' ps -A'));
}

/** Processes started by this test process (the service runs in it) whose command line names the stdio fixture. */
function stdioFixtureChildren(): string[] {
  const lines = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => {
    const [, ppid] = line.trim().split(/\s+/);
    return Number(ppid) === process.pid && line.includes('stdio-mcp-server.mjs');
  });
}

let t: TestContext;
let strict: TestContext;
let docs: HttpMcpServer;
let sse: SseMcpServer;
let redirecting: HttpMcpServer;
let unreachableUrl: string;

// Every connection undici opens anywhere in this file: none may be to a link-local address.
const connects: string[] = [];
const onConnect = (message: unknown) => {
  const { connectParams } = message as { connectParams: { hostname: string; port: string } };
  connects.push(`${connectParams.hostname}:${connectParams.port}`);
};

beforeAll(async () => {
  diagnosticsChannel.subscribe('undici:client:beforeConnect', onConnect);
  docs = await startHttpMcpServer();
  sse = await startSseMcpServer();
  redirecting = await startHttpMcpServer({ name: 'redirecting-server', redirectTo: METADATA_REDIRECT });
  const gone = await startHttpMcpServer({ name: 'gone-server' });
  unreachableUrl = gone.url;
  await gone.stop();
  t = await createTestContext({ env: { MCP_TIMEOUT_MS: '5000' } });
  strict = await createTestContext({ env: { MCP_TIMEOUT_MS: '5000', MCP_ALLOW_PRIVATE_URLS: 'false' } });
});
afterAll(async () => {
  diagnosticsChannel.unsubscribe('undici:client:beforeConnect', onConnect);
  await Promise.all([t?.close(), strict?.close()]);
  await Promise.all([docs?.stop(), sse?.stop(), redirecting?.stop()]);
});
afterEach(() => {
  expect(connects.filter((host) => host.startsWith('169.254.') || host.includes('a9fe') || host.startsWith('fd00:ec2'))).toEqual([]);
});

const pathsOf = (response: ApiResponse) => (response.body?.details ?? []).map((detail: { path: string }) => detail.path);
const detailOf = (response: ApiResponse, path: string): string =>
  (response.body?.details ?? []).find((detail: { path: string }) => detail.path === path)?.message ?? '';

let names = 0;
function uniqueName(prefix = 'Support'): string {
  names += 1;
  return `${prefix} ${names} ${crypto.randomUUID().slice(0, 8)}`;
}

async function orgWithWorkspace(context: TestContext = t) {
  const admin = await context.signUp();
  const workspace = await context.createWorkspace(admin.cookie, { name: uniqueName() });
  return { admin, cookie: admin.cookie, workspaceId: workspace.id };
}

function testServer(cookie: string, body: Record<string, unknown>, context: TestContext = t) {
  return context.request('POST', '/api/connectors/mcp/test', { cookie, body });
}

function save(cookie: string, body: Record<string, unknown>, context: TestContext = t) {
  return context.request('POST', '/api/connectors/mcp', { cookie, body });
}

async function connectionsOf(cookie: string, workspaceId: string) {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/connections`, { cookie });
  expect(response.status, response.text).toBe(200);
  return response.body as {
    connections: {
      id: string;
      name: string;
      type: string;
      status: string;
      transport: string;
      url: string | null;
      command: string | null;
      args: string[];
      tool_count: number;
    }[];
    tools: { id: string; name: string; is_write: boolean; connection_id: string; description: string }[];
  };
}

async function countsOf(cookie: string, workspaceId: string) {
  const list = await t.request('GET', '/api/workspaces', { cookie });
  expect(list.status).toBe(200);
  const item = list.body.workspaces.find((workspace: { id: string }) => workspace.id === workspaceId);
  return { connection_count: item.connection_count as number, tool_count: item.tool_count as number };
}

describe('POST /api/connectors/mcp/test', () => {
  let admin: { cookie: string };
  let member: { cookie: string };
  beforeAll(async () => {
    admin = await t.signUp();
    member = await t.addMember(admin.cookie);
  });

  it('connects to a streamable HTTP server, lists its tools and closes the session', async () => {
    const sessionsBefore = docs.stats.sessions;
    const listsBefore = docs.stats.toolLists;
    const openedBefore = t.deps.mcp.stats.sessionsOpened;
    const response = await testServer(admin.cookie, { transport: 'http', url: docs.url });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ok: true, tools: 5, server: 'test-server 1.0.0', toolNames: STANDARD_TOOL_NAMES });
    expect(docs.stats.sessions).toBe(sessionsBefore + 1);
    expect(docs.stats.toolLists).toBe(listsBefore + 1);
    expect(docs.stats.toolCalls).toBe(0);
    expect(t.deps.mcp.stats.sessionsOpened).toBe(openedBefore + 1);
  });

  it('defaults to the http transport', async () => {
    const response = await testServer(admin.cookie, { url: docs.url });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ ok: true, tools: 5, server: 'test-server 1.0.0' });
  });

  it('grows the session counters by one per probe and leaves no session open on the server', async () => {
    const proxy = await startOpenRequestCounter(docs.url);
    try {
      const sessionsBefore = docs.stats.sessions;
      const openedBefore = t.deps.mcp.stats.sessionsOpened;
      for (let probe = 1; probe <= 3; probe += 1) {
        const response = await testServer(admin.cookie, { url: proxy.url });
        expect(response.body, response.text).toMatchObject({ ok: true, tools: 5 });
        expect(docs.stats.sessions).toBe(sessionsBefore + probe);
        expect(t.deps.mcp.stats.sessionsOpened).toBe(openedBefore + probe);
      }
      // Each probe initialized, listed tools and opened its event stream through the proxy...
      expect(proxy.state.seen.filter((line) => line === 'POST /mcp').length).toBeGreaterThanOrEqual(3 * 3);
      // ...and once the client closed, no request of any session stays open.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect.poll(() => proxy.state.open, { timeout: 2_000 }).toBe(0);
    } finally {
      await proxy.stop();
    }
  });

  it('falls back to the HTTP+SSE transport for a server that only speaks it, and closes that session too', async () => {
    const proxy = await startOpenRequestCounter(sse.url);
    try {
      const openedBefore = t.deps.mcp.stats.sessionsOpened;
      const response = await testServer(admin.cookie, { transport: 'http', url: proxy.url });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ ok: true, tools: 5, server: 'sse-server 1.0.0', toolNames: STANDARD_TOOL_NAMES });
      // The streamable attempt failed (405), then the SSE stream was opened: one session in all.
      expect(proxy.state.seen[0]).toBe('POST /sse');
      expect(proxy.state.seen).toContain('GET /sse');
      expect(t.deps.mcp.stats.sessionsOpened).toBe(openedBefore + 1);
      // The SSE session lives as long as its GET /sse stream: closed.
      await expect.poll(() => proxy.state.open, { timeout: 2_000 }).toBe(0);
    } finally {
      await proxy.stop();
    }
  });

  it('starts a stdio server with an allowed command, lists its tools and stops it', async () => {
    const openedBefore = t.deps.mcp.stats.sessionsOpened;
    const response = await testServer(admin.cookie, { transport: 'stdio', command: 'node', args: STDIO_SERVER_ARGS });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ok: true, tools: 3, server: 'stdio-orders 2.0.0', toolNames: STDIO_TOOL_NAMES });
    expect(t.deps.mcp.stats.sessionsOpened).toBe(openedBefore + 1);
    await expect.poll(stdioFixtureChildren, { timeout: 5_000 }).toEqual([]);
  });

  it('answers ok: false with the reason for a server that does not answer, never a 500', async () => {
    const openedBefore = t.deps.mcp.stats.sessionsOpened;
    const response = await testServer(admin.cookie, { transport: 'http', url: unreachableUrl });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ ok: false, tools: 0, server: '', toolNames: [] });
    expect(response.body.error).toBe('connection refused (ECONNREFUSED)');
    expect(t.deps.mcp.stats.sessionsOpened).toBe(openedBefore);
  });

  it('answers ok: false for a stdio command that cannot start a server', async () => {
    const response = await testServer(admin.cookie, { transport: 'stdio', command: 'node', args: ['test/fixtures/no-such-server.mjs'] });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ ok: false, tools: 0, server: '', toolNames: [] });
    expect(response.body.error).toBe('the server process exited');
  });

  it.each([
    'http://169.254.169.254/mcp',
    'http://2852039166/mcp',
    'http://[::ffff:169.254.169.254]/mcp',
    'http://0xa9fea9fe/mcp',
    'http://[fd00:ec2::254]/mcp',
  ])('refuses %s with a 400 naming the url', async (url) => {
    const openedBefore = t.deps.mcp.stats.sessionsOpened;
    const response = await testServer(admin.cookie, { transport: 'http', url });
    expect(response.status, response.text).toBe(400);
    expect(pathsOf(response)).toEqual(['url']);
    expect(detailOf(response, 'url')).toMatch(/is a cloud metadata address/);
    expect(t.deps.mcp.stats.sessionsOpened).toBe(openedBefore);
  });

  it.each([
    ['file:///etc/passwd', 'only http and https URLs are allowed, not file:'],
    ['ftp://127.0.0.1/mcp', 'only http and https URLs are allowed, not ftp:'],
    ['http://user:secret@127.0.0.1/mcp', 'URLs may not carry credentials'],
  ])('refuses %s with a 400 naming the url', async (url, reason) => {
    const response = await testServer(admin.cookie, { transport: 'http', url });
    expect(response.status, response.text).toBe(400);
    expect(response.body).toEqual({ error: 'connection refused', details: [{ path: 'url', message: reason }] });
  });

  it('answers ok false for a host name that does not resolve: unreachable, not refused', async () => {
    const response = await testServer(admin.cookie, { transport: 'http', url: 'http://no-such-mcp-server.invalid/mcp' });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ ok: false, tools: 0, toolNames: [] });
    expect(response.body.error).toMatch(/^cannot resolve no-such-mcp-server\.invalid: /);
  });

  it('refuses a server that redirects to the metadata address: ok false naming the unfollowed redirect, nothing requested there', async () => {
    const openedBefore = t.deps.mcp.stats.sessionsOpened;
    const response = await testServer(admin.cookie, { transport: 'http', url: redirecting.url });
    expect(response.status, response.text).toBe(200);
    // The MCP SDK asks for manual redirects and follows only same-origin ones itself, so the
    // refusal is the SDK's (the SSE fallback meets the same redirect and fails the same way). The
    // reason names the status only, not the redirect's target: nothing the server sent is echoed.
    expect(response.body).toEqual({
      ok: false,
      tools: 0,
      server: '',
      toolNames: [],
      error: 'the server answered HTTP 307 (a redirect, not followed)',
    });
    expect(t.deps.mcp.stats.sessionsOpened).toBe(openedBefore);
    // The redirecting server was reached (so the connect log works); the metadata address never was.
    expect(connects).toContain(`127.0.0.1:${redirecting.port}`);
  });

  it.each([
    [
      'node -e <script> (ran any script as the service)',
      'node',
      ['-e', "require('fs').readFileSync('/proc/' + process.ppid + '/environ')"],
    ],
    ['npx -c <command>', 'npx', ['-c', 'id']],
    ['a shell', 'bash', ['-c', 'echo hi']],
    ['the catalogue server with an extra argument', 'node', [...STDIO_SERVER_ARGS, '--inspect']],
    ['the catalogue server with an option before it', 'node', ['--require=/tmp/x.js', ...STDIO_SERVER_ARGS]],
    ['the catalogue command spelled differently', '/usr/bin/node', STDIO_SERVER_ARGS],
    ['the catalogue command with a trailing space', 'node ', STDIO_SERVER_ARGS],
  ])('refuses %s with a 400 naming the catalogue, and starts nothing', async (_, command, args) => {
    const before = stdioChildren().length;
    const response = await testServer(admin.cookie, { transport: 'stdio', command, args });
    expect(response.status, response.text).toBe(400);
    expect(pathsOf(response)).toEqual(['command']);
    expect(detailOf(response, 'command')).toMatch(
      /^only the stdio servers the operator lists in MCP_STDIO_SERVERS may run, with exactly their command and args/,
    );
    expect(stdioChildren().length).toBe(before);
  });

  it('lists the stdio catalogue to admins only', async () => {
    const listed = await t.request('GET', '/api/connectors/mcp/catalogue', { cookie: admin.cookie });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.servers).toEqual([
      { name: 'orders', command: 'node', args: ['servers/orders-mcp-server.mjs'], env: [] },
      { name: 'fixture', command: 'node', args: STDIO_SERVER_ARGS, env: [] },
      { name: 'broken', command: 'node', args: ['test/fixtures/no-such-server.mjs'], env: [] },
      { name: 'orders_env', command: 'node', args: ['test/fixtures/env-mcp-server.mjs'], env: ['ORDERS_API_TOKEN'] },
    ]);
    expect((await t.request('GET', '/api/connectors/mcp/catalogue', { cookie: member.cookie })).status).toBe(403);
  });

  it('runs the bundled order-lookup server, the local default catalogue entry', async () => {
    const response = await testServer(admin.cookie, { transport: 'stdio', command: 'node', args: ['servers/orders-mcp-server.mjs'] });
    expect(response.body).toEqual({ ok: true, tools: 2, server: 'orders 1.0.0', toolNames: ['lookup_order', 'refund_order'] });
  });

  it('validates the body', async () => {
    const badTransport = await testServer(admin.cookie, { transport: 'ftp', url: docs.url });
    expect(badTransport.status).toBe(400);
    expect(pathsOf(badTransport)).toEqual(['transport']);

    const noUrl = await testServer(admin.cookie, { transport: 'http' });
    expect(noUrl.status).toBe(400);
    expect(pathsOf(noUrl)).toEqual(['url']);

    const noCommand = await testServer(admin.cookie, { transport: 'stdio', url: docs.url });
    expect(noCommand.status).toBe(400);
    expect(pathsOf(noCommand)).toEqual(['command']);

    const notAUrl = await testServer(admin.cookie, { transport: 'http', url: 'not a url' });
    expect(notAUrl.status).toBe(400);
    expect(pathsOf(notAUrl)).toEqual(['url']);

    const badArgs = await testServer(admin.cookie, { transport: 'stdio', command: 'node', args: 'test/fixtures/stdio-mcp-server.mjs' });
    expect(badArgs.status).toBe(400);
    expect(pathsOf(badArgs)).toEqual(['args']);

    for (const response of [badTransport, noUrl, noCommand, notAUrl, badArgs]) expect(response.body.error).toEqual(expect.any(String));
  });

  it('is for admins: a member gets 403 and no server is reached', async () => {
    const sessionsBefore = docs.stats.sessions;
    const response = await testServer(member.cookie, { transport: 'http', url: docs.url });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: expect.any(String) });
    expect(docs.stats.sessions).toBe(sessionsBefore);
    expect((await t.request('POST', '/api/connectors/mcp/test', { body: { url: docs.url } })).status).toBe(401);
  });

  it('refuses a loopback server when private URLs are not allowed', async () => {
    const strictAdmin = await strict.signUp();
    const sessionsBefore = docs.stats.sessions;
    const response = await testServer(strictAdmin.cookie, { transport: 'http', url: docs.url }, strict);
    expect(response.status, response.text).toBe(400);
    expect(pathsOf(response)).toEqual(['url']);
    expect(detailOf(response, 'url')).toContain('MCP_ALLOW_PRIVATE_URLS');
    expect(docs.stats.sessions).toBe(sessionsBefore);
  });
});

describe('POST /api/connectors/mcp', () => {
  it('saves an http connection with its discovered tools and counts them on the workspace', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const sessionsBefore = docs.stats.sessions;
    const openedBefore = t.deps.mcp.stats.sessionsOpened;
    const saved = await save(cookie, { workspace_id: workspaceId, name: 'Docs', transport: 'http', url: docs.url });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toEqual({ status: 'saved', message: expect.any(String), tools: 5, id: expect.stringMatching(/^conn/) });
    expect(saved.body.message).toContain('Docs');
    expect(docs.stats.sessions).toBe(sessionsBefore + 1);
    expect(t.deps.mcp.stats.sessionsOpened).toBe(openedBefore + 1);

    const { connections, tools } = await connectionsOf(cookie, workspaceId);
    expect(connections).toEqual([
      {
        id: saved.body.id,
        name: 'Docs',
        type: 'mcp',
        status: 'connected',
        transport: 'http',
        url: docs.url,
        command: null,
        args: [],
        headers: {},
        env: {},
        last_error: null,
        auth: 'none',
        credential: null,
        tool_count: 5,
        created_at: expect.any(String),
      },
    ]);
    const writes = Object.fromEntries(tools.map((tool) => [tool.name, tool.is_write]));
    expect(writes).toEqual({ search_docs: false, slow_tool: false, fail_tool: false, create_ticket: true, plain_tool: true });
    expect(tools).toHaveLength(5);
    for (const tool of tools) {
      expect(tool.connection_id).toBe(saved.body.id);
      expect(tool.id).toBe(`${saved.body.id}:${tool.name}`);
    }
    expect(tools.find((tool) => tool.name === 'search_docs')?.description).toBe('Search the documentation');

    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 1, tool_count: 5 });
  });

  it('saves a connection through the SSE fallback', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const saved = await save(cookie, { workspace_id: workspaceId, name: 'Legacy', url: sse.url });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({ status: 'saved', tools: 5 });
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 1, tool_count: 5 });
  });

  it('leaves no session of the save probe open on the server', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const proxy = await startOpenRequestCounter(docs.url);
    try {
      const sessionsBefore = docs.stats.sessions;
      const saved = await save(cookie, { workspace_id: workspaceId, name: 'Proxied', url: proxy.url });
      expect(saved.status, saved.text).toBe(201);
      expect(docs.stats.sessions).toBe(sessionsBefore + 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect.poll(() => proxy.state.open, { timeout: 2_000 }).toBe(0);
    } finally {
      await proxy.stop();
    }
  });

  it('saves a stdio connection with the tools it lists, and stops the server it started for that', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const openedBefore = t.deps.mcp.stats.sessionsOpened;
    const saved = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Orders',
      transport: 'stdio',
      command: 'node',
      args: STDIO_SERVER_ARGS,
    });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toEqual({
      status: 'saved',
      message: 'Connected "Orders" with 3 tools',
      tools: 3,
      id: expect.any(String),
    });
    expect(t.deps.mcp.stats.sessionsOpened).toBe(openedBefore + 1);
    await expect.poll(stdioFixtureChildren, { timeout: 5_000 }).toEqual([]);

    const { connections, tools } = await connectionsOf(cookie, workspaceId);
    expect(connections).toEqual([
      expect.objectContaining({
        id: saved.body.id,
        name: 'Orders',
        transport: 'stdio',
        url: null,
        command: 'node',
        args: STDIO_SERVER_ARGS,
        tool_count: 3,
        status: 'connected',
        type: 'mcp',
      }),
    ]);
    expect(tools.map((tool: { name: string }) => tool.name).sort()).toEqual([...STDIO_TOOL_NAMES].sort());
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 1, tool_count: 3 });
  });

  it('refuses a stdio command line outside the catalogue', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const response = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Shell',
      transport: 'stdio',
      command: 'node',
      args: ['-e', 'process.exit(0)'],
    });
    expect(response.status, response.text).toBe(400);
    expect(pathsOf(response)).toEqual(['command']);
    expect(detailOf(response, 'command')).toContain('MCP_STDIO_SERVERS');
    expect((await connectionsOf(cookie, workspaceId)).connections).toEqual([]);
  });

  it('answers 400 naming the url for an unreachable server, and saves nothing', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const existing = await save(cookie, { workspace_id: workspaceId, name: 'Docs', url: docs.url });
    expect(existing.status).toBe(201);
    const before = await connectionsOf(cookie, workspaceId);

    const response = await save(cookie, { workspace_id: workspaceId, name: 'Gone', url: unreachableUrl });
    expect(response.status, response.text).toBe(400);
    expect(pathsOf(response)).toEqual(['url']);
    expect(detailOf(response, 'url')).toBe('connection refused (ECONNREFUSED)');

    expect(await connectionsOf(cookie, workspaceId)).toEqual(before);
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 1, tool_count: 5 });
    // The name was not claimed either.
    const retry = await save(cookie, { workspace_id: workspaceId, name: 'Gone', url: docs.url });
    expect(retry.status, retry.text).toBe(201);
  });

  it('refuses metadata URLs and a server redirecting to one, saving nothing', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    for (const url of ['http://169.254.169.254/mcp', 'http://2852039166/mcp', 'http://[::ffff:169.254.169.254]/mcp']) {
      const response = await save(cookie, { workspace_id: workspaceId, name: 'Metadata', url });
      expect(response.status, `${url}: ${response.text}`).toBe(400);
      expect(pathsOf(response)).toEqual(['url']);
      expect(detailOf(response, 'url')).toContain('169.254.169.254 is a cloud metadata address');
    }
    const redirected = await save(cookie, { workspace_id: workspaceId, name: 'Redirected', url: redirecting.url });
    expect(redirected.status, redirected.text).toBe(400);
    expect(pathsOf(redirected)).toEqual(['url']);
    expect(detailOf(redirected, 'url')).toBe('the server answered HTTP 307 (a redirect, not followed)');
    expect(await connectionsOf(cookie, workspaceId)).toEqual({ connections: [], tools: [] });
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 0, tool_count: 0 });
  });

  it('answers 409 for a second connection of the same name in a workspace, in any case; another workspace may use it', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const first = await save(cookie, { workspace_id: workspaceId, name: 'Docs', url: docs.url });
    expect(first.status).toBe(201);
    for (const name of ['Docs', 'docs', 'DOCS']) {
      const again = await save(cookie, { workspace_id: workspaceId, name, url: docs.url });
      expect(again.status, `${name}: ${again.text}`).toBe(409);
      expect(again.body).toEqual({ error: expect.stringContaining(workspaceId) });
    }
    const stdioAgain = await save(cookie, {
      workspace_id: workspaceId,
      name: 'docs',
      transport: 'stdio',
      command: 'node',
      args: STDIO_SERVER_ARGS,
    });
    expect(stdioAgain.status).toBe(409);
    // Nothing of the refused saves is left behind.
    const { connections, tools } = await connectionsOf(cookie, workspaceId);
    expect(connections.map((connection) => connection.id)).toEqual([first.body.id]);
    expect(tools).toHaveLength(5);
    expect(tools.every((tool) => tool.connection_id === first.body.id)).toBe(true);
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 1, tool_count: 5 });

    const other = await t.createWorkspace(cookie, { name: uniqueName('Other') });
    const elsewhere = await save(cookie, { workspace_id: other.id, name: 'Docs', url: docs.url });
    expect(elsewhere.status, elsewhere.text).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
  });

  it("answers 404 for an unknown workspace or another organisation's, without reaching the server", async () => {
    const { cookie } = await orgWithWorkspace();
    const stranger = await orgWithWorkspace();
    const sessionsBefore = docs.stats.sessions;
    const unknown = await save(cookie, { workspace_id: 'ws-no-such-workspace', name: 'Docs', url: docs.url });
    expect(unknown.status, unknown.text).toBe(404);
    const foreign = await save(cookie, { workspace_id: stranger.workspaceId, name: 'Docs', url: docs.url });
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    expect(docs.stats.sessions).toBe(sessionsBefore);
    expect(await connectionsOf(stranger.cookie, stranger.workspaceId)).toEqual({ connections: [], tools: [] });
  });

  it('is for admins: a member gets 403 and nothing is saved', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const member = await t.addMember(cookie);
    const response = await save(member.cookie, { workspace_id: workspaceId, name: 'Docs', url: docs.url });
    expect(response.status).toBe(403);
    expect((await connectionsOf(member.cookie, workspaceId)).connections).toEqual([]);
  });

  it('validates the body', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const cases: [Record<string, unknown>, string][] = [
      [{ workspace_id: workspaceId, name: 'X', transport: 'ftp', url: docs.url }, 'transport'],
      [{ workspace_id: workspaceId, name: 'X', transport: 'http' }, 'url'],
      [{ workspace_id: workspaceId, name: 'X', transport: 'stdio' }, 'command'],
      [{ workspace_id: workspaceId, name: 'X', url: 'not a url' }, 'url'],
      [{ name: 'X', url: docs.url }, 'workspace_id'],
      [{ workspace_id: workspaceId, url: docs.url }, 'name'],
    ];
    for (const [body, path] of cases) {
      const response = await save(cookie, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(pathsOf(response), JSON.stringify(body)).toContain(path);
    }
    expect((await connectionsOf(cookie, workspaceId)).connections).toEqual([]);
  });

  it('refuses a loopback URL when MCP_ALLOW_PRIVATE_URLS is false', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace(strict);
    const sessionsBefore = docs.stats.sessions;
    const response = await save(cookie, { workspace_id: workspaceId, name: 'Local', url: `http://127.0.0.1:${docs.port}/mcp` }, strict);
    expect(response.status, response.text).toBe(400);
    expect(pathsOf(response)).toEqual(['url']);
    expect(detailOf(response, 'url')).toContain('MCP_ALLOW_PRIVATE_URLS');
    expect(docs.stats.sessions).toBe(sessionsBefore);
    const listed = await strict.request('GET', `/api/workspaces/${workspaceId}/connections`, { cookie });
    expect(listed.body).toEqual({ connections: [], tools: [] });
  });
});

describe('DELETE /api/connections/:id', () => {
  it('deletes the connection and all its tools, once', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const saved = await save(cookie, { workspace_id: workspaceId, name: 'Docs', url: docs.url });
    const kept = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Orders',
      transport: 'stdio',
      command: 'node',
      args: STDIO_SERVER_ARGS,
    });
    expect([saved.status, kept.status]).toEqual([201, 201]);
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 2, tool_count: 8 });

    const deleted = await t.request('DELETE', `/api/connections/${saved.body.id}`, { cookie });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ status: 'ok' });
    const { connections, tools } = await connectionsOf(cookie, workspaceId);
    expect(connections.map((connection) => connection.id)).toEqual([kept.body.id]);
    expect(new Set(tools.map((tool) => tool.connection_id))).toEqual(new Set([kept.body.id]));
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 1, tool_count: 3 });

    const again = await t.request('DELETE', `/api/connections/${saved.body.id}`, { cookie });
    expect(again.status).toBe(404);
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 1, tool_count: 3 });

    const last = await t.request('DELETE', `/api/connections/${kept.body.id}`, { cookie });
    expect(last.body).toEqual({ status: 'ok' });
    expect(await connectionsOf(cookie, workspaceId)).toEqual({ connections: [], tools: [] });
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 0, tool_count: 0 });
  });

  it('lets the name be used again after a delete', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const first = await save(cookie, { workspace_id: workspaceId, name: 'Docs', url: docs.url });
    expect((await t.request('DELETE', `/api/connections/${first.body.id}`, { cookie })).status).toBe(200);
    const second = await save(cookie, { workspace_id: workspaceId, name: 'docs', url: docs.url });
    expect(second.status, second.text).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    const { connections, tools } = await connectionsOf(cookie, workspaceId);
    expect(connections.map((connection) => [connection.id, connection.name])).toEqual([[second.body.id, 'docs']]);
    expect(tools).toHaveLength(5);
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 1, tool_count: 5 });
  });

  it("answers 404 to another organisation's admin and 403 to a member, deleting nothing", async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const member = await t.addMember(cookie);
    const stranger = await t.signUp();
    const saved = await save(cookie, { workspace_id: workspaceId, name: 'Docs', url: docs.url });
    expect(saved.status).toBe(201);

    const foreign = await t.request('DELETE', `/api/connections/${saved.body.id}`, { cookie: stranger.cookie });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    const byMember = await t.request('DELETE', `/api/connections/${saved.body.id}`, { cookie: member.cookie });
    expect(byMember.status).toBe(403);
    const unknown = await t.request('DELETE', '/api/connections/conn_no_such_connection', { cookie });
    expect(unknown.status).toBe(404);

    const { connections, tools } = await connectionsOf(cookie, workspaceId);
    expect(connections.map((connection) => connection.id)).toEqual([saved.body.id]);
    expect(tools).toHaveLength(5);
    expect(await countsOf(cookie, workspaceId)).toEqual({ connection_count: 1, tool_count: 5 });
  });
});

describe('MCP errors never echo an upstream response body', () => {
  const SECRET = 'SECRET-LOOPBACK-PAGE';
  // Loopback services that are not MCP servers: what a tenant would point the proxy at to read them.
  const pages: Server[] = [];
  const urls: Record<'notFound' | 'failing' | 'html', string> = { notFound: '', failing: '', html: '' };
  let admin: { cookie: string };

  async function startPage(status: number, contentType: string): Promise<string> {
    const server = createServer((req, res) => {
      req.resume();
      res
        .writeHead(status, { 'content-type': contentType })
        .end(`<html><body>${SECRET} admin console, token=${SECRET}-token</body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    pages.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  beforeAll(async () => {
    urls.notFound = await startPage(404, 'text/html');
    urls.failing = await startPage(500, 'text/plain');
    urls.html = await startPage(200, 'text/html');
    admin = await t.signUp();
  });
  afterAll(async () => {
    for (const server of pages) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it.each([
    ['notFound', 'the server answered HTTP 404'],
    ['failing', 'the server answered HTTP 500'],
    ['html', 'the server answered with a content type that is not MCP'],
  ] as const)('POST /api/connectors/mcp/test to a loopback page (%s) names the status, never the page', async (page, reason) => {
    const response = await testServer(admin.cookie, { transport: 'http', url: urls[page] });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ok: false, tools: 0, server: '', toolNames: [], error: reason });
    expect(response.text).not.toContain(SECRET);
    expect(response.text).not.toContain('admin console');
  });

  it.each([
    ['notFound', 'the server answered HTTP 404'],
    ['failing', 'the server answered HTTP 500'],
    ['html', 'the server answered with a content type that is not MCP'],
  ] as const)('POST /api/connectors/mcp to a loopback page (%s) answers 400 naming the status, never the page', async (page, reason) => {
    const workspace = await t.createWorkspace(admin.cookie, { name: uniqueName('Probe') });
    const response = await save(admin.cookie, { workspace_id: workspace.id, name: 'Loopback page', url: urls[page] });
    expect(response.status, response.text).toBe(400);
    expect(response.body).toEqual({ error: 'could not reach the MCP server', details: [{ path: 'url', message: reason }] });
    expect(response.text).not.toContain(SECRET);
    expect((await connectionsOf(admin.cookie, workspace.id)).connections).toEqual([]);
  });
});
