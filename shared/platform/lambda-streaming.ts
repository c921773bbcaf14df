import type { StreamifyHandler } from 'aws-lambda';
import type { Hono } from 'hono';
import { streamHandle } from 'hono/aws-lambda';

/** The part of the Lambda runtime's `awslambda` global that is lent out below. */
type StreamingRuntime = { streamifyResponse: typeof awslambda.streamifyResponse };

/**
 * Hono's `streamHandle(app)`, except that the handler returns only once `settled()` has resolved,
 * after the response is served or has failed (a client that hung up makes the write fail, and
 * Hono's adapter then ends the stream and returns). Lambda freezes the execution environment when
 * the handler returns, so work still running then would never finish: a streamed query goes on
 * apart from its response (shared/http/sse.ts), and must be finished and stored first.
 *
 * `streamHandle` has no hook after the response, and returns its function already passed through
 * `awslambda.streamifyResponse`; the pieces it is made of (the event processors) are not exported.
 * So its inner function is taken by lending it, for that one synchronous call, a
 * `streamifyResponse` that hands the function back; the runtime's own then streamifies ours, which
 * calls it and waits. Hono's adapter is used unchanged (the request, headers, cookies, the body
 * piped to the response stream), and we rely on no detail of what the runtime's
 * `streamifyResponse` returns. Should a version of Hono stop calling it this way, the cold start
 * fails here rather than serving without the wait.
 */
export function streamHandleAwaiting(app: Hono, settled: () => Promise<void>): StreamifyHandler {
  const runtime: StreamingRuntime = awslambda;
  const streamify = runtime.streamifyResponse;
  let inner: StreamifyHandler | undefined;
  runtime.streamifyResponse = (handler) => {
    inner = handler;
    return handler;
  };
  try {
    streamHandle(app);
  } finally {
    runtime.streamifyResponse = streamify;
  }
  const serve = inner;
  if (!serve) throw new Error('hono/aws-lambda streamHandle did not pass its handler to awslambda.streamifyResponse');
  return streamify(async (event, responseStream, context) => {
    try {
      await serve(event, responseStream, context);
    } finally {
      await settled();
    }
  });
}
