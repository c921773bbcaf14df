import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createConnection, createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../shared/connections/mcp-hub.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { startGiantAnswerServer, type GiantTool } from '../support/giant-answer-server.js';
import { RecordingLogger } from '../support/logger.js';
import { standardTools, startHttpMcpServer } from '../support/mcp-servers.js';

/*
 * A tool server is not trusted: it may answer more than the process can hold. Every byte read
 * from it is counted while it is read, and the body is cut past MCP_MAX_RESPONSE_BYTES (here
 * 1 MiB): a JSON-RPC answer in total, an event stream per event. OAuth answers are cut past
 * 64 KiB. Each test checks that the server could not send everything: nothing was buffered whole.
 */

const LIMIT = 1024 * 1024;
const GIANT = 20 * 1024 * 1024;
/** A result the model gets whole, but for the 100 000-character cut (`MAX_RESULT_CHARS`). */
const CUT_RESULT = `${'x'.repeat(100_000)}\n[result cut at 100000 characters]`;
const NAMED_LIMIT = `the tool server's answer is over MCP_MAX_RESPONSE_BYTES (${LIMIT} bytes)`;

const TOOLS: GiantTool[] = [
  { name: 'giant_json', answer: 'json', textBytes: GIANT },
  { name: 'giant_event', answer: 'events', textBytes: GIANT },
  // Whole answers just under the limit (the JSON-RPC text around the answer is under 100 bytes).
  { name: 'fitting_json', answer: 'json', textBytes: LIMIT - 1024 },
  // Three events just under the limit each, more than the limit together: counted per event.
  { name: 'fitting_events', answer: 'events', textBytes: LIMIT - 1024, noticeBytes: [LIMIT - 1024, LIMIT - 1024] },
];

let t: TestContext;
let model: FakeModel;
let tools: Awaited<ReturnType<typeof startGiantAnswerServer>>;

beforeAll(async () => {
  model = await startFakeModel();
  tools = await startGiantAnswerServer(TOOLS);
  t = await createTestContext({
    env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MCP_MAX_RESPONSE_BYTES: String(LIMIT), MCP_TIMEOUT_MS: '20000' },
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all([model.stop(), tools.stop()]);
});
beforeEach(() => model.reset());

/** A workspace with the giant-answer server connected. */
async function workspace() {
  const admin = await t.signUp();
  const created = await t.createWorkspace(admin.cookie, { name: `Answers ${t.uniqueEmail('ws')}` });
  const saved = await t.connectMcp(admin.cookie, created.id, { name: 'giants', url: tools.url });
  expect(saved).toMatchObject({ status: 'saved', tools: TOOLS.length });
  return { cookie: admin.cookie, workspaceId: created.id };
}

/** A query that makes the model call `tool`; answers the query and the tool result the model got back. */
async function call(tool: string) {
  const { cookie, workspaceId } = await workspace();
  model.reply(toolUseReply([{ name: tool }]), textReply('done'));
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: `call ${tool}` } });
  expect(response.status, response.text).toBe(200);
  const results = (model.requests[1]?.body.messages.at(-1)?.content ?? []) as { content: string; is_error?: boolean }[];
  return { response, result: results[0] };
}

describe("a tool server's answer over MCP_MAX_RESPONSE_BYTES", () => {
  it('(a JSON-RPC answer) fails the call with an error naming the limit, and the server cannot send the rest', async () => {
    const { response, result } = await call('giant_json');
    expect(response.body).toMatchObject({ answer: 'done', error: null });
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining(NAMED_LIMIT) });
    const write = await tools.lastWrite('giant_json');
    // The client stopped reading and let the connection go: most of the 20 MB never left the server.
    expect(write).toMatchObject({ done: true, complete: false });
    expect(write?.written).toBeLessThan(GIANT / 2);
  });

  it('(one event of an event stream) fails the call with an error naming the limit, and the server cannot send the rest', async () => {
    const { response, result } = await call('giant_event');
    expect(response.body).toMatchObject({ answer: 'done', error: null });
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining(NAMED_LIMIT) });
    const write = await tools.lastWrite('giant_event');
    expect(write).toMatchObject({ done: true, complete: false });
    expect(write?.written).toBeLessThan(GIANT / 2);
  });

  it('is the only answer refused: one just under the limit, and an event stream of events each under it, go to the model', async () => {
    const json = await call('fitting_json');
    // Read whole, then cut to 100 000 characters for the model as every result is.
    expect(json.result).toMatchObject({ is_error: false, content: CUT_RESULT });
    expect(await tools.lastWrite('fitting_json')).toMatchObject({ complete: true });

    const events = await call('fitting_events');
    expect(events.result).toMatchObject({ is_error: false, content: CUT_RESULT });
    const write = await tools.lastWrite('fitting_events');
    expect(write).toMatchObject({ complete: true });
    expect(write?.written).toBeGreaterThan(2 * LIMIT);
  });
});

