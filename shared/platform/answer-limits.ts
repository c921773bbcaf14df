import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/*
 * Every byte read from a tool server or an OAuth server is counted while it is read. The MCP SDK
 * buffers a JSON-RPC answer whole (`response.json()`), an SSE event whole (its parser), an error
 * page whole (`response.text()`), and OAuth answers whole: one tool answering 300 MB took the
 * process from 297 MB to 1.3 GB before the result was cut to 100 000 characters. So the guarded
 * fetch (`url-policy.ts`) hands the SDK a body that stops as soon as the count passes the limit,
 * and cancels the server's body there, which lets its connection go: nothing larger is buffered.
 */

/** OAuth metadata, registration and token answers are documents of a few KiB: 64 KiB is far beyond any real one. */
export const OAUTH_MAX_ANSWER_BYTES = 64 * 1024;

/** What an answer may hold: a tool server's (`MCP_MAX_RESPONSE_BYTES`, per event of an event stream) or an OAuth server's. */
export interface AnswerLimit {
  kind: 'mcp' | 'oauth';
  bytes: number;
}

function messageOf(limit: AnswerLimit): string {
  return limit.kind === 'mcp'
    ? `the tool server's answer is over MCP_MAX_RESPONSE_BYTES (${limit.bytes} bytes)`
    : `the OAuth server's answer is over ${limit.bytes} bytes (OAuth metadata, registration and token answers are limited to 64 KiB)`;
}

/** An answer (or one event of an event stream) passed its limit while it was read; its body was cut there. */
export class AnswerTooLargeError extends Error {
  constructor(
    readonly limit: AnswerLimit,
    options?: ErrorOptions,
  ) {
    super(messageOf(limit), options);
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * Where the call's error says the limit (`data` of the JSON-RPC error the counting stream answers
 * in place of a cut event, below). Only a positive integer is read from it.
 */
const LIMIT_DATA_KEY = 'answer_limit_bytes';

/**
 * The reason to show when a failure is an answer over its limit, else undefined. Ours is either
 * thrown as it is (a JSON answer: the SDK's `response.json()` rejects with it) or comes back as
 * the JSON-RPC error our stream put in place of a cut event. A server could send such an error
 * itself; the reason is then still our own sentence with a number, never text a server sent.
 */
export function answerLimitReasonOf(error: unknown): string | undefined {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 16; cause = cause.cause, depth += 1) {
    if (cause instanceof AnswerTooLargeError) return cause.message;
    if (cause instanceof McpError && cause.code === ErrorCode.InternalError) {
      const data: unknown = cause.data;
      const bytes = typeof data === 'object' && data !== null && LIMIT_DATA_KEY in data ? data[LIMIT_DATA_KEY] : undefined;
      if (typeof bytes === 'number' && Number.isSafeInteger(bytes) && bytes > 0) return messageOf({ kind: 'mcp', bytes });
    }
  }
  return undefined;
}

type JsonRpcId = string | number;

