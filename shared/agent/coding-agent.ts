import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runQuery } from './query.js';
import { notifierOf, progressListener } from './gateway/progress.js';
import { serveStateless } from './gateway/transport.js';
import type { Principal } from '../auth/index.js';
import { ownerOf } from '../conversations/index.js';
import type { Deps } from '../deps.js';
import { newId } from '../platform/ids.js';
import { answerWithWaiting } from '../approvals/index.js';

/** The coding agent's own conversation id: its conversations start with its consumer id, so it cannot continue another's. */
function ownSessionId(deps: Deps, consumerId: string, sessionId: string | undefined): string {
  const own = `${consumerId}:`;
  if (sessionId === undefined) return `${own}${newId('conv', deps.clock.now())}`;
  return (sessionId.startsWith(own) ? sessionId : `${own}${sessionId}`).slice(0, 128);
}

/**
 * The workspace as an MCP server for a coding agent: one tool, `ask`, that runs the agent loop.
 * Stateless (a server per request): any function instance can answer, and the conversation
 * continues through the tool's `session_id`.
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
    async ({ question, session_id }, extra) => {
      const notify = notifierOf(extra);
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
        { query: question, session_id: ownSessionId(deps, consumerId, session_id) },
        notify ? progressListener(notify, () => performance.now()) : {},
      );
      const answer = answerWithWaiting(workspaceId, response.answer, response.pending_approval);
      const text = response.error ? `${answer ? `${answer}\n\n` : ''}Error: ${response.error}` : answer;
      return {
        content: [{ type: 'text' as const, text: text || '(no answer)' }],
        structuredContent: { ...response },
        isError: response.error !== null,
      };
    },
  );
  return server;
}

/**
 * One MCP request (streamable HTTP, stateless) of a coding agent's key: a call that asks for
 * progress is answered as an event stream, everything else as plain JSON (gateway/transport.ts).
 */
export function answerMcpRequest(
  deps: Deps,
  principal: Principal,
  workspaceId: string,
  consumerId: string,
  request: Request,
): Promise<Response> {
  return serveStateless(request, () => workspaceMcpServer(deps, principal, workspaceId, consumerId));
}
