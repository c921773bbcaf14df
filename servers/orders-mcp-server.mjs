// The order-lookup MCP server that ships with the service (stdio, MCP SDK): the one stdio server
// `npm start` allows (MCP_STDIO_SERVERS). Its orders are made up; it is there to try the agent
// loop offline, and as the shape of a stdio server an operator would list.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'orders', version: '1.0.0' });

server.registerTool(
  'lookup_order',
  {
    description: 'Look up an order by its id: its status and carrier',
    inputSchema: { order_id: z.string().describe('the order id, e.g. 42') },
    annotations: { readOnlyHint: true },
  },
  async ({ order_id }) => {
    const shipped = Number.parseInt(order_id, 10) % 2 === 0;
    const text = shipped ? `order ${order_id} has shipped with Parcelways; it arrives within 2 days` : `order ${order_id} is being packed`;
    return { content: [{ type: 'text', text }] };
  },
);

server.registerTool(
  'refund_order',
  {
    description: 'Refund an order in full',
    inputSchema: { order_id: z.string().describe('the order id') },
    annotations: { destructiveHint: true },
  },
  async ({ order_id }) => ({ content: [{ type: 'text', text: `order ${order_id} refunded` }] }),
);

await server.connect(new StdioServerTransport());
