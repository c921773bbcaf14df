import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { openSession, standardTools, type TestTool } from './mcp-servers.js';

function buildServer(tools: TestTool[]): McpServer {
  const server = new McpServer({ name: 'header-test-server', version: '1.0.0' });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: { query: z.string().optional(), title: z.string().optional(), text: z.string().optional() },
        annotations: tool.annotations,
      },
      async (args) => ({ content: [{ type: 'text', text: await tool.run(args) }] }),
    );
  }
  return server;
}

/**
 * A real MCP server (MCP SDK, streamable HTTP, one session per client) on 127.0.0.1 that wants a
 * static credential in a header (an API key, or `Authorization: Bearer <key>`): every request without
 * `header: value` is answered 401 (with a non-Bearer `WWW-Authenticate`, so no OAuth is attempted)
 * and counted in `rejected`.
 */
export async function startHeaderMcpServer(options: { header: string; value: string; tools?: TestTool[] }) {
  const tools = options.tools ?? standardTools({ tag: 'header' });
  const headerName = options.header.toLowerCase();
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let rejected = 0;

  const app = createMcpExpressApp();
  app.all('/mcp', async (req, res) => {
    if (req.headers[headerName] !== options.value) {
      rejected += 1;
      res
        .status(401)
        .set('WWW-Authenticate', `ApiKey header="${options.header}"`)
        .json({ jsonrpc: '2.0', error: { code: -32001, message: `missing or wrong ${options.header} header` }, id: null });
      return;
    }
    const sessionId = req.header('mcp-session-id');
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (req.method !== 'POST' || (req.body as { method?: string } | undefined)?.method !== 'initialize') {
        res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
        return;
      }
      transport = await openSession(buildServer(tools), transports, (created) => created);
    }
    await transport.handleRequest(req, res, req.body);
  });

  const http = createServer(app);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    /** Requests answered 401 so far. */
    get rejected() {
      return rejected;
    },
    async close() {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      transports.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
