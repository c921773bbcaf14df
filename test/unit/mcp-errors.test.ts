import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpConnectionError, McpHub } from '../../shared/connections/mcp-hub.js';
import { mcpFailureReason } from '../../shared/connections/mcp-errors.js';
import { UnresolvableHostError, UrlRefusedError, createGuardedFetch } from '../../shared/platform/url-policy.js';
import { RecordingLogger } from '../support/logger.js';

const SECRET = 'SECRET-LOOPBACK-PAGE';
const PAGE = `<html><body><h1>${SECRET}</h1>internal admin console</body></html>`;

/** What a refused or failed call of the real SDK throws. */
async function failureOf(attempt: () => Promise<unknown>): Promise<unknown> {
  return attempt().then(
    (value) => {
      throw new Error(`expected a failure, got ${String(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('mcpFailureReason with the errors the SDK really throws', () => {
  const servers: Server[] = [];
  const origins: Record<'notFound' | 'failing' | 'html' | 'ssePostFails', string> = {
    notFound: '',
    failing: '',
    html: '',
    ssePostFails: '',
  };
  let closedPort = 0;
  const guarded = createGuardedFetch(true);

  async function listen(server: Server): Promise<string> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    origins.notFound = await listen(
      createServer((req, res) => void req.resume().on('end', () => res.writeHead(404, { 'content-type': 'text/html' }).end(PAGE))),
    );
    origins.failing = await listen(
      createServer((req, res) => void req.resume().on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end(PAGE))),
    );
    origins.html = await listen(
      createServer((req, res) => void req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE))),
    );
    // An HTTP+SSE server whose event stream works but whose message endpoint answers 404 with a page.
    origins.ssePostFails = await listen(
      createServer((req, res) => {
        req.resume();
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          res.write('event: endpoint\ndata: /messages\n\n');
          return;
        }
        req.on('end', () => res.writeHead(404, { 'content-type': 'text/html' }).end(PAGE));
      }),
    );
    const gone = createServer();
    const goneOrigin = await listen(gone);
    closedPort = Number(new URL(goneOrigin).port);
    servers.pop();
    await new Promise<void>((resolve) => gone.close(() => resolve()));
  });
  afterAll(async () => {
    await guarded.close();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  async function connectFailure(transport: Transport): Promise<unknown> {
    const client = new Client({ name: 'mcp-errors-test', version: '1.0.0' }, { capabilities: {} });
    try {
      return await failureOf(() => client.connect(transport));
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  it.each([
    ['notFound', 404],
    ['failing', 500],
  ] as const)('names the status of a streamable HTTP failure (%s), not the page the SDK quotes', async (origin, status) => {
    const error = await connectFailure(new StreamableHTTPClientTransport(new URL(`${origins[origin]}/mcp`), { fetch: guarded.fetch }));
    expect(error).toBeInstanceOf(StreamableHTTPError);
    // The SDK's own message carries the page: the reason the service used to pass on.
    expect((error as Error).message).toContain(SECRET);
    expect(mcpFailureReason(error)).toBe(`the server answered HTTP ${status}`);
  });

  it('says a 200 page is not MCP without quoting its content type or body', async () => {
    const error = await connectFailure(new StreamableHTTPClientTransport(new URL(`${origins.html}/mcp`), { fetch: guarded.fetch }));
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect(mcpFailureReason(error)).toBe('the server answered with a content type that is not MCP');
  });

  it('names the status of the SSE transport failing to open its stream', async () => {
    const error = await connectFailure(new SSEClientTransport(new URL(`${origins.notFound}/sse`), { fetch: guarded.fetch }));
    expect(error).toBeInstanceOf(SseError);
    expect(mcpFailureReason(error)).toBe('the server answered HTTP 404');
  });

  it("names the status of the SSE transport's failed POST, whose message quotes the page", async () => {
    const error = await connectFailure(new SSEClientTransport(new URL(`${origins.ssePostFails}/sse`), { fetch: guarded.fetch }));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^Error POSTing to endpoint \(HTTP 404\): /);
    expect((error as Error).message).toContain(SECRET);
    expect(mcpFailureReason(error)).toBe('the server answered HTTP 404');
  });

  it('names a refused connection by its code, from the cause of fetch failed', async () => {
    const error = await failureOf(() => guarded.fetch(`http://127.0.0.1:${closedPort}/mcp`));
    expect(error).toBeInstanceOf(TypeError);
    expect(mcpFailureReason(error)).toBe('connection refused (ECONNREFUSED)');
  });

  it("gives the policy's own refusal, which names no server text", async () => {
    const strict = createGuardedFetch(false);
    try {
      const error = await failureOf(() => strict.fetch(`${origins.notFound}/mcp`));
      expect(error).toBeInstanceOf(UrlRefusedError);
      expect(mcpFailureReason(error)).toMatch(/^refused 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address/);
      expect(mcpFailureReason(new TypeError('fetch failed', { cause: error }))).toBe((error as Error).message);
    } finally {
      await strict.close();
    }
  });
});

