import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type ApiResponse, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { startHeaderMcpServer } from '../support/header-mcp-server.js';
import { standardTools, startHttpMcpServer, type TestTool } from '../support/mcp-servers.js';

const MASK = '••••••••';
const STANDARD_TOOL_NAMES = ['search_docs', 'create_ticket', 'plain_tool', 'slow_tool', 'fail_tool'];
const ENV_SERVER = { transport: 'stdio', command: 'node', args: ['test/fixtures/env-mcp-server.mjs'] } as const;
const PLAIN_STDIO_SERVER = { transport: 'stdio', command: 'node', args: ['test/fixtures/stdio-mcp-server.mjs'] } as const;
const API_KEY_HEADER = 'x-api-key';

interface ListedConnection {
  id: string;
  name: string;
  type: string;
  transport: string;
  url: string | null;
  command: string | null;
  args: string[];
  tool_count: number;
  headers: Record<string, string>;
  env: Record<string, string>;
  status: 'connected' | 'needs_authorization' | 'error';
  last_error: string | null;
}

interface Listing {
  connections: ListedConnection[];
  tools: { id: string; name: string; connection_id: string }[];
}

let t: TestContext;
let model: FakeModel;

/** Every header and env value this file hands the service: none may come back, be stored as is or be logged. */
const secrets: string[] = [];
/** A fresh credential value, remembered in `secrets`; `ending` fixes its last characters. */
function secret(label: string, ending = ''): string {
  const value = `${label}-${randomBytes(8).toString('hex')}${ending}`;
  secrets.push(value);
  return value;
}

/** Servers started by the running test, closed after it (closing twice is harmless). */
const running: { close(): Promise<void> }[] = [];

async function headerServer(options: { header?: string; value: string; tools?: TestTool[] }) {
  const server = await startHeaderMcpServer({ header: options.header ?? API_KEY_HEADER, value: options.value, tools: options.tools });
  running.push(server);
  return server;
}

async function plainServer(name = 'plain-server') {
  const server = await startHttpMcpServer({ name });
  running.push({ close: () => server.stop() });
  return server;
}

/** A URL that refuses connections: a server started, then closed. */
async function unreachableUrl(): Promise<string> {
  const gone = await startHttpMcpServer({ name: 'gone' });
  await gone.stop();
  return gone.url;
}

/**
 * A forwarding proxy on 127.0.0.1 whose target can be switched: one stable URL in front of two
 * header servers that want different values (the server's credential was rotated).
 */
async function startSwitchableProxy(initialTarget: string) {
  let target = new URL(initialTarget);
  const server = createServer((req, res) => {
    const search = new URL(req.url ?? '/', 'http://proxy').search;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${search}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy = {
    url: `http://127.0.0.1:${port}/mcp`,
    switchTo(url: string) {
      target = new URL(url);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  running.push(proxy);
  return proxy;
}

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({
    env: {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-service-fallback-key',
      MCP_TIMEOUT_MS: '5000',
      MODEL_MAX_RETRIES: '1',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await model?.stop();
});
beforeEach(() => model.reset());
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

const pathsOf = (response: ApiResponse): string[] => (response.body?.details ?? []).map((detail: { path: string }) => detail.path);
const detailOf = (response: ApiResponse, path: string): string =>
  (response.body?.details ?? []).find((detail: { path: string }) => detail.path === path)?.message ?? '';

/** No value this file used appears in the response. */
function expectNoSecret(...responses: ApiResponse[]) {
  for (const response of responses) for (const value of secrets) expect(response.text).not.toContain(value);
}

let names = 0;
function uniqueName(prefix = 'Credentials'): string {
  names += 1;
  return `${prefix} ${names} ${crypto.randomUUID().slice(0, 8)}`;
}

async function orgWithWorkspace() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: uniqueName(), system_prompt: 'You answer questions.' });
  return { admin, cookie: admin.cookie, workspaceId: workspace.id };
}

function save(cookie: string, body: Record<string, unknown>) {
  return t.request('POST', '/api/connectors/mcp', { cookie, body });
}

function probe(cookie: string, body: Record<string, unknown>) {
  return t.request('POST', '/api/connectors/mcp/test', { cookie, body });
}

function edit(cookie: string, id: string, body: unknown) {
  return t.request('PUT', `/api/connections/${id}`, { cookie, body });
}

function ask(cookie: string, workspaceId: string, query: string) {
  return t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query } });
}

