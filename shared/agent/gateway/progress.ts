import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AgentEvent } from '../events.js';
import type { QueryListener } from '../query.js';

/*
 * MCP progress (`notifications/progress`) of what a workspace's MCP server does for its caller: an
 * `ask` as the agent runs it, a tool call waiting for its approval. Sent only when the request
 * carried a `progressToken`; a notification that cannot be sent is dropped.
 */

/** Text progress is told at most this often; tool calls always. */
const TEXT_PROGRESS_MS = 500;

export type Notify = (progress: number, message: string) => void;

/** What a request handler of the SDK is given to tell its client things. */
type RequestExtra = Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, '_meta' | 'sendNotification'>;

/** The progress a request asked for (its `progressToken`), or undefined when it asked for none. */
export function notifierOf(extra: RequestExtra): Notify | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return (progress, message) =>
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(() => undefined);
}

/**
 * Progress notifications of one `ask`: the query started, each tool call and its end, and the
 * answer being written (throttled). `progress` only grows.
 */
export function progressListener(notify: Notify, now: () => number): QueryListener {
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