describe("a tool server's tools/list over MCP_MAX_RESPONSE_BYTES", () => {
  it('fails the connection test with an error naming the limit, and the server cannot send the rest', async () => {
    const wordy = await startGiantAnswerServer([], { listBytes: GIANT });
    try {
      const admin = await t.signUp();
      const tested = await t.request('POST', '/api/connectors/mcp/test', {
        cookie: admin.cookie,
        body: { transport: 'http', url: wordy.url },
      });
      expect(tested.status, tested.text).toBe(200);
      expect(tested.body).toMatchObject({ ok: false, error: expect.stringContaining(NAMED_LIMIT) });
      const write = await wordy.lastWrite('tools/list');
      expect(write).toMatchObject({ done: true, complete: false });
      expect(write?.written).toBeLessThan(GIANT / 2);
    } finally {
      await wordy.stop();
    }
  });
});

/**
 * An OAuth server whose authorization server metadata, or registration answer, is `bytes` long
 * (a JSON document with a long `padding`, written in 16 KiB chunks as it is read). The protected
 * resource metadata is a 404, so the SDK falls back to the MCP server's origin as the
 * authorization server. Records whether each giant answer was written whole.
 */
async function startGiantOAuthServer(giant: 'metadata' | 'registration', bytes: number) {
  const writes: { path: string; complete: boolean; done: boolean }[] = [];
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const origin = `http://${req.headers.host}`;
    const path = new URL(req.url ?? '/', origin).pathname;
    const metadata = {
      issuer: `${origin}/`,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    };
    const registration = { client_id: 'giant', redirect_uris: ['http://localhost/callback'] };
    const document = path === '/.well-known/oauth-authorization-server' ? metadata : path === '/register' ? registration : undefined;
    if (!document) {
      res.writeHead(404).end();
      for await (const _ of req);
      return;
    }
    for await (const _ of req);
    const isGiant = (giant === 'metadata') === (document === metadata);
    res.writeHead(path === '/register' ? 201 : 200, { 'content-type': 'application/json' });
    if (!isGiant) {
      res.end(JSON.stringify(document));
      return;
    }
    const write = { path, complete: false, done: false };
    writes.push(write);
    res.on('close', () => {
      write.done = true;
    });
    res.write(`${JSON.stringify(document).slice(0, -1)},"padding":"`);
    const chunk = 'p'.repeat(16 * 1024);
    for (let left = bytes; left > 0 && !res.destroyed; left -= chunk.length) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
    if (res.destroyed) return;
    res.end('"}', () => {
      write.complete = true;
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    writes,
    stop: () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

describe('an OAuth answer over 64 KiB', () => {
  for (const giant of ['metadata', 'registration'] as const) {
    it(`(${giant}) fails starting the grant with a 400 naming the limit, and the server cannot send the rest`, async () => {
      // 64 MiB: far more than the socket buffers hold, so a client that stops reading leaves most of it unsent.
      const server = await startGiantOAuthServer(giant, 64 * 1024 * 1024);
      try {
        const admin = await t.signUp();
        const created = await t.createWorkspace(admin.cookie, { name: `OAuth ${giant}` });
        const saved = await t.request('POST', '/api/connectors/mcp', {
          cookie: admin.cookie,
          body: { workspace_id: created.id, name: 'Giant OAuth', transport: 'http', url: server.url, auth: 'oauth' },
        });
        expect(saved.status, saved.text).toBe(400);
        expect(saved.text).toContain("the OAuth server's answer is over 65536 bytes");
        await expect.poll(() => server.writes[0]?.done, { timeout: 5_000 }).toBe(true);
        expect(server.writes).toEqual([expect.objectContaining({ complete: false })]);
      } finally {
        await server.stop();
      }
    });
  }
});

describe('connections per tool-server origin', () => {
  /** A tool server that counts its open connections and the most it had at once. */
  async function countingServer() {
    const server = await startHttpMcpServer({ tools: standardTools({ hangMs: 200 }) });
    // A TCP proxy in front of the server, so its sockets can be counted without touching the server.
    let open = 0;
    let most = 0;
    const proxy = createTcpServer((socket) => {
      open += 1;
      most = Math.max(most, open);
      const upstream = createConnection(server.port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      const end = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.once('close', end);
      upstream.once('close', end);
      socket.once('close', () => {
        open -= 1;
      });
      socket.on('error', () => undefined);
      upstream.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`,
      most: () => most,
      async stop() {
        await server.stop();
        await new Promise<void>((resolve) => proxy.close(() => resolve()));
      },
    };
  }

  it('are pooled with a cap: parallel calls wait for a connection, and sessions whose event streams hold theirs still get calls through', async () => {
    const server = await countingServer();
    const hub = new McpHub({
      allowPrivateUrls: true,
      stdioServers: {},
      timeoutMs: 10_000,
      maxConnectionsPerOrigin: 2,
      logger: new RecordingLogger(),
    });
    try {
      const spec = { transport: 'http' as const, url: server.url };
      // Four sessions, each with its event stream open (a GET that lasts as long as the session).
      for (const id of ['c1', 'c2', 'c3', 'c4']) await hub.listTools(id, spec);
      // Eight calls at once, each taking 200 ms on the server.
      const calls = ['c1', 'c2', 'c3', 'c4', 'c1', 'c2', 'c3', 'c4'].map((id) => hub.callTool(id, spec, 'slow_tool', {}));
      expect(await Promise.all(calls)).toEqual(Array(8).fill({ text: 'finally', isError: false }));
      // Two for requests, two for event streams.
      expect(server.most()).toBeLessThanOrEqual(4);
    } finally {
      await hub.closeAll();
      await server.stop();
    }
  });
});
