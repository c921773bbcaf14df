import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import { runQuery, type QueryListener } from '../agent/query.js';
import { streamQuery, wantsEventStream } from '../http/sse.js';
import type { Principal } from '../auth/tokens.js';
import { ownerOf } from '../conversations/owners.js';
import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { ForbiddenError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { consumerAgentRouteDefinitions } from './route-definitions.js';

function keyOf(principal: Principal, type: 'messaging' | 'coding-agent') {
  if (principal.apiKey?.type !== type) throw new ForbiddenError(`this endpoint takes the Bearer key of a ${type} consumer`);
  return principal.apiKey;
}

/**
 * The workspace as an MCP server for a coding agent: one tool, `ask`, that runs the agent loop.
 * Stateless (a server per request, JSON responses): any function instance can answer, and the
 * conversation continues through the tool's `session_id`.
 */
function workspaceMcpServer(deps: Deps, principal: Principal, workspaceId: string, consumerId: string): McpServer {
  const server = new McpServer({ name: `workspace ${workspaceId}`, version: '1.0.0' });
  server.registerTool(
    'ask',
    {
      description:
        "Ask the workspace's assistant a question; it answers using the workspace's tools and knowledge. Pass session_id back to continue the conversation.",
      inputSchema: {
        question: z.string().min(1).max(32_000).describe('the question'),
        session_id: z
          .string()
          .regex(/^[A-Za-z0-9._:@-]{1,128}$/)
          .optional()
          .describe('the session_id of an earlier answer, to continue it'),
      },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async ({ question, session_id }) => {
      // The agent's conversations are its own (prefixed by its consumer id, like messaging
      // threads): it cannot continue a conversation of another consumer of the workspace.
      const own = `${consumerId}:`;
      const sessionId =
        session_id === undefined
          ? `${own}${newId('conv', deps.clock.now())}`
          : session_id.startsWith(own)
            ? session_id
            : `${own}${session_id}`;
      const { response } = await runQuery(
        deps,
        {
          orgId: principal.orgId,
          role: 'member',
          userName: principal.name,
          consumerType: 'coding-agent',
          channel: null,
          owner: ownerOf(principal),
        },
        workspaceId,
        { query: question, session_id: sessionId.slice(0, 128) },
      );
      const text = response.error ? `${response.answer ? `${response.answer}\n\n` : ''}Error: ${response.error}` : response.answer;
      return {
        content: [{ type: 'text' as const, text: text || '(no answer)' }],
        structuredContent: { ...response },
        isError: response.error !== null,
      };
    },
  );
  return server;
}

/** The consumer routes that run the agent: the messaging webhook and the coding agent's MCP endpoint. */
export function consumerAgentRoutes(deps: Deps) {
  const router = createRouter().openapi(consumerAgentRouteDefinitions.message.route, async (c) => {
    const key = keyOf(c.get('principal'), 'messaging');
    const { user, text, thread_id } = c.req.valid('json');
    const ask = (listener?: QueryListener) =>
      runQuery(
        deps,
        { orgId: orgIdOf(c), role: 'member', userName: user, consumerType: 'messaging', channel: null, owner: ownerOf(c.get('principal')) },
        key.workspaceId,
        // Each thread of this consumer is one conversation.
        { query: text, session_id: `${key.consumerId}:${thread_id}` },
        listener,
      );
    if (wantsEventStream(c)) return streamQuery(c, deps.logger, ask, ({ response }) => ({ ...response, thread_id }));
    const { response } = await ask();
    return c.json({ ...response, thread_id }, 200);
  });
  router.all('/workspaces/:id/mcp', async (c) => {
    const principal = c.get('principal');
    const key = keyOf(principal, 'coding-agent');
    const server = workspaceMcpServer(deps, principal, c.req.param('id'), key.consumerId);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  return router;
}