describe('mcpFailureReason', () => {
  it.each([
    [new StreamableHTTPError(404, `Error POSTing to endpoint: ${PAGE}`), 'the server answered HTTP 404'],
    [
      new StreamableHTTPError(307, 'Error POSTing to endpoint: Redirect to http://10.0.0.1/secret not followed'),
      'the server answered HTTP 307 (a redirect, not followed)',
    ],
    [
      new StreamableHTTPError(-1, `Unexpected content type: text/html; ${SECRET}`),
      'the server answered with a content type that is not MCP',
    ],
    [new Error(`Error POSTing to endpoint (HTTP 502): ${PAGE}`), 'the server answered HTTP 502'],
    [new Error(`Failed to connect: ${PAGE} Error POSTing to endpoint (HTTP 200): x`), 'the server did not complete the MCP handshake'],
  ])('names the status only: %s', (error, reason) => {
    expect(mcpFailureReason(error)).toBe(reason);
  });

  it.each([
    [new McpError(ErrorCode.MethodNotFound, `Method not found: ${SECRET}`), 'MCP error -32601 (method not found)'],
    [new McpError(ErrorCode.InternalError, PAGE), 'MCP error -32603 (internal error)'],
    [new McpError(4242, PAGE, { page: PAGE }), 'MCP error 4242'],
    [McpError.fromError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 1500 }), 'timed out after 1500 ms'],
    [new McpError(ErrorCode.RequestTimeout, 'Request timed out'), 'timed out (MCP error -32001)'],
    [new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), 'MCP error -32000 (connection closed)'],
  ])('names an MCP error by its code, without the text the server sent: %s', (error, reason) => {
    expect(mcpFailureReason(error)).toBe(reason);
    expect(mcpFailureReason(error)).not.toContain(SECRET);
  });

  it('says a stdio server whose connection closed exited', () => {
    expect(mcpFailureReason(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), { transport: 'stdio' })).toBe(
      'the server process exited',
    );
  });

  function networkError(code: string): TypeError {
    return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code} ${SECRET}`), { code }) });
  }

  it.each([
    ['ECONNREFUSED', 'connection refused (ECONNREFUSED)'],
    ['ENOTFOUND', 'host not found (ENOTFOUND)'],
    ['ECONNRESET', 'connection reset (ECONNRESET)'],
    ['ETIMEDOUT', 'no answer to the connection attempt (ETIMEDOUT)'],
    ['EHOSTUNREACH', 'host unreachable (EHOSTUNREACH)'],
    ['UND_ERR_SOCKET', 'the server closed the connection (UND_ERR_SOCKET)'],
    ['UND_ERR_CONNECT_TIMEOUT', 'connecting timed out (UND_ERR_CONNECT_TIMEOUT)'],
    ['CERT_HAS_EXPIRED', 'TLS certificate rejected (CERT_HAS_EXPIRED)'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'TLS certificate rejected (DEPTH_ZERO_SELF_SIGNED_CERT)'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'TLS certificate rejected (UNABLE_TO_VERIFY_LEAF_SIGNATURE)'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'TLS certificate rejected (ERR_TLS_CERT_ALTNAME_INVALID)'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER)'],
    ['EADDRNOTAVAIL', 'network error (EADDRNOTAVAIL)'],
  ])('names a network failure by its code: %s', (code, reason) => {
    expect(mcpFailureReason(networkError(code))).toBe(reason);
  });

  it('finds the code deep in the cause chain and in an AggregateError', () => {
    const deep = new Error('outer', { cause: new Error('middle', { cause: networkError('ECONNRESET') }) });
    expect(mcpFailureReason(deep)).toBe('connection reset (ECONNRESET)');
    const happyEyeballs = new TypeError('fetch failed', {
      cause: new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:80'), { code: 'ECONNREFUSED' })], ''),
    });
    expect(mcpFailureReason(happyEyeballs)).toBe('connection refused (ECONNREFUSED)');
  });

  it('ignores a code that is free text or not a system code', () => {
    expect(mcpFailureReason(Object.assign(new Error(PAGE), { code: `ECONNREFUSED ${SECRET}` }))).toBe(
      'the server did not complete the MCP handshake',
    );
    expect(mcpFailureReason(Object.assign(new Error(PAGE), { code: 'ERR_INVALID_ARG_TYPE' }))).toBe(
      'the server did not complete the MCP handshake',
    );
  });

  it('survives a cause cycle', () => {
    const first = new Error(PAGE);
    const second = new Error(PAGE, { cause: first });
    first.cause = second;
    expect(mcpFailureReason(first)).toBe('the server did not complete the MCP handshake');
  });

  it('passes on the policy errors, which are ours, as one line of at most 500 characters', () => {
    const refused = new UrlRefusedError('refused 127.0.0.1:80: 127.0.0.1 is a loopback address');
    expect(mcpFailureReason(new TypeError('fetch failed', { cause: refused }))).toBe(refused.message);
    const unresolvable = new UnresolvableHostError('cannot resolve nowhere.invalid: getaddrinfo ENOTFOUND nowhere.invalid');
    expect(mcpFailureReason(unresolvable)).toBe(unresolvable.message);
    const long = mcpFailureReason(new UrlRefusedError(`refused\n${'x'.repeat(900)}`));
    expect(long).toHaveLength(500);
    expect(long).not.toContain('\n');
  });

  it('falls back to a generic reason for anything else, never its text', () => {
    for (const error of [new Error(PAGE), PAGE, undefined, { message: PAGE }, new TypeError('fetch failed', { cause: PAGE })]) {
      expect(mcpFailureReason(error)).toBe('the server did not complete the MCP handshake');
    }
  });
});

describe('McpHub.reasonOf', () => {
  let server: Server;
  let url: string;
  const hub = new McpHub({ allowPrivateUrls: true, stdioServers: {}, timeoutMs: 5_000, logger: new RecordingLogger() });

  beforeAll(async () => {
    server = createServer((req, res) => void req.resume().on('end', () => res.writeHead(404, { 'content-type': 'text/html' }).end(PAGE)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await hub.closeAll();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives probes and sessions (the test endpoint, saves, query errors) the status, not the page', async () => {
    const probed = await failureOf(() => hub.probe({ transport: 'http', url }));
    expect(probed).toBeInstanceOf(McpConnectionError);
    expect((probed as Error).message).toBe('the server answered HTTP 404');
    const session = await failureOf(() => hub.session('conn_page', { transport: 'http', url }));
    expect(session).toBeInstanceOf(McpConnectionError);
    expect(hub.reasonOf(session)).toBe('the server answered HTTP 404');
  });

  it('tells the model a connection failure of a tool call without the page', async () => {
    const outcome = await hub.callTool('conn_page_tool', { transport: 'http', url }, 'lookup', {});
    expect(outcome).toEqual({ text: 'tool lookup failed: the server answered HTTP 404', isError: true });
  });
});
