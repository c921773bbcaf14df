import { createRoute, z, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { queryRoute } from '../agent/route-definitions.js';
import { authRoutes } from '../auth/routes.js';
import { connectionRouteDefinitions } from '../connections/route-definitions.js';
import { catalogueRoutes } from '../connections/catalogue-routes.js';
import { chatAgentRouteDefinitions } from '../chat/route-definitions.js';
import { chatRoutes } from '../chat/routes.js';
import { consumerAgentRouteDefinitions } from '../consumers/route-definitions.js';
import { consumerRoutes } from '../consumers/routes.js';
import { conversationRoutes } from '../conversations/routes.js';
import type { Deps } from '../deps.js';
import { queueRoutes } from '../jobs/routes.js';
import { guardrailRoutes } from '../guardrails/routes.js';
import { knowledgeRoutes } from '../knowledge/routes.js';
import { orgRoutes } from '../org/routes.js';
import { DomainError, TooManyRequestsError, ValidationError } from '../platform/errors.js';
import type { AppLogger } from '../platform/logger.js';
import { workspaceRoutes } from '../workspaces/routes.js';
import { recordClientAddress, type ClientAddressOf } from './client-address.js';
import { authenticate, limitBodies } from './middleware.js';
import { createRouter, type AppEnv } from './router.js';
import { jsonResponse } from './schemas.js';

const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  tags: ['health'],
  summary: 'Liveness',
  responses: { 200: jsonResponse(z.object({ status: z.literal('ok') }), 'the service is up') },
});

/** Maps every error to `{ error }` and a status; anything unexpected is a 500 whose details go only to the log. */
export function handleError(logger: AppLogger) {
  return (error: Error, c: Context<AppEnv>) => {
    if (error instanceof DomainError) {
      if (error instanceof TooManyRequestsError) c.header('Retry-After', String(error.retryAfterSeconds));
      const body = error instanceof ValidationError ? { error: error.message, details: error.details } : { error: error.message };
      return c.json(body, error.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      // Hono's own client errors: malformed JSON (400), unsupported media type (415).
      const message = error.message || 'bad request';
      const body = error.status === 400 ? { error: message, details: [{ path: '', message }] } : { error: message };
      return c.json(body, error.status);
    }
    logger.error('unhandled error', { error, method: c.req.method, path: c.req.path });
    return c.json({ error: 'internal server error' }, 500);
  };
}

export interface AppOptions {
  /**
   * The routes that run the agent (query, MCP connectors), given by the processes that carry it
   * (`agentRoutes` of `shared/agent/http.ts`). Without them the app still documents those routes,
   * for a function that API Gateway never sends them to (see docs/architecture.md).
   */
  agentRoutes?: (deps: Deps) => OpenAPIHono<AppEnv>[];
  /** The request's source address, from the runtime (socket peer locally, API Gateway's source IP on AWS). */
  clientAddress?: ClientAddressOf;
}

/** The HTTP API. Runtimes wrap it: `@hono/node-server` locally, `hono/aws-lambda` on AWS. */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const app = createRouter();
  app.use('*', secureHeaders({ crossOriginResourcePolicy: 'same-origin' }));
  app.use('/api/*', async (c, next) => {
    await next();
    // Answers depend on who asks: never let a cache keep them.
    c.header('Cache-Control', 'no-store');
  });
  app.use('/api/*', recordClientAddress(options.clientAddress), authenticate(deps), limitBodies());

  app.openapi(healthRoute, (c) => c.json({ status: 'ok' as const }, 200));
  app.route('/api', authRoutes(deps));
  app.route('/api', orgRoutes(deps));
  app.route('/api', workspaceRoutes(deps));
  app.route('/api', conversationRoutes(deps));
  app.route('/api', catalogueRoutes(deps));
  if (options.agentRoutes) {
    for (const router of options.agentRoutes(deps)) app.route('/api', router);
  } else {
    const documented: RouteConfig[] = [
      queryRoute,
      ...Object.values(connectionRouteDefinitions),
      ...Object.values(chatAgentRouteDefinitions),
      ...Object.values(consumerAgentRouteDefinitions),
    ];
    for (const { middleware: _servedByTheAgentFunction, ...route } of documented) {
      app.openAPIRegistry.registerPath({ ...route, path: `/api${route.path}` });
    }
  }
  app.route('/api', queueRoutes(deps));
  app.route('/api', chatRoutes(deps));
  app.route('/api', consumerRoutes(deps));
  app.route('/api', knowledgeRoutes(deps));
  app.route('/api', guardrailRoutes(deps));

  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: "A consumer's API key (api, messaging, coding-agent), shown once when the consumer is connected",
  });
  // The coding agent's MCP endpoint speaks JSON-RPC (MCP streamable HTTP), documented here by hand.
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/api/workspaces/{id}/mcp',
    tags: ['consumers'],
    summary: 'The workspace as an MCP server (streamable HTTP, stateless) with one tool, ask { question, session_id? }',
    security: [{ apiKey: [] }],
    request: { params: z.object({ id: z.string() }) },
    responses: { 200: { description: 'a JSON-RPC response (MCP)' }, 401: { description: 'no valid coding-agent key' } },
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

  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));
  app.onError(handleError(deps.logger));
  return app;
}