async function listingOf(cookie: string, workspaceId: string): Promise<Listing> {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/connections`, { cookie });
  expect(response.status, response.text).toBe(200);
  expectNoSecret(response);
  return response.body as Listing;
}

async function connectionOf(cookie: string, workspaceId: string, id: string): Promise<ListedConnection> {
  const connection = (await listingOf(cookie, workspaceId)).connections.find((candidate) => candidate.id === id);
  expect(connection, `connection ${id} is listed`).toBeDefined();
  return connection as ListedConnection;
}

/** The tool results the model received in its request number `index` (the one after the tool call). */
function toolResultsOf(index = 1) {
  return (model.requests[index]?.body.messages.at(-1)?.content ?? []) as { type: string; content: string; is_error: boolean }[];
}

/** Saves an http connection to `url` with `headers`; answers its id. */
async function saveHttp(cookie: string, workspaceId: string, name: string, url: string, headers?: Record<string, string>) {
  const saved = await save(cookie, { workspace_id: workspaceId, name, transport: 'http', url, ...(headers ? { headers } : {}) });
  expect(saved.status, saved.text).toBe(201);
  expectNoSecret(saved);
  return saved.body.id as string;
}

/** A query that makes the model call search_docs once; answers the query's response and the tool result. */
async function searchThrough(cookie: string, workspaceId: string, query: string) {
  model.reset();
  model.reply(toolUseReply([{ name: 'search_docs', input: { query } }]), textReply('found it'));
  const response = await ask(cookie, workspaceId, `search for ${query}`);
  expect(response.status, response.text).toBe(200);
  expectNoSecret(response);
  return { response, result: toolResultsOf(1)[0] };
}

describe('POST /api/connectors/mcp with headers', () => {
  it('saves an http connection with its headers: the server refused the attempt without them and accepted the one with them', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const key = secret('api-key');
    const server = await headerServer({ value: key });

    const without = await save(cookie, { workspace_id: workspaceId, name: 'Protected', url: server.url });
    expect(without.status, without.text).toBe(400);
    expect(without.body.error).toBe('could not reach the MCP server');
    expect(pathsOf(without)).toEqual(['url']);
    // The reason is the service's own words, never the server's text.
    expect(without.text).not.toContain('missing or wrong');
    expect(server.rejected).toBeGreaterThan(0);
    const rejectedBefore = server.rejected;

    const saved = await save(cookie, { workspace_id: workspaceId, name: 'Protected', url: server.url, headers: { [API_KEY_HEADER]: key } });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toEqual({ status: 'saved', message: expect.any(String), tools: 5, id: expect.any(String) });
    expectNoSecret(saved);
    // Every request of the save's probe carried the header.
    expect(server.rejected).toBe(rejectedBefore);

    const { connections, tools } = await listingOf(cookie, workspaceId);
    expect(connections).toEqual([
      expect.objectContaining({
        id: saved.body.id,
        name: 'Protected',
        transport: 'http',
        url: server.url,
        tool_count: 5,
        headers: { [API_KEY_HEADER]: MASK },
        env: {},
        status: 'connected',
        last_error: null,
      }),
    ]);
    expect(tools.map((tool) => tool.name).sort()).toEqual([...STANDARD_TOOL_NAMES].sort());
    expect(tools.every((tool) => tool.connection_id === saved.body.id)).toBe(true);
  });

  it('answers 400 for a wrong header value or the value under another name, and saves nothing', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const key = secret('api-key');
    const wrong = secret('wrong-key');
    const server = await headerServer({ value: key });

    const wrongValue = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Protected',
      url: server.url,
      headers: { [API_KEY_HEADER]: wrong },
    });
    expect(wrongValue.status, wrongValue.text).toBe(400);
    expect(wrongValue.body.error).toBe('could not reach the MCP server');
    const rejectedAfterWrongValue = server.rejected;
    expect(rejectedAfterWrongValue).toBeGreaterThan(0);

    const wrongName = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Protected',
      url: server.url,
      headers: { 'x-other-key': key },
    });
    expect(wrongName.status, wrongName.text).toBe(400);
    expect(wrongName.body.error).toBe('could not reach the MCP server');
    expect(server.rejected).toBeGreaterThan(rejectedAfterWrongValue);

    expectNoSecret(wrongValue, wrongName);
    expect(await listingOf(cookie, workspaceId)).toEqual({ connections: [], tools: [] });
  });

  it.each(['Host', 'content-length', 'CONNECTION', 'cookie'])(
    'refuses the header %s with a 400 naming it, and saves nothing',
    async (name) => {
      const { cookie, workspaceId } = await orgWithWorkspace();
      const key = secret('api-key');
      const server = await headerServer({ value: key });
      // With the right key beside it, only the refused name can make this a 400.
      const response = await save(cookie, {
        workspace_id: workspaceId,
        name: 'Protected',
        url: server.url,
        headers: { [API_KEY_HEADER]: key, [name]: 'some-value' },
      });
      expect(response.status, response.text).toBe(400);
      expect(pathsOf(response).length).toBeGreaterThan(0);
      for (const path of pathsOf(response)) expect([`headers.${name}`, 'headers']).toContain(path);
      expectNoSecret(response);
      expect(await listingOf(cookie, workspaceId)).toEqual({ connections: [], tools: [] });
    },
  );

  it.each(['with space', 'colon:', '(parens)', 'ünïcode', 'x-api-key\r\nhost'])(
    'refuses the header name %j (not an HTTP token) with a 400 under headers',
    async (name) => {
      const { cookie, workspaceId } = await orgWithWorkspace();
      const key = secret('api-key');
      const server = await headerServer({ value: key });
      const response = await save(cookie, {
        workspace_id: workspaceId,
        name: 'Protected',
        url: server.url,
        headers: { [API_KEY_HEADER]: key, [name]: 'some-value' },
      });
      expect(response.status, response.text).toBe(400);
      expect(pathsOf(response).length).toBeGreaterThan(0);
      for (const path of pathsOf(response)) expect(path).toMatch(/^headers(\.|$)/);
      expect(await listingOf(cookie, workspaceId)).toEqual({ connections: [], tools: [] });
    },
  );

  it('accepts 20 headers and a 4096-character value; refuses 21 headers and values that are too long or carry CR, LF or NUL', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const key = secret('api-key');
    const server = await headerServer({ value: key });
    const long = secret('long-value').padEnd(4096, 'L');
    const twenty: Record<string, string> = { [API_KEY_HEADER]: key, 'x-long': long };
    for (let index = 1; Object.keys(twenty).length < 20; index += 1) twenty[`x-extra-${index}`] = `extra ${index}`;
    expect(Object.keys(twenty)).toHaveLength(20);

    const tooMany = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Too many',
      url: server.url,
      headers: { ...twenty, 'x-one-more': 'one more' },
    });
    expect(tooMany.status, tooMany.text).toBe(400);
    expect(pathsOf(tooMany)).toContain('headers');
    expectNoSecret(tooMany);

    for (const [label, value] of [
      ['4097 characters', `${long}L`],
      ['a CR LF', `${secret('crlf')}\r\nInjected: yes`],
      ['an LF', `${secret('lf')}\nInjected: yes`],
      ['a CR', `${secret('cr')}\rInjected: yes`],
      ['a NUL', `${secret('nul')}\u0000tail`],
    ] as const) {
      const response = await save(cookie, {
        workspace_id: workspaceId,
        name: 'Bad value',
        url: server.url,
        headers: { [API_KEY_HEADER]: key, 'x-bad': value },
      });
      expect(response.status, `${label}: ${response.text}`).toBe(400);
      expect(pathsOf(response).length, label).toBeGreaterThan(0);
      for (const path of pathsOf(response)) expect([`headers.x-bad`, 'headers'], label).toContain(path);
      expectNoSecret(response);
    }
    expect(await listingOf(cookie, workspaceId)).toEqual({ connections: [], tools: [] });

    const saved = await save(cookie, { workspace_id: workspaceId, name: 'Twenty', url: server.url, headers: twenty });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.tools).toBe(5);
    const connection = await connectionOf(cookie, workspaceId, saved.body.id);
    expect(Object.keys(connection.headers).sort()).toEqual(Object.keys(twenty).sort());
    expect(Object.values(connection.headers).every((masked) => masked === MASK)).toBe(true);
  });

  it('refuses headers on a stdio connection and env on an http one, with the field as the path', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const server = await plainServer();
    const token = secret('orders-token');

    const headersOnStdio = await save(cookie, { workspace_id: workspaceId, name: 'Orders', ...ENV_SERVER, headers: { 'x-api-key': 'x' } });
    expect(headersOnStdio.status, headersOnStdio.text).toBe(400);
    expect(pathsOf(headersOnStdio)).toEqual(['headers']);

    const envOnHttp = await save(cookie, { workspace_id: workspaceId, name: 'Docs', url: server.url, env: { ORDERS_API_TOKEN: token } });
    expect(envOnHttp.status, envOnHttp.text).toBe(400);
    expect(pathsOf(envOnHttp)).toEqual(['env']);

    const probeHeadersOnStdio = await probe(cookie, { ...ENV_SERVER, headers: { 'x-api-key': 'x' } });
    expect(probeHeadersOnStdio.status, probeHeadersOnStdio.text).toBe(400);
    expect(pathsOf(probeHeadersOnStdio)).toEqual(['headers']);
    const probeEnvOnHttp = await probe(cookie, { transport: 'http', url: server.url, env: { ORDERS_API_TOKEN: token } });
    expect(probeEnvOnHttp.status, probeEnvOnHttp.text).toBe(400);
    expect(pathsOf(probeEnvOnHttp)).toEqual(['env']);

    expectNoSecret(headersOnStdio, envOnHttp, probeHeadersOnStdio, probeEnvOnHttp);
    expect(server.stats.sessions).toBe(0);
    expect(await listingOf(cookie, workspaceId)).toEqual({ connections: [], tools: [] });
  });

  it('lists the variables a catalogue entry declares, and refuses any other one naming the allowed ones', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const catalogue = await t.request('GET', '/api/connectors/mcp/catalogue', { cookie });
    expect(catalogue.status, catalogue.text).toBe(200);
    expect(catalogue.body.servers).toContainEqual({
      name: 'orders_env',
      command: 'node',
      args: ['test/fixtures/env-mcp-server.mjs'],
      env: ['ORDERS_API_TOKEN'],
    });

    const undeclared = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Orders',
      ...ENV_SERVER,
      env: { ORDERS_API_TOKEN: secret('orders-token'), LD_PRELOAD: '/tmp/evil.so' },
    });
    expect(undeclared.status, undeclared.text).toBe(400);
    expect(pathsOf(undeclared)).toEqual(['env.LD_PRELOAD']);
    expect(detailOf(undeclared, 'env.LD_PRELOAD')).toContain('ORDERS_API_TOKEN');

    const wrongCase = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Orders',
      ...ENV_SERVER,
      env: { orders_api_token: secret('t') },
    });
    expect(wrongCase.status, wrongCase.text).toBe(400);
    expect(pathsOf(wrongCase)).toEqual(['env.orders_api_token']);

    // The fixture entry declares no variable at all.
    const noneDeclared = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Fixture',
      ...PLAIN_STDIO_SERVER,
      env: { ORDERS_API_TOKEN: secret('orders-token') },
    });
    expect(noneDeclared.status, noneDeclared.text).toBe(400);
    expect(pathsOf(noneDeclared)).toEqual(['env.ORDERS_API_TOKEN']);

    const probed = await probe(cookie, { ...ENV_SERVER, env: { PATH: '/tmp' } });
    expect(probed.status, probed.text).toBe(400);
    expect(pathsOf(probed)).toEqual(['env.PATH']);
    expect(detailOf(probed, 'env.PATH')).toContain('ORDERS_API_TOKEN');

    expectNoSecret(undeclared, wrongCase, noneDeclared, probed);
    expect(await listingOf(cookie, workspaceId)).toEqual({ connections: [], tools: [] });
  });
});

describe('POST /api/connectors/mcp/test with credentials', () => {
  it('reaches a header-protected server with the headers, and reports it unreachable without them', async () => {
    const { cookie } = await orgWithWorkspace();
    const key = secret('api-key');
    const server = await headerServer({ value: key });

    const withHeaders = await probe(cookie, { transport: 'http', url: server.url, headers: { [API_KEY_HEADER]: key } });
    expect(withHeaders.status, withHeaders.text).toBe(200);
    expect(withHeaders.body).toEqual({ ok: true, tools: 5, server: 'header-test-server 1.0.0', toolNames: STANDARD_TOOL_NAMES });
    expect(server.rejected).toBe(0);

    const without = await probe(cookie, { transport: 'http', url: server.url });
    expect(without.status, without.text).toBe(200);
    expect(without.body).toMatchObject({ ok: false, tools: 0, toolNames: [] });
    expect(without.body.error).toEqual(expect.any(String));
    expect(without.text).not.toContain('missing or wrong');
    expect(server.rejected).toBeGreaterThan(0);

    const refused = await probe(cookie, { transport: 'http', url: server.url, headers: { [API_KEY_HEADER]: key, Host: 'evil.example' } });
    expect(refused.status, refused.text).toBe(400);
    for (const path of pathsOf(refused)) expect(['headers.Host', 'headers']).toContain(path);
    expectNoSecret(withHeaders, without, refused);
  });

  it('starts a stdio server with its declared env', async () => {
    const { cookie } = await orgWithWorkspace();
    const response = await probe(cookie, { ...ENV_SERVER, env: { ORDERS_API_TOKEN: secret('orders-token') } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ ok: true, tools: 1, server: 'env-orders 1.0.0', toolNames: ['lookup_order'] });
    expectNoSecret(response);
  });
});

describe('queries use the stored credentials', () => {
  it('calls a tool of the header-protected server with the header', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const key = secret('api-key');
    const server = await headerServer({ value: key });
    await saveHttp(cookie, workspaceId, 'Protected', server.url, { [API_KEY_HEADER]: key });
    const rejectedBefore = server.rejected;

    const { response, result } = await searchThrough(cookie, workspaceId, 'refund policy');
    expect(response.body).toMatchObject({
      answer: 'found it',
      tools_called: ['search_docs'],
      connections_hit: ['Protected'],
      error: null,
    });
    expect(result).toMatchObject({ type: 'tool_result', content: 'results for refund policy (header)', is_error: false });
    expect(server.rejected).toBe(rejectedBefore);
    // The credential goes to the tool server only, never to the model.
    expect(JSON.stringify(model.requests.map((request) => request.body))).not.toContain(key);
  });

  it("starts the stdio server with the connection's env value, and a new value after a PUT", async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const first = secret('orders-token', 'Q7');
    const saved = await save(cookie, { workspace_id: workspaceId, name: 'Orders', ...ENV_SERVER, env: { ORDERS_API_TOKEN: first } });
    expect(saved.status, saved.text).toBe(201);
    expectNoSecret(saved);

    model.reply(toolUseReply([{ name: 'lookup_order', input: { order_id: '42' } }]), textReply('Order 42 has shipped.'));
    const response = await ask(cookie, workspaceId, 'Where is order 42?');
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ answer: 'Order 42 has shipped.', tools_called: ['lookup_order'], error: null });
    expect(model.requests[0]?.body.tools?.map((tool) => tool.name)).toEqual(['lookup_order']);
    expect(toolResultsOf(1)[0]).toMatchObject({ content: 'order 42 has shipped (orders API token ending in Q7)', is_error: false });
    expectNoSecret(response);

    const second = secret('orders-token', 'Z3');
    const edited = await edit(cookie, saved.body.id, { env: { ORDERS_API_TOKEN: second } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.connection).toMatchObject({ id: saved.body.id, env: { ORDERS_API_TOKEN: MASK }, headers: {} });
    expectNoSecret(edited);

    model.reply(toolUseReply([{ name: 'lookup_order', input: { order_id: '43' } }]), textReply('Order 43 has shipped.'));
    const again = await ask(cookie, workspaceId, 'And order 43?');
    expect(again.body).toMatchObject({ error: null });
    // The session started with the old value is not reused: the new value reached the server.
    expect(toolResultsOf(model.requests.length - 1)[0]).toMatchObject({
      content: 'order 43 has shipped (orders API token ending in Z3)',
      is_error: false,
    });
  });

  it('gives a stdio server without env nothing of another connection or of the service', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const saved = await save(cookie, { workspace_id: workspaceId, name: 'Orders', ...ENV_SERVER });
    expect(saved.status, saved.text).toBe(201);
    model.reply(toolUseReply([{ name: 'lookup_order', input: { order_id: '7' } }]), textReply('no token'));
    const response = await ask(cookie, workspaceId, 'Where is order 7?');
    expect(response.status, response.text).toBe(200);
    expect(toolResultsOf(1)[0]).toMatchObject({ content: 'ORDERS_API_TOKEN is missing: cannot call the orders API', is_error: true });
    expect((await connectionOf(cookie, workspaceId, saved.body.id)).env).toEqual({});
  });
});

describe('listings', () => {
  it('mask header and env values for admins and hide them from members, in the connections listing and the workspace detail', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const member = await t.addMember(cookie);
    const key = secret('api-key');
    const tenant = secret('tenant');
    const server = await headerServer({ value: key });
    const httpId = await saveHttp(cookie, workspaceId, 'Protected', server.url, { [API_KEY_HEADER]: key, 'x-tenant': tenant });
    const stdio = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Orders',
      ...ENV_SERVER,
      env: { ORDERS_API_TOKEN: secret('orders-token') },
    });
    expect(stdio.status, stdio.text).toBe(201);

    for (const path of [`/api/workspaces/${workspaceId}/connections`, `/api/workspaces/${workspaceId}`]) {
      const asAdmin = await t.request('GET', path, { cookie });
      expect(asAdmin.status, `${path}: ${asAdmin.text}`).toBe(200);
      expectNoSecret(asAdmin);
      const adminView = asAdmin.body.connections as ListedConnection[];
      expect(
        adminView.find((connection) => connection.id === httpId),
        path,
      ).toEqual(
        expect.objectContaining({
          url: server.url,
          headers: { [API_KEY_HEADER]: MASK, 'x-tenant': MASK },
          env: {},
          status: 'connected',
          last_error: null,
        }),
      );
      expect(
        adminView.find((connection) => connection.id === stdio.body.id),
        path,
      ).toEqual(
        expect.objectContaining({
          command: 'node',
          args: ENV_SERVER.args,
          headers: {},
          env: { ORDERS_API_TOKEN: MASK },
          status: 'connected',
          last_error: null,
        }),
      );

      const asMember = await t.request('GET', path, { cookie: member.cookie });
      expect(asMember.status, `${path}: ${asMember.text}`).toBe(200);
      expectNoSecret(asMember);
      expect(asMember.text).not.toContain(MASK);
      const memberView = asMember.body.connections as ListedConnection[];
      expect(memberView).toHaveLength(2);
      for (const connection of memberView) {
        expect(connection, path).toMatchObject({ url: null, args: [], headers: {}, env: {}, status: 'connected', last_error: null });
      }
    }
  });
});

describe('PUT /api/connections/:id', () => {
  it('replaces the headers: the server is reached with the new value only, its tools rediscovered', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const oldKey = secret('old-key');
    const newKey = secret('new-key');
    const before = await headerServer({ value: oldKey, tools: standardTools({ tag: 'old' }) });
    // The rotated server has fewer tools: a rediscovery shows.
    const after = await headerServer({ value: newKey, tools: standardTools({ tag: 'new' }).filter((tool) => tool.name !== 'slow_tool') });
    const proxy = await startSwitchableProxy(before.url);
    const id = await saveHttp(cookie, workspaceId, 'Rotating', proxy.url, { [API_KEY_HEADER]: oldKey });
    expect((await searchThrough(cookie, workspaceId, 'one')).result).toMatchObject({ content: 'results for one (old)', is_error: false });

    // The server's credential is rotated; the connection follows.
    proxy.switchTo(after.url);
    const edited = await edit(cookie, id, { headers: { [API_KEY_HEADER]: newKey } });
    expect(edited.status, edited.text).toBe(200);
    expectNoSecret(edited);
    expect(edited.body.connection).toEqual(
      expect.objectContaining({
        id,
        name: 'Rotating',
        url: proxy.url,
        headers: { [API_KEY_HEADER]: MASK },
        tool_count: 4,
        status: 'connected',
        last_error: null,
      }),
    );
    const listing = await listingOf(cookie, workspaceId);
    expect(listing.connections).toEqual([edited.body.connection]);
    expect(listing.tools.map((tool) => tool.name).sort()).toEqual(['create_ticket', 'fail_tool', 'plain_tool', 'search_docs']);

    const { response, result } = await searchThrough(cookie, workspaceId, 'two');
    expect(response.body.error).toBeNull();
    expect(result).toMatchObject({ content: 'results for two (new)', is_error: false });
    // The old value (and the session opened with it) never reached the rotated server.
    expect(after.rejected).toBe(0);
  });

  it('removes all headers with {} and keeps them when only the name changes', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const server = await plainServer();
    const id = await saveHttp(cookie, workspaceId, 'Docs', server.url, { 'x-trace': secret('trace'), 'x-team': secret('team') });

    const renamed = await edit(cookie, id, { name: 'Renamed docs' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.connection).toMatchObject({
      id,
      name: 'Renamed docs',
      url: server.url,
      headers: { 'x-trace': MASK, 'x-team': MASK },
    });
    expectNoSecret(renamed);

    const cleared = await edit(cookie, id, { headers: {} });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.connection).toMatchObject({ id, name: 'Renamed docs', headers: {}, env: {}, tool_count: 5 });
    expect(await connectionOf(cookie, workspaceId, id)).toEqual(cleared.body.connection);
  });

  it('answers 400 and changes nothing when the server cannot be reached with the new settings; the old headers keep working', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const key = secret('api-key');
    const server = await headerServer({ value: key });
    const id = await saveHttp(cookie, workspaceId, 'Protected', server.url, { [API_KEY_HEADER]: key });
    const before = await listingOf(cookie, workspaceId);
    const gone = await unreachableUrl();

    const rejectedBefore = server.rejected;
    const wrongHeader = await edit(cookie, id, { headers: { [API_KEY_HEADER]: secret('wrong-key') } });
    expect(wrongHeader.status, wrongHeader.text).toBe(400);
    expect(server.rejected).toBeGreaterThan(rejectedBefore);
    const noHeaders = await edit(cookie, id, { headers: {} });
    expect(noHeaders.status, noHeaders.text).toBe(400);
    const unreachable = await edit(cookie, id, { url: gone, name: 'Moved' });
    expect(unreachable.status, unreachable.text).toBe(400);
    expect(unreachable.text).not.toContain(server.url);
    expectNoSecret(wrongHeader, noHeaders, unreachable);

    expect(await listingOf(cookie, workspaceId)).toEqual(before);
    const rejectedBeforeQuery = server.rejected;
    const { response, result } = await searchThrough(cookie, workspaceId, 'still there');
    expect(response.body).toMatchObject({ error: null, connections_hit: ['Protected'] });
    expect(result).toMatchObject({ content: 'results for still there (header)', is_error: false });
    expect(server.rejected).toBe(rejectedBeforeQuery);
  });

  it('validates the body: 400 with details, nothing changed', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const server = await plainServer();
    const id = await saveHttp(cookie, workspaceId, 'Docs', server.url);
    const before = await listingOf(cookie, workspaceId);

    const cases: [unknown, RegExp][] = [
      [{}, /.*/],
      [{ name: '' }, /^name/],
      [{ url: 'not a url' }, /^url/],
      [{ headers: { Host: 'evil.example' } }, /^headers(\.Host)?$/],
      [{ headers: { 'with space': 'x' } }, /^headers/],
      [{ headers: 'x-api-key: value' }, /^headers/],
      [{ env: { ORDERS_API_TOKEN: secret('orders-token') } }, /^env/],
    ];
    for (const [body, path] of cases) {
      const response = await edit(cookie, id, body);
      expect(response.status, `${JSON.stringify(body)}: ${response.text}`).toBe(400);
      expect(response.body.error, JSON.stringify(body)).toEqual(expect.any(String));
      expect(pathsOf(response).length, JSON.stringify(body)).toBeGreaterThan(0);
      for (const found of pathsOf(response)) expect(found, JSON.stringify(body)).toMatch(path);
      expectNoSecret(response);
    }
    expect(await listingOf(cookie, workspaceId)).toEqual(before);
  });

  it('answers 409 for the name of another connection of the workspace', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const server = await plainServer();
    await saveHttp(cookie, workspaceId, 'Docs', server.url);
    const otherId = await saveHttp(cookie, workspaceId, 'Other', server.url);
    const before = await listingOf(cookie, workspaceId);

    const conflict = await edit(cookie, otherId, { name: 'Docs' });
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.body).toEqual({ error: expect.any(String) });
    expect(await listingOf(cookie, workspaceId)).toEqual(before);

    // Its own name is no conflict.
    const same = await edit(cookie, otherId, { name: 'Other' });
    expect(same.status, same.text).toBe(200);
    expect(same.body.connection).toMatchObject({ id: otherId, name: 'Other' });

    // Nor is another spelling of it; the claim stays, so the old spelling is still taken.
    const recased = await edit(cookie, otherId, { name: 'OTHER' });
    expect(recased.status, recased.text).toBe(200);
    expect(recased.body.connection).toMatchObject({ id: otherId, name: 'OTHER' });
    const again = await save(cookie, { workspace_id: workspaceId, name: 'other', transport: 'http', url: server.url });
    expect(again.status).toBe(409);
  });

  it("answers 403 to a member and 404 for another organisation's connection or an unknown id, changing nothing", async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const member = await t.addMember(cookie);
    const stranger = await t.signUp();
    const server = await plainServer();
    const id = await saveHttp(cookie, workspaceId, 'Docs', server.url);
    const before = await listingOf(cookie, workspaceId);
    const sessionsBefore = server.stats.sessions;

    const byMember = await edit(member.cookie, id, { name: 'Taken over' });
    expect(byMember.status, byMember.text).toBe(403);
    const foreign = await edit(stranger.cookie, id, { name: 'Taken over' });
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    const unknown = await edit(cookie, 'conn_no_such_connection', { name: 'Nothing' });
    expect(unknown.status, unknown.text).toBe(404);
    const anonymous = await t.request('PUT', `/api/connections/${id}`, { body: { name: 'Anonymous' } });
    expect(anonymous.status).toBe(401);

    expect(await listingOf(cookie, workspaceId)).toEqual(before);
    expect(server.stats.sessions).toBe(sessionsBefore);
  });
});

describe('connection health', () => {
  it('marks a connection the query cannot reach as error with a reason, and connected again once a query reaches it', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const key = secret('api-key');
    const server = await headerServer({ value: key });
    const id = await saveHttp(cookie, workspaceId, 'Flaky CRM', server.url, { [API_KEY_HEADER]: key });
    expect(await connectionOf(cookie, workspaceId, id)).toMatchObject({ status: 'connected', last_error: null });

    await server.close();
    const failed = await ask(cookie, workspaceId, 'anything');
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.error).toEqual(expect.stringContaining('Flaky CRM'));
    expectNoSecret(failed);

    for (const path of [`/api/workspaces/${workspaceId}/connections`, `/api/workspaces/${workspaceId}`]) {
      const listed = await t.request('GET', path, { cookie });
      expectNoSecret(listed);
      const connection = (listed.body.connections as ListedConnection[]).find((candidate) => candidate.id === id);
      expect(connection?.status, path).toBe('error');
      expect(connection?.last_error, path).toEqual(expect.any(String));
      expect(connection?.last_error?.length, path).toBeGreaterThan(0);
      expect(connection?.last_error, path).not.toMatch(/[\r\n]/);
    }
    // The dashboard shows the same health.
    const dashboard = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie });
    expect(dashboard.body.connections).toEqual([{ id, name: 'Flaky CRM', status: 'error', last_error: expect.any(String) }]);

    // The server is back, at a new address (another origin: the header is given again, as stored
    // credentials do not follow a url to another origin).
    const back = await headerServer({ value: key });
    const moved = await edit(cookie, id, { url: back.url, headers: { [API_KEY_HEADER]: key } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.connection).toMatchObject({
      id,
      url: back.url,
      headers: { [API_KEY_HEADER]: MASK },
      status: 'connected',
      last_error: null,
    });
    expectNoSecret(moved);

    const { response, result } = await searchThrough(cookie, workspaceId, 'recovered');
    expect(response.body).toMatchObject({ error: null, connections_hit: ['Flaky CRM'] });
    expect(result).toMatchObject({ content: 'results for recovered (header)', is_error: false });
    // The header given with the new address went there.
    expect(back.rejected).toBe(0);
    expect(await connectionOf(cookie, workspaceId, id)).toMatchObject({ status: 'connected', last_error: null });
    const dashboardAfter = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie });
    expect(dashboardAfter.body.connections).toEqual([{ id, name: 'Flaky CRM', status: 'connected', last_error: null }]);
  });

  it("records a server that starts refusing the stored header, in the service's words, never the server's", async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const oldKey = secret('old-key');
    const before = await headerServer({ value: oldKey });
    const rotated = await headerServer({ value: secret('rotated-key') });
    const proxy = await startSwitchableProxy(before.url);
    const id = await saveHttp(cookie, workspaceId, 'Rotated CRM', proxy.url, { [API_KEY_HEADER]: oldKey });

    // The server's credential was rotated behind the connection's back.
    proxy.switchTo(rotated.url);
    const failed = await ask(cookie, workspaceId, 'anything');
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.error).toEqual(expect.stringContaining('Rotated CRM'));
    expect(failed.text).not.toContain('missing or wrong');
    expect(rotated.rejected).toBeGreaterThan(0);

    const connection = await connectionOf(cookie, workspaceId, id);
    expect(['error', 'needs_authorization']).toContain(connection.status);
    expect(connection.last_error).toEqual(expect.any(String));
    expect(connection.last_error).not.toMatch(/[\r\n]/);
    expect(connection.last_error).not.toContain('missing or wrong');
  });
});

describe('secrets at rest', () => {
  it('stores no header or env value as is, and logs none', async () => {
    const { cookie, workspaceId } = await orgWithWorkspace();
    const key = secret('api-key');
    const server = await headerServer({ value: key });
    const id = await saveHttp(cookie, workspaceId, 'Protected', server.url, { [API_KEY_HEADER]: key, 'x-tenant': secret('tenant') });
    const stdio = await save(cookie, {
      workspace_id: workspaceId,
      name: 'Orders',
      ...ENV_SERVER,
      env: { ORDERS_API_TOKEN: secret('orders-token') },
    });
    expect(stdio.status, stdio.text).toBe(201);
    const renamed = await edit(cookie, id, { name: 'Protected again' });
    expect(renamed.status, renamed.text).toBe(200);

    const stored = JSON.stringify(await t.scanTable());
    // The connections are there (the scan is not empty of them)...
    expect(stored).toContain(server.url);
    expect(stored).toContain('Protected again');
    // ...but none of the values used anywhere in this file is, nor in the logs.
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    for (const value of secrets) expect(stored).not.toContain(value);
    const logged = t.logger.text();
    for (const value of secrets) expect(logged).not.toContain(value);
  });
});
