import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { AgentEvent } from '../agent/events.js';
import type { QueryListener } from '../agent/query/types.js';
import type { AppLogger } from '../platform/logger.js';
import { clientErrorOf } from './error-body.js';
import type { AppEnv } from './router.js';

/**
 * A comment line every `heartbeatMs` keeps idle connections (and the proxies between) open; a
 * stream whose reader stopped reading is given up `giveUpAfterDoneMs` after its query finished.
 * Tests shorten both.
 */
export const sseTiming = { heartbeatMs: 15_000, giveUpAfterDoneMs: 10_000 };

/** Event streams being written now (each ends when its `done` is written, or is given up). */
export const sseStreams = { open: 0 };

/** True when the client asked for the streaming form (`Accept: text/event-stream`). */
export function wantsEventStream(c: Context<AppEnv>): boolean {
  return (c.req.header('accept') ?? '').toLowerCase().includes('text/event-stream');
}

interface StreamEvent {
  event: string;
  data: unknown;
}

/** Events queued for the stream, and a way to wait for the next one. */
class EventQueue {
  readonly events: StreamEvent[] = [];
  private wake: (() => void) | undefined;

  push(event: StreamEvent): void {
    this.events.push(event);
    this.wake?.();
  }

  next(): Promise<void> {
    return this.events.length ? Promise.resolve() : new Promise((resolve) => (this.wake = resolve));
  }
}

function eventOf(event: AgentEvent): StreamEvent {
  const { type, ...data } = event;
  return { event: type, data };
}

/** The streamed queries still running in this process (see `queriesSettled`). */
const runningQueries = new Set<Promise<unknown>>();

/**
 * Resolves once every streamed query started in this process has settled: finished and stored,
 * or failed. The stream function awaits it before returning, since Lambda freezes whatever is
 * still running when the handler returns (functions/stream/handler.ts).
 */
export async function queriesSettled(): Promise<void> {
  while (runningQueries.size) await Promise.allSettled(runningQueries);
}

/**
 * Work that goes on after its request is answered (an MCP tool call's audit entry, written once
 * the caller has its result): the process waits for it as for a streamed query (`queriesSettled`),
 * and a failure is only logged.
 */
export function afterAnswer(work: Promise<unknown>, onFailure: (error: unknown) => void): void {
  const running = work.catch(onFailure);
  runningQueries.add(running);
  void running.finally(() => runningQueries.delete(running));
}

/** Writes the queued events (and any that arrive meanwhile); true once `done` is written. */
async function drain(stream: SSEStreamingApi, queue: EventQueue): Promise<boolean> {
  for (let event = queue.events.shift(); event; event = queue.events.shift()) {
    await stream.writeSSE({ event: event.event, data: JSON.stringify(event.data) });
    if (event.event === 'done') return true;
  }
  return false;
}

/**
 * Runs a query for the streaming form: its events as Server-Sent Events (`start`, then `text`,
 * `tool_call`, `tool_result`…, last always `done` with the JSON body the plain request answers).
 *
 * The query runs apart from the response, and a client that goes away stops it (CONTRACT.md,
 * fourth round): the model call is aborted, tool calls not yet started do not start, and what was
 * answered is stored, marked `stopped` (`QueryListener.signal`). Until the query has passed its
 * checks (`start`), an error is a plain JSON error with its status, as for the plain request;
 * after it, the error is the `done` event's body.
 */
export async function streamQuery<T>(
  c: Context<AppEnv>,
  logger: AppLogger,
  run: (listener: QueryListener) => Promise<T>,
  answerOf: (result: T) => unknown,
): Promise<Response> {
  const queue = new EventQueue();
  let started!: () => void;
  const startedSignal = new Promise<void>((resolve) => (started = resolve));
  // The person stops the answer by going away: the request's own signal, or the stream's cancel.
  const stopping = new AbortController();
  const stop = () => stopping.abort();
  c.req.raw.signal?.addEventListener('abort', stop, { once: true });
  const query = run({
    onStart: (ids) => {
      queue.push({ event: 'start', data: ids });
      started();
    },
    onEvent: (event) => queue.push(eventOf(event)),
    signal: stopping.signal,
  });
  runningQueries.add(query);
  const forget = () => runningQueries.delete(query);
  void query.then(forget, forget);
  // Errors before the start are the route's own (404, 409, 429…), answered as JSON.
  await Promise.race([startedSignal, query]);
  const finished = query.then(
    (result) => ({ event: 'done', data: answerOf(result) }),
    (error: unknown) => {
      const known = clientErrorOf(error);
      if (!known) logger.error('streamed query failed', { error, path: c.req.path });
      return { event: 'done', data: known?.body ?? { error: 'internal server error' } };
    },
  );
  let finishedYet = false;
  void finished.then((done) => {
    finishedYet = true;
    queue.push(done);
  });
  return streamSSE(c, async (stream) => {
    sseStreams.open += 1;
    stream.onAbort(() => {
      // Given up after the query finished (below) stops nothing: it is done.
      if (!finishedYet) stop();
    });
    const heartbeat = setInterval(() => void stream.write(': keep-alive\n\n'), sseTiming.heartbeatMs);
    // A reader that stopped reading without cancelling (Lambda's response stream after the client
    // left) would hold the writes forever: once the query is done, it gets a while, then the
    // stream is aborted, which fails the pending writes and ends this loop.
    let giveUp: NodeJS.Timeout | undefined;
    void finished.then(() => {
      giveUp = setTimeout(() => stream.abort(), sseTiming.giveUpAfterDoneMs);
    });
    try {
      for (;;) {
        await queue.next();
        if ((await drain(stream, queue)) || stream.aborted) break;
      }
    } finally {
      clearInterval(heartbeat);
      clearTimeout(giveUp);
      sseStreams.open -= 1;
    }
  });
}
