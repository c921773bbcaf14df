import { randomBytes } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/*
 * A workspace's MCP endpoint is stateless (streamable HTTP, a server per request): any process
 * answers, nothing is kept between requests. A request that asks for progress is answered as an
 * event stream, so the notifications can go before the result; everything else as plain JSON.
 */

type JsonRpcMessage = { method?: unknown; params?: { _meta?: { progressToken?: unknown }; capabilities?: unknown } } | null;

const messagesOf = (body: unknown): JsonRpcMessage[] => (Array.isArray(body) ? body : [body]) as JsonRpcMessage[];

/** True when a JSON-RPC body (one message or a batch) asks for progress on a call. */
function asksForProgress(body: unknown): boolean {
  return messagesOf(body).some((message) => message?.params?._meta?.progressToken !== undefined);
}

/**
 * What a stateless server knows of its client beyond the request: what the client declared at
 * `initialize`. The gateway hands it back as the session id it answers `initialize` with (not a
 * session: nothing is stored, any process reads it), and the client sends it with every request.
 * Only what the client said of itself travels there, so a client that forges it only changes how
 * it is itself answered.
 */
export interface ClientTraits {
  /** The client takes URL-mode elicitations (2025-11-25: `capabilities.elicitation.url`). */
  urlElicitation: boolean;
}

const SESSION_PREFIX = 'gw1';

function traitsSessionId(body: unknown): string | undefined {
  const initialize = messagesOf(body).find((message) => message?.method === 'initialize');
  if (!initialize) return undefined;
  const capabilities = initialize.params?.capabilities as { elicitation?: { url?: unknown } } | undefined;
  const flags = capabilities?.elicitation?.url !== undefined ? 'u' : '-';
  return `${SESSION_PREFIX}.${flags}.${randomBytes(12).toString('base64url')}`;
}

function traitsOf(request: Request): ClientTraits {
  const [prefix, flags] = (request.headers.get('mcp-session-id') ?? '').split('.');
  return { urlElicitation: prefix === SESSION_PREFIX && (flags ?? '').includes('u') };
}

export interface ServeOptions {
  /** Answers `initialize` with a session id that carries the client's traits (`ClientTraits`). */
  carryTraits?: boolean;
}

/**
 * One MCP request (streamable HTTP, stateless): `build` makes the server for it. A call that asks
 * for progress is answered as an event stream, the server closed once that stream ends.
 */
export async function serveStateless(
  request: Request,
  build: (traits: ClientTraits) => McpServer | Server,
  options: ServeOptions = {},
): Promise<Response> {
  const parsedBody =
    request.method === 'POST'
      ? await request
          .clone()
          .json()
          .catch(() => undefined)
      : undefined;
  const streaming = asksForProgress(parsedBody);
  const server = build(traitsOf(request));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !streaming });
  await server.connect(transport);
  let response: Response;
  try {
    response = await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  } catch (error) {
    await server.close();
    throw error;
  }
  const sessionId = options.carryTraits ? traitsSessionId(parsedBody) : undefined;
  if (sessionId && response.ok) response.headers.set('mcp-session-id', sessionId);
  if (!streaming || !response.body) {
    await server.close();
    return response;
  }
  const body = response.body.pipeThrough(new TransformStream({ flush: () => void server.close() }));
  return new Response(body, { status: response.status, headers: response.headers });
}
