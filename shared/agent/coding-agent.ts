import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import type { AgentEvent } from './events.js';
import { runQuery, type QueryListener } from './query.js';
import type { Principal } from '../auth/index.js';
import { ownerOf } from '../conversations/index.js';
import type { Deps } from '../deps.js';
import { newId } from '../platform/ids.js';
import { answerWithWaiting } from '../approvals/index.js';

/** Text progress is told at most this often; tool calls always. */
const TEXT_PROGRESS_MS = 500;

type Notify = (progress: number, message: string) => void;

/**
 * Progress notifications of one `ask` (MCP `notifications/progress`): the query started, each
 * tool call and its end, and the answer being written (throttled). `progress` only grows.
 */
function progressListener(notify: Notify, now: () => number): QueryListener {
  let step = 0;
  let written = 0;
  let toldAt = 0;
  const tell = (message: string) => notify(++step, message);
  const onEvent = (event: AgentEvent) => {
    if (event.type === 'tool_call') tell(`calling ${event.name}${event.connection ? ` (${event.connection})` : ''}`);
    else if (event.type === 'tool_result') tell(`${event.name} ${event.is_error ? 'failed' : 'answered'} in ${event.duration_ms} ms`);
    else if (event.type === 'approval_required') tell(`waiting for approval of ${event.tool}`);
    else {
      written += event.delta.length;
      if (now() - toldAt < TEXT_PROGRESS_MS) return;
      toldAt = now();
      tell(`writing the answer (${written} characters)`);
    }
  };
  return { onStart: () => tell('thinking'), onEvent };
}

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
      const progressToken = extra._meta?.progressToken;
      const notify: Notify = (progress, message) =>
        void extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken: progressToken as string | number, progress, message },
          })
          .catch(() => undefined);
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
        progressToken === undefined ? {} : progressListener(notify, () => performance.now()),
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

/** True when a JSON-RPC body (one message or a batch) asks for progress on a call. */
function asksForProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

/**
 * One MCP request (streamable HTTP, stateless). A call that asks for progress is answered as an
 * event stream, so the notifications can go before the result; the server is closed once that
 * stream ends. Everything else is answered as plain JSON.
 */
export async function answerMcpRequest(
  deps: Deps,
  principal: Principal,
  workspaceId: string,
  consumerId: string,
  request: Request,
): Promise<Response> {
  const parsedBody =
    request.method === 'POST'
      ? await request
          .clone()
          .json()
          .catch(() => undefined)
      : undefined;
  const streaming = asksForProgress(parsedBody);
  const server = workspaceMcpServer(deps, principal, workspaceId, consumerId);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !streaming });
  await server.connect(transport);
  let response: Response;
  try {
    response = await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  } catch (error) {
    await server.close();
    throw error;
  }
  if (!streaming || !response.body) {
    await server.close();
    return response;
  }
  const body = response.body.pipeThrough(new TransformStream({ flush: () => void server.close() }));
  return new Response(body, { status: response.status, headers: response.headers });
}
