import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { WorkspaceParams, authErrors, conflictError, jsonBody, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { runQuery, type QueryTiming } from './query.js';
import { QueryBody, QueryResponseSchema } from './schemas.js';

const queryRoute = createRoute({
  method: 'post',
  path: '/workspaces/{id}/query',
  tags: ['query'],
  summary: 'Ask the workspace: runs the agent loop over its MCP tools',
  description:
    'A failed query (an unreachable connection, a model error, the tool round limit) still answers 200, with `error` set. ' +
    'The `Server-Timing` header gives the time spent in the model, in tools, and in the service itself (overhead).',
  security: [{ cookieAuth: [] }],
  request: { params: WorkspaceParams, body: jsonBody(QueryBody) },
  responses: {
    200: jsonResponse(QueryResponseSchema, 'the answer, or the error that stopped the query'),
    ...authErrors,
    ...notFoundError,
    ...validationErrors,
    ...conflictError,
  },
});

export function serverTiming(timing: QueryTiming): string {
  const ms = (value: number) => value.toFixed(1);
  return `overhead;dur=${ms(timing.overheadMs)}, model;dur=${ms(timing.modelMs)}, tools;dur=${ms(timing.toolMs)}, total;dur=${ms(timing.totalMs)}`;
}

export function queryRoutes(deps: Deps) {
  return createRouter().openapi(queryRoute, async (c) => {
    const principal = c.get('principal');
    const { response, timing } = await runQuery(
      deps,
      { orgId: principal.orgId, role: principal.role, userName: principal.name, consumerType: 'api', channel: null },
      c.req.valid('param').id,
      c.req.valid('json'),
    );
    c.header('Server-Timing', serverTiming(timing));
    return c.json(response, 200);
  });
}