/** The ids of the JSON-RPC requests in a request body (none for notifications, or a body that is not JSON-RPC). */
export function jsonRpcRequestIdsOf(body: string): JsonRpcId[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: JsonRpcId[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const id: unknown = typeof message === 'object' && message !== null && 'method' in message && 'id' in message ? message.id : undefined;
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  return ids;
}

/** How a request's answer is limited. */
export interface AnswerPolicy {
  limit: AnswerLimit;
  /** The JSON-RPC request the answer is to: read only when an event of the answer is cut, to answer its requests. */
  jsonRpcBody?: string;
}

/** A request for an event stream: a session's GET, which holds its connection as long as the session lives. */
export function wantsEventStream(init: RequestInit | undefined): boolean {
  return (init?.method ?? 'GET').toUpperCase() === 'GET' && (new Headers(init?.headers).get('accept') ?? '').includes('text/event-stream');
}

/**
 * The limit of the answer to a request the MCP transports send. Their protocol requests (a
 * JSON-RPC POST, the event stream's GET, a session's DELETE) get `MCP_MAX_RESPONSE_BYTES`; every
 * other request they make is OAuth's (discovery, registration, a token refresh on a 401), which
 * goes through the same fetch and gets the OAuth limit.
 */
export function answerPolicyOf(init: RequestInit | undefined, maxResponseBytes: number): AnswerPolicy {
  const method = (init?.method ?? 'GET').toUpperCase();
  const mcp: AnswerLimit = { kind: 'mcp', bytes: maxResponseBytes };
  // The SDK's JSON-RPC bodies are strings that name the protocol; OAuth's are forms or metadata.
  const body = init?.body;
  if (method === 'POST' && typeof body === 'string' && body.includes('"jsonrpc"')) return { limit: mcp, jsonRpcBody: body };
  if (method === 'DELETE' || wantsEventStream(init)) return { limit: mcp };
  return { limit: { kind: 'oauth', bytes: OAUTH_MAX_ANSWER_BYTES } };
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts an event stream's bytes per event. An event ends at an empty line (lines end with CRLF,
 * LF or CR, and a line end may be split between chunks), so a stream that lives long may carry
 * any amount in all, but no one event (which the SDK's parser holds whole) more than the limit.
 */
export class EventSizeCounter {
  private eventBytes = 0;
  private lineStart = true;
  private afterCr = false;

  constructor(private readonly limit: number) {}

  /** Whether the bytes read so far end at the start of a line. */
  get atLineStart(): boolean {
    return this.lineStart;
  }

  /** Counts a chunk; true when an event in it, or the event still being read, is over the limit. */
  add(chunk: Uint8Array): boolean {
    for (let index = 0; index < chunk.length; index += 1) {
      const byte = chunk[index];
      if (byte === LF && this.afterCr) {
        // The LF of a CRLF: the line already ended at the CR.
        this.afterCr = false;
        continue;
      }
      if (byte === LF || byte === CR) {
        if (this.lineStart) {
          if (this.eventBytes > this.limit) return true;
          this.eventBytes = 0;
        } else {
          this.eventBytes += 1;
        }
        this.lineStart = true;
        this.afterCr = byte === CR;
        continue;
      }
      this.eventBytes += 1;
      this.lineStart = false;
      this.afterCr = false;
    }
    return this.eventBytes > this.limit;
  }
}

/** The event type of the event our stream ends (and the SDK skips) when it cuts one short. */
const CUT_EVENT_TYPE = 'answer-too-large';

/**
 * What an event stream ends with when one of its events was cut: the part of the cut event that
 * was passed on is closed as an event of a type the SDK skips, then each request waiting on the
 * stream gets a JSON-RPC error naming the limit. Without it the SDK would only report the broken
 * stream to `onerror` and leave the calls waiting for their timeout.
 */
function closingEvents(lineStart: boolean, limit: AnswerLimit, requestIds: JsonRpcId[]): string {
  const error = { code: ErrorCode.InternalError, message: messageOf(limit), data: { [LIMIT_DATA_KEY]: limit.bytes } };
  const answers = requestIds.map((id) => `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n`);
  return `${lineStart ? '' : '\n'}event: ${CUT_EVENT_TYPE}\n\n${answers.join('')}`;
}

/** Counts the whole body (a JSON answer, an error page, anything read whole). */
class TotalCounter {
  private bytes = 0;
  readonly atLineStart = true;

  constructor(private readonly limit: number) {}

  add(chunk: Uint8Array): boolean {
    this.bytes += chunk.byteLength;
    return this.bytes > this.limit;
  }
}

function isEventStream(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return type.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

/**
 * The response with a body that counts its bytes as they are read and is cut past `policy`'s
 * limit. A tool server's event stream (a 2xx answered as `text/event-stream`, which the SDK reads
 * event by event) is counted per event; any other body in total, since it is read whole. A cut
 * cancels the server's body (and so lets its connection go), then errors the stream with an
 * `AnswerTooLargeError`, or for an event stream answering requests, ends it with their errors.
 *
 * The body is read a chunk at a time as the reader asks (a high-water mark of 0, so nothing is
 * read ahead), and the original Response is held until then: a Response dropped unread is still
 * collected and its body cancelled (undici's fetch does that).
 */
export function limitAnswer(response: Response, policy: AnswerPolicy): Response {
  const source = response.body;
  if (!source) return response;
  const perEvent = policy.limit.kind === 'mcp' && response.ok && isEventStream(response);
  const counter = perEvent ? new EventSizeCounter(policy.limit.bytes) : new TotalCounter(policy.limit.bytes);
  // Held with its body: collected before the body is read, the original would have it cancelled.
  const original = { response, body: source };
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const upstream = () => {
    reader ??= original.body.getReader();
    return reader;
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await upstream().read();
        if (done) return controller.close();
        const lineStart = counter.atLineStart;
        if (!counter.add(value)) return controller.enqueue(value);
        const error = new AnswerTooLargeError(policy.limit);
        await upstream()
          .cancel(error)
          .catch(() => undefined);
        const requestIds = perEvent && policy.jsonRpcBody ? jsonRpcRequestIdsOf(policy.jsonRpcBody) : [];
        if (requestIds.length === 0) return controller.error(error);
        controller.enqueue(new TextEncoder().encode(closingEvents(lineStart, policy.limit, requestIds)));
        controller.close();
      },
      cancel: (reason) => upstream().cancel(reason),
    },
    { highWaterMark: 0 },
  );
  const { status, statusText, headers } = original.response;
  return new Response(body, { status, statusText, headers });
}
