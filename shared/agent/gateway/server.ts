import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../../platform/errors.js';
import { askAsPerson, ASK_TOOL } from './ask.js';
import { admitCall } from './admission.js';
import { callPersonTool, type PersonCall } from './call.js';
import { notifierOf } from './progress.js';
import { ASK } from './tools.js';

/*
 * The workspace's MCP server for a person (low-level `Server`: its tools are the workspace's,
 * read per request): `tools/list` and `tools/call`.
 */

/**
 * A refusal of the service's own (a limit, a budget, a closed conversation) is the call's error
 * result, which the client shows its person; a JSON-RPC error stays one (an unknown tool, the
 * elicitation of a grant), and anything else is the server's failure.
 */
function asToolError(error: unknown): CallToolResult {
  if (!(error instanceof DomainError)) throw error;
  return { content: [{ type: 'text', text: error.message }], isError: true };
}

export function personMcpServer(call: PersonCall): Server {
  const workspace = call.tools.context.workspace;
  const server = new Server({ name: `workspace ${workspace.name}`, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...call.tools.listed, ASK_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const notify = notifierOf(extra);
    try {
      // An `ask` is admitted as a query by `runQuery` (the organisation's places and rate); each call as one here.
      const { release, counting } = admitCall(call.deps, call.person, { organisation: name !== ASK });
      try {
        await counting;
        if (name === ASK) return await askAsPerson(call, args, notify);
        return await callPersonTool(call, name, args, { notify, signal: extra.signal });
      } finally {
        release();
      }
    } catch (error) {
      return asToolError(error);
    }
  });
  return server;
}
