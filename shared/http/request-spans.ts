import { httpInstrumentationMiddleware } from '@hono/otel';
import { trace } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';

/**
 * The HTTP server span of each request (Hono's OpenTelemetry middleware: `GET /api/workspaces/:id`,
 * method, route, status), the parent of the query's spans. Its `url.full` is written without the
 * query string: the OAuth callback carries a code and a state there, and no secret goes into a trace.
 */
export function requestSpans(): MiddlewareHandler[] {
  return [
    httpInstrumentationMiddleware({ serviceName: 'workspace-agent-proxy', captureActiveRequests: false }),
    async (c, next) => {
      const span = trace.getActiveSpan();
      if (span?.isRecording()) {
        const url = c.req.url;
        const query = url.indexOf('?');
        span.setAttribute('url.full', query === -1 ? url : url.slice(0, query));
      }
      await next();
    },
  ];
}
