import { Hono } from 'hono';
import { bearerToken } from '../shared/http/middleware.js';
import { sameSecret } from '../shared/platform/compare.js';
import { PROMETHEUS_CONTENT_TYPE } from '../shared/platform/metrics-prometheus.js';
import { pathOf } from './console.js';

/*
 * `GET /metrics` of the local runtime: the Prometheus text format of the in-process registry.
 * The numbers span every organisation of the deployment (their workspaces' queries, tokens and
 * cost), so they are the operator's: not behind a session or an API key of a tenant, but a token
 * of the operator's own (`METRICS_TOKEN`), which the scraper sends as `Authorization: Bearer …`.
 * Without it the route does not exist (404); a wrong or missing token is 401.
 */

/** Whether a request's URL is the metrics route (`/metrics`, with or without a query string). */
export function isMetricsUrl(url: string): boolean {
  const path = pathOf(url);
  return path === '/metrics' || path.startsWith('/metrics?');
}

/** The metrics app: `registry` renders the text; without a `token` the route answers 404. */
export function metricsApp(registry: { render(): string } | undefined, token: string | undefined) {
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
  });
  app.get('/metrics', (c) => {
    if (!registry || !token) return c.json({ error: 'no route for GET /metrics' }, 404);
    const presented = bearerToken(c.req.header('authorization'));
    if (presented === undefined || !sameSecret(presented, token)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json({ error: 'a valid metrics token is required' }, 401);
    }
    return c.body(registry.render(), 200, { 'Content-Type': PROMETHEUS_CONTENT_TYPE });
  });
  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));
  return app;
}
