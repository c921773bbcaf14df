// A ticket-tracker MCP server that ships with the service (streamable HTTP, MCP SDK), for the
// README's first session: like most servers a company runs, it wants a key. It answers 401 unless
// a request carries `Authorization: Bearer <TICKETS_API_KEY>`. Its tickets are made up.
//   TICKETS_API_KEY=<key> node servers/tickets-mcp-server.mjs   (PORT, default 3100; 127.0.0.1)
import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const key = process.env.TICKETS_API_KEY;
if (!key) {
  console.error('set TICKETS_API_KEY: the key clients must send as "Authorization: Bearer <key>"');
  process.exit(1);
}
const expected = Buffer.from(`Bearer ${key}`);
const authorized = (header) => {
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

const tickets = [
  { id: 'T-101', title: 'Refund for order 42 not received', status: 'open' },
  { id: 'T-102', title: 'Parcel damaged in transit', status: 'open' },
  { id: 'T-103', title: 'Change of delivery address', status: 'closed' },
];

function ticketServer() {
  const server = new McpServer({ name: 'tickets', version: '1.0.0' });
  server.registerTool(
    'list_tickets',
    {
      description: 'List support tickets, optionally only those with a status (open or closed)',
      inputSchema: { status: z.enum(['open', 'closed']).optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ status }) => {
      const found = tickets.filter((ticket) => !status || ticket.status === status);
      return { content: [{ type: 'text', text: found.map((t) => `${t.id} [${t.status}] ${t.title}`).join('\n') || 'no tickets' }] };
    },
  );
  server.registerTool(
    'close_ticket',
    {
      description: 'Close a support ticket',
      inputSchema: { id: z.string().describe('the ticket id, e.g. T-101') },
      annotations: { destructiveHint: true },
    },
    async ({ id }) => {
      const ticket = tickets.find((candidate) => candidate.id === id);
      if (!ticket) return { content: [{ type: 'text', text: `no ticket ${id}` }], isError: true };
      ticket.status = 'closed';
      return { content: [{ type: 'text', text: `${id} closed` }] };
    },
  );
  return server;
}

const http = createServer(async (request, response) => {
  if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') {
    response.writeHead(404).end();
    return;
  }
  if (!authorized(request.headers.authorization)) {
    response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'a valid API key is required' }));
    return;
  }
  // Stateless: a server and transport per request.
  const server = ticketServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response);
});

const port = Number(process.env.PORT ?? 3100);
http.listen(port, '127.0.0.1', () => {
  const address = http.address();
  console.log(`tickets MCP server on http://127.0.0.1:${address.port}/mcp`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => http.close(() => process.exit(0)));
