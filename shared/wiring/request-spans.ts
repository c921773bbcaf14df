import { httpInstrumentationMiddleware } from '@hono/otel';
import { trace } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { pathWithoutTokens } from './route-table.js';

const withoutTokens = pathWithoutTokens();

/**
 * The HTTP server span of each request (Hono's OpenTelemetry middleware: `GET /api/workspaces/:id`,
 * method, route, status), the parent of the query's spans. Its `url.full` is written without the
 * query string (the OAuth callback carries a code and a state there) and with a link's one-time
 * token in the path as `{token}`: no secret goes into a trace.
 */
export function requestSpans(): MiddlewareHandler[] {
  return [
    httpInstrumentationMiddleware({ serviceName: 'workspace-agent-proxy', captureActiveRequests: false }),
    async (c, next) => {
      const span = trace.getActiveSpan();
      if (span?.isRecording()) {
        const url = new URL(c.req.url);
        span.setAttribute('url.full', `${url.origin}${withoutTokens(url.pathname)}`);
      }
      await next();
    },
  ];
}
