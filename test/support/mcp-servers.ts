import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export interface TestTool {
  name: string;
  description?: string;
  annotations?: ToolAnnotations;
  /** Its parameters (default: optional `query`, `title` and `text`, undescribed). */
  inputSchema?: z.ZodRawShape;
  run(args: Record<string, unknown>): Promise<string> | string;
}

/** Read tools, write tools, one without annotations, one that hangs and one that fails. */
export function standardTools(options: { hangMs?: number; tag?: string } = {}): TestTool[] {
  const tag = options.tag ? ` (${options.tag})` : '';
  return [
    {
      name: 'search_docs',
      description: 'Search the documentation',
      annotations: { readOnlyHint: true },
      run: (args) => `results for ${String(args.query ?? '')}${tag}`,
    },
    {
      name: 'create_ticket',
      description: 'Open a support ticket',
      annotations: { readOnlyHint: false, destructiveHint: true },
      run: (args) => `ticket created: ${String(args.title ?? '')}${tag}`,
    },
    { name: 'plain_tool', description: 'A tool without annotations', run: () => `plain${tag}` },
    {
      name: 'slow_tool',
      description: 'Takes its time',
      annotations: { readOnlyHint: true },
      run: () => new Promise((resolve) => setTimeout(() => resolve('finally'), options.hangMs ?? 60_000)),
    },
    {
      name: 'fail_tool',
      description: 'Always fails',
      annotations: { readOnlyHint: true },
      run: () => {
        throw new Error('the tool broke');
      },
    },
  ];
}

function buildServer(name: string, tools: TestTool[]): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.inputSchema ?? { query: z.string().optional(), title: z.string().optional(), text: z.string().optional() },
        annotations: tool.annotations,
      },
      async (args) => ({ content: [{ type: 'text', text: await tool.run(args as Record<string, unknown>) }] }),
    );
  }
  return server;
}

/**
 * A streamable HTTP transport for a new session (its `initialize` request), connected to `server`
 * and kept in `sessions` (as `entryOf` makes the entry) until it closes.
 */
export async function openSession<T>(
  server: McpServer,
  sessions: Map<string, T>,
  entryOf: (transport: StreamableHTTPServerTransport) => T,
): Promise<StreamableHTTPServerTransport> {
  const created = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (id) => {
      sessions.set(id, entryOf(created));
    },
  });
  created.onclose = () => {
    if (created.sessionId) sessions.delete(created.sessionId);
  };
  await server.connect(created);
  return created;
}

export interface ServerStats {
  sessions: number;
  toolLists: number;
  toolCalls: number;
  /** The Authorization header of every request that carried one (to see where a token went). */
  authorizations: string[];
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}

function countMethods(body: unknown, stats: ServerStats) {
  for (const message of Array.isArray(body) ? body : [body]) {
    const method = (message as { method?: string } | undefined)?.method;
    if (method === 'initialize') stats.sessions += 1;
    if (method === 'tools/list') stats.toolLists += 1;
    if (method === 'tools/call') stats.toolCalls += 1;
  }
}

/**
 * A real MCP server (MCP SDK, streamable HTTP, one session per client) on 127.0.0.1. Counts the
 * sessions, tools/list and tools/call it serves. `redirectTo` makes it answer every request with a
 * 307 to that URL instead.
 */
export async function startHttpMcpServer(options: { name?: string; tools?: TestTool[]; redirectTo?: string } = {}) {
  const name = options.name ?? 'test-server';
  const tools = options.tools ?? standardTools();
  const stats: ServerStats = { sessions: 0, toolLists: 0, toolCalls: 0, authorizations: [] };
  const transports = new Map<string, StreamableHTTPServerTransport>();

  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.authorization) stats.authorizations.push(req.headers.authorization);
    if (options.redirectTo) {
      res.writeHead(307, { location: options.redirectTo }).end();
      return;
    }
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    countMethods(body, stats);
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (req.method !== 'POST' || (body as { method?: string } | undefined)?.method !== 'initialize') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      transport = await openSession(buildServer(name, tools), transports, (created) => created);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    stats,
    /** Stops the server, cutting live connections (a server that dies). */
    async stop() {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      transports.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * The tickets server of the approval tests (`tickets-server`): `create_ticket`, a write, answers
 * `ticket created: <title>` and keeps the arguments of every call that reached it in `created`;
 * with `search`, also `search_tickets`, a read.
 */
export async function startTicketsServer(options: { search?: boolean } = {}) {
  const created: Record<string, unknown>[] = [];
  const search: TestTool = {
    name: 'search_tickets',
    annotations: { readOnlyHint: true },
    run: (args) => `found tickets about ${String(args.query)}`,
  };
  const server = await startHttpMcpServer({
    name: 'tickets-server',
    tools: [
      ...(options.search ? [search] : []),
      {
        name: 'create_ticket',
        annotations: { readOnlyHint: false, destructiveHint: true },
        run: (args) => {
          created.push(args);
          return `ticket created: ${String(args.title)}`;
        },
      },
    ],
  });
  return { ...server, created };
}

export type TicketsServer = Awaited<ReturnType<typeof startTicketsServer>>;

/** A server that speaks only the older HTTP+SSE transport (GET /sse, POST /messages). */
export async function startSseMcpServer(options: { name?: string; tools?: TestTool[] } = {}) {
  const name = options.name ?? 'sse-server';
  const tools = options.tools ?? standardTools({ tag: 'sse' });
  const transports = new Map<string, SSEServerTransport>();
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => transports.delete(transport.sessionId));
      await buildServer(name, tools).connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) {
        res.writeHead(404).end('unknown session');
        return;
      }
      await transport.handlePostMessage(req, res, await readBody(req));
      return;
    }
    res.writeHead(405, { allow: 'GET' }).end('method not allowed');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    async stop() {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Arguments that start the stdio fixture server with the `node` command. */
export const STDIO_SERVER_ARGS = ['test/fixtures/stdio-mcp-server.mjs'];

/**
 * A stateless MCP server over streamable HTTP (JSON answers) whose `Server` the test builds with
 * the SDK's low-level API, so nothing checks what it declares (schemas of any shape).
 */
export async function startLowLevelMcpServer(build: () => Server) {
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await build().connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    stop: () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
