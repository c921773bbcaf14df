import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { Schemas } from '../../../api/client';

export type QueryResponse = Schemas['QueryResponse'];
export type PendingApproval = NonNullable<Schemas['PendingApproval']>;

/**
 * The events of a streamed query or decision (docs/streaming.md, docs/approvals.md). The OpenAPI
 * document types the stream as one string, so the data of each event is typed here from the docs;
 * `done` reuses the generated answer (or, when storing failed, the error body).
 */
export type StreamEvent =
  | { event: 'start'; data: Pick<QueryResponse, 'conversation_id' | 'session_id'> }
  | { event: 'text'; data: { delta: string } }
  | { event: 'tool_call'; data: { id: string; name: string; connection: string | null; arguments?: string } }
  | { event: 'tool_result'; data: { id: string; name: string; is_error: boolean; duration_ms: number; found?: string[]; result?: string } }
  | { event: 'approval_required'; data: PendingApproval }
  | { event: 'done'; data: QueryResponse | Schemas['Error'] };

const KNOWN = new Set<string>(['start', 'text', 'tool_call', 'tool_result', 'approval_required', 'done']);

/** What `api.POST(…, { parseAs: 'stream' })` resolves to. */
export interface StreamAnswer {
  data?: Response['body'];
  error?: unknown;
  response: Response;
}

/**
 * Reads a streamed answer and calls `onEvent` for each event until `done`.
 * Throws the API's error body when the request was refused before the query started (a plain
 * JSON error with its status), or an Error when the stream ends without `done`.
 */
export async function readAnswer(answer: StreamAnswer, onEvent: (event: StreamEvent) => void): Promise<void> {
  const { data: body, error, response } = answer;
  if (!response.ok) throw error ?? new Error(`The service answered ${response.status}.`);
  if (!body) throw new Error('The service sent no answer.');
  // Without the event stream (a proxy that dropped the Accept header) the JSON answer is `done` itself.
  if (!response.headers.get('content-type')?.includes('text/event-stream')) {
    onEvent({ event: 'done', data: (await new Response(body).json()) as QueryResponse });
    return;
  }
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  let complete = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error('The answer stopped before it was complete. The conversation may still have it: open its transcript.');
      // Keep-alive comments are not events; unknown events are for newer consoles.
      if (!value.event || !KNOWN.has(value.event)) continue;
      const event = { event: value.event, data: JSON.parse(value.data) } as StreamEvent;
      onEvent(event);
      if (event.event === 'done') {
        complete = true;
        return;
      }
    }
  } finally {
    // After `done` the service ends the stream: read it to its end, so the request completes
    // rather than being cut (devtools shows a cut request as failed). Before it, hanging up stops
    // nothing on the service: the query is stored either way.
    if (complete) void readToEnd(reader);
    else void reader.cancel().catch(() => {});
  }
}

/** Reads what is left of a stream (nothing but its end, after `done`), then lets it go. */
async function readToEnd(reader: ReadableStreamDefaultReader<unknown>): Promise<void> {
  try {
    while (!(await reader.read()).done) {
      // Nothing follows `done`; a newer service's extra events are ignored.
    }
  } catch {
    // Aborted (a new conversation, the page left): nothing is waiting for it.
  } finally {
    reader.releaseLock();
  }
}

/** Whether `done` carries the query's answer (rather than the error body of a failed store). */
export function isAnswer(data: QueryResponse | Schemas['Error']): data is QueryResponse {
  return 'answer' in data;
}
