import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Deps } from '../deps.js';
import { TooManyRequestsError } from '../platform/errors.js';
import { clientErrorOf } from '../http/error-body.js';
import type { AppLogger } from '../platform/logger.js';
import { recordClientAddress, type ClientAddressOf } from '../http/client-address.js';
import { limitBodies } from '../http/middleware.js';
import { DOCUMENT_UPLOADS } from '../knowledge/index.js';
import { authenticate, limitRequestRate } from './authenticate.js';
import type { PlacedRoute } from '../http/placement.js';
import { API_PREFIX, ROUTE_TABLE, fullPath } from './route-table.js';
import { createRouter, type AppEnv } from '../http/router.js';
import { jsonResponse } from '../http/schemas.js';
import { requestSpans } from './request-spans.js';
import { tracingOn } from '../platform/tracing.js';

const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  tags: ['health'],
  summary: 'Liveness',
  responses: { 200: jsonResponse(z.object({ status: z.literal('ok') }), 'the service is up') },
});

/** Maps every error to `{ error }` and a status; anything unexpected is a 500 whose details go only to the log. */
function handleError(logger: AppLogger) {
  return (error: Error, c: Context<AppEnv>) => {
    const known = clientErrorOf(error);
    if (known) {
      if (error instanceof TooManyRequestsError) c.header('Retry-After', String(error.retryAfterSeconds));
      return c.json(known.body, known.status);
    }
    logger.error('unhandled error', { error, method: c.req.method, path: c.req.path });
    return c.json({ error: 'internal server error' }, 500);
  };
}

/**
 * Documents the routes this app does not serve through `openapi()`: the agent's, in a process
 * without them (the API function, which API Gateway never sends them to), and those served by hand.
 */
function documentUnmounted(app: OpenAPIHono<AppEnv>, carriesAgent: boolean) {
  const servedElsewhere = (entry: PlacedRoute) => entry.runs === 'agent' && !carriesAgent && entry.byHand === undefined;
  for (const entry of ROUTE_TABLE) {
    if (!servedElsewhere(entry) && entry.byHand !== 'all-methods') continue;
    const { middleware: _checks, ...route } = entry.route;
    app.openAPIRegistry.registerPath({ ...route, path: fullPath(entry) });
  }
}

/**
 * The routes this app serves must be the table's routes for its processes, no more and no fewer:
 * a route without a placement (or in the wrong domain's router) stops the process at start, in
 * every test, rather than 404ing on AWS.
 */
function checkPlacement(app: OpenAPIHono<AppEnv>, serves: readonly Runs[]) {
  const honoKey = (method: string, path: string) => `${method} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
  const expected = new Set(
    ROUTE_TABLE.filter((entry) => serves.includes(entry.runs)).map((entry) =>
      honoKey(entry.byHand === 'all-methods' ? 'ALL' : entry.route.method.toUpperCase(), fullPath(entry)),
    ),
  );
  const served = new Set(
    app.routes
      .filter((route) => route.path.startsWith(`${API_PREFIX}/`) && !route.path.endsWith('*'))
      .map((route) => honoKey(route.method, route.path)),
  );
  const unplaced = [...served].filter((key) => !expected.has(key));
  const unserved = [...expected].filter((key) => !served.has(key));
  if (unplaced.length + unserved.length > 0) {
    throw new Error(
      `the route table and the app disagree: served without a placement [${unplaced.join(', ')}]; placed but not served [${unserved.join(', ')}]`,
    );
  }
}

/** The OpenAPI document, which the API function serves (`/api/openapi.json`), and its security schemes. */
function document(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: "A consumer's API key (api, messaging, coding-agent), shown once when the consumer is connected",
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'cookieAuth', {
    type: 'apiKey',
    in: 'cookie',
    name: 'service_session',
    description: 'Session JWT set by POST /api/signup and POST /api/auth/login',
  });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Workspace agent proxy API',
      version: '0.1.0',
      description: 'Organisations define workspaces that answer questions by running a model over MCP tool servers.',
    },
  });
}

/** A domain's router and where it is mounted (`/api`, or SCIM's own path). */
export interface MountedRoutes {
  path: string;
  /** Any router the app can mount (SCIM's is a plain Hono of its own environment). */
  router: Hono<any, any, any>;
}

/** A router mounted under `/api`. */
export const atApi = (router: OpenAPIHono<AppEnv>): MountedRoutes => ({ path: API_PREFIX, router });

/** Which processes' routes an app serves (the route table's `runs`). */
type Runs = PlacedRoute['runs'];

export interface AppOptions {
  /**
   * The routers this process mounts, in order, chosen by its entry point (shared/wiring/api-routes.ts,
   * `agentRoutes` of shared/wiring/agent-routes.ts): a process imports only the domains it serves.
   */
  routes: MountedRoutes[];
  /**
   * Whose routes those are: the API function's, the agent's, or both (the local runtime). An app
   * that serves the API's also documents the agent's, for a function API Gateway never sends
   * them to (see docs/architecture.md).
   */
  serves: readonly Runs[];
  /** The request's source address, from the runtime (socket peer locally, API Gateway's source IP on AWS). */
  clientAddress?: ClientAddressOf;
}

/** The HTTP API. Runtimes wrap it: `@hono/node-server` locally, `hono/aws-lambda` on AWS. */
export function createApp(deps: Deps, options: AppOptions) {
  const app = createRouter();
  if (tracingOn()) app.use('*', ...requestSpans());
  app.use('*', secureHeaders({ crossOriginResourcePolicy: 'same-origin' }));
  app.use('/api/*', async (c, next) => {
    // Answers depend on who asks: never let a cache keep them. Set before the handler, so the
    // answer is made with it: a header set on a finished answer makes @hono/node-server build a
    // full Response and write it through a web stream, instead of writing its string at once.
    c.header('Cache-Control', 'no-store');
    await next();
    // An answer made without the prepared headers (a Response of its own) gets it now.
    if (c.res.headers.get('Cache-Control') !== 'no-store') c.header('Cache-Control', 'no-store');
  });
  app.use('/api/*', recordClientAddress(options.clientAddress), authenticate(deps), limitRequestRate(deps), limitBodies(DOCUMENT_UPLOADS));
  // The authorization server's endpoints count registrations per address (shared/oauth).
  app.use('/oauth/*', recordClientAddress(options.clientAddress));

  app.openapi(healthRoute, (c) => c.json({ status: 'ok' as const }, 200));
  for (const { path, router } of options.routes) app.route(path, router);

  if (options.serves.includes('api')) {
    document(app);
    documentUnmounted(app, options.serves.includes('agent'));
  }
  checkPlacement(app, options.serves);

  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));
  app.onError(handleError(deps.logger));
  return app;
}
