import type { LookupFunction } from 'node:net';
import { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Dispatcher } from 'undici';
// undici's parts by their own paths (types/undici-parts.d.ts): its package entry would also bring
// its mock agents, caches, WebSocket and proxy agents into the Lambda bundles (200 KB minified).
import request from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import { fetch as undiciFetch } from 'undici/lib/web/fetch/index.js';

/*
 * A fetch over undici's `request` API, for the calls of the hot path: the model's (the SDK's
 * `fetch` option, `agent/anthropic.ts`) and the MCP transports' (`connections/url-policy.ts`).
 * About 330 KB of the Lambda bundles (undici's HTTP parser is WebAssembly), so both load this
 * file with their first request, not at a cold start.
 *
 * Why not fetch: undici's fetch runs the whole WHATWG algorithm, sends every body through a web
 * stream and an async generator (two writes a request), and on Node 20 makes each web stream
 * transferable; `request` writes a request in one go. An SDK call to the fake model took 0.75 ms
 * this way against 1.0 ms through fetch.
 *
 * What it does as fetch does: the method, headers and body as given; the caller's signal (an
 * abort rejects with the signal's reason, and cancels a body being read); a failed request rejects
 * with `TypeError('fetch failed')`, its cause the network error; the answer's status, status
 * text and headers, and its body as a web stream (none for 204, 205, 304 and HEAD). What it does
 * not: follow a redirect (as fetch with `redirect: 'manual'`, a 3xx is the answer), or ask for
 * compression (no `accept-encoding` is sent, so there is nothing to decode). A `Request` as input,
 * or a body that is not a string or bytes (a stream, a form, a blob), goes through undici's fetch,
 * with the same pool and no redirects either.
 */

type FetchInput = string | URL | Request;

/** Answers that have no body, whatever the server sent (the Response constructor refuses one). */
const NULL_BODY_STATUS = new Set([204, 205, 304]);

/** The body this fetch sends itself; anything else goes through undici's fetch. */
function plainBody(body: RequestInit['body']): string | Uint8Array | undefined | false {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return false;
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  // The SDKs pass a Headers already: read it as it is rather than copy it.
  (headers instanceof Headers ? headers : new Headers(headers)).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function responseHeaders(headers: Record<string, string | string[] | undefined>): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) result.append(name, each);
    else result.append(name, value);
  }
  return result;
}

/** What a `Request` holds, as fetch's options (undici's fetch knows only its own `Request` class). */
function requestInitOf(request: Request): RequestInit {
  const { method, headers, body, signal } = request;
  return { method, headers, signal, ...(body ? { body, duplex: 'half' } : {}) } as RequestInit;
}

/** What fetch rejects with when a request fails: `TypeError('fetch failed')`, its cause the reason. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

/** What fetch rejects with: the signal's reason when it was aborted, else a failed request. */
function fetchError(error: unknown, signal: RequestInit['signal']): unknown {
  return signal?.aborted ? (signal.reason ?? error) : fetchFailed(error);
}

/** A fetch that follows no redirect, whose requests go through `dispatcher` (its pool of keep-alive connections). */
export function createHttpFetch(dispatcher: Dispatcher): (input: FetchInput, init?: RequestInit) => Promise<Response> {
  const viaUndiciFetch = (input: string | URL, init: RequestInit) =>
    undiciFetch(input, { ...(init as object), redirect: 'manual', dispatcher } as never) as unknown as Promise<Response>;
  return async (input, init = {}) => {
    if (input instanceof Request) return viaUndiciFetch(input.url, { ...requestInitOf(input), ...init });
    const body = plainBody(init.body);
    if (body === false) return viaUndiciFetch(input, init);
    const url = new URL(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const answer = await request
      .call(dispatcher, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers: headerRecord(init.headers),
        body,
        signal: init.signal ?? undefined,
      })
      .catch((error: unknown) => {
        throw fetchError(error, init.signal);
      });
    try {
      return responseOf(answer, method);
    } catch (error) {
      // An answer no Response can hold (a status outside 200–599, a header or reason it refuses):
      // a failed request, whose connection is let go rather than left holding an unread body.
      discard(answer.body);
      throw fetchFailed(error);
    }
  };
}

/**
 * Cancels the body of a Response that was dropped before anyone began to read it, as undici's
 * fetch does: its connection is let go instead of being held by the unread body. A body being
 * read (its stream locked to a reader or a pipe) is left alone.
 */
const dropped = new FinalizationRegistry<{ body: AnswerBody; stream: WeakRef<ReadableStream<Uint8Array>> }>(({ body, stream }) => {
  const reading = stream.deref();
  // Gone with the Response: nobody can read the body.
  if (!reading) discard(body);
  else if (!reading.locked) reading.cancel().catch(() => undefined);
});

type AnswerBody = Dispatcher.ResponseData['body'];

/**
 * Lets an answer's body go, unless it is done already: destroyed, and the abort error undici's
 * body then emits heard here (an error event nobody listens to is an uncaught exception).
 */
function discard(body: AnswerBody): void {
  if (body.destroyed || body.readableEnded) return;
  body.on('error', () => undefined);
  body.destroy();
}

/** The web Response of an answer; throws for one a Response cannot hold. */
function responseOf(answer: Dispatcher.ResponseData, method: string): Response {
  if (answer.statusCode < 200 || answer.statusCode > 599) throw new RangeError(`status ${answer.statusCode} out of range`);
  const init = { status: answer.statusCode, statusText: answer.statusText ?? '', headers: responseHeaders(answer.headers) };
  if (method === 'HEAD' || NULL_BODY_STATUS.has(answer.statusCode)) {
    const response = new Response(null, init);
    answer.body.resume();
    return response;
  }
  // Not Readable.toWeb: on Node 20 its adapter can still push a chunk into a stream that was
  // cancelled, which throws where nothing catches it. ReadableStream.from pulls a chunk at a
  // time, and a cancel ends the iteration (which destroys the body).
  const stream = NodeReadableStream.from(answer.body) as unknown as ReadableStream<Uint8Array>;
  const response = new Response(stream, init);
  dropped.register(response, { body: answer.body, stream: new WeakRef(stream) });
  return response;
}

/**
 * A fetch over a pool of its own, whose connections resolve host names with `lookup` (the system's
 * by default) and number at most `connections` per origin (requests beyond wait in undici's
 * queue; unbounded by default); `close` closes them.
 */
export function createAgentFetch(lookup?: LookupFunction, pool: { connections?: number } = {}) {
  const agent = new Agent({ ...(lookup ? { connect: { lookup } } : {}), ...(pool.connections ? { connections: pool.connections } : {}) });
  return { fetch: createHttpFetch(agent), close: () => agent.close() };
}

export type AgentFetch = ReturnType<typeof createAgentFetch>;
