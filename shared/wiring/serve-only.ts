import { Hono } from 'hono';
import type { PlacedRoute } from '../http/placement.js';
import { routeMatcher } from './route-table.js';

/** What a runtime adapter calls: the app's `fetch`, with the runtime's environment (the Lambda event). */
interface FetchesRequests {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
}

/**
 * The app, answering only some routes of the route table. Their requests reach it untouched, with
 * the runtime's environment (so the client address is still the event's source IP), and go
 * through all of its middleware (authentication, limits). Any other request is the 404 the app
 * gives a route it does not have. The stream function serves only the streamable routes this way
 * (functions/stream/handler.ts): its function URL is public, and must not be a second door to the
 * rest of the API, which API Gateway throttles.
 */
export function serveOnly(app: FetchesRequests, entries: readonly PlacedRoute[]): Hono {
  const serves = routeMatcher(entries);
  return new Hono().all('*', (c) => {
    if (serves(c.req.method, c.req.path)) return app.fetch(c.req.raw, c.env);
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404);
  });
}
