import { createRoute } from '@hono/zod-openapi';
import {
  WorkspaceParams,
  authErrors,
  conflictError,
  jsonBody,
  jsonOrEventStream,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import { MEMBERS_OR_API_KEY, onAgent } from '../http/placement.js';
import { QueryBody, QueryResponseSchema } from './schemas.js';

/** The query route's definition: light, so the API function can document it without the agent's code. */
export const queryRouteDefinitions = {
  query: onAgent(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/query',
      tags: ['query'],
      summary: 'Ask the workspace: runs the agent loop over its MCP tools',
      description:
        'A failed query (an unreachable connection, a model error, the tool round limit) still answers 200, with `error` set. ' +
        'The `Server-Timing` header gives the time spent in the model, in tools, and in the service itself (overhead).',
      request: { params: WorkspaceParams, body: jsonBody(QueryBody) },
      responses: {
        200: jsonOrEventStream(QueryResponseSchema, 'the answer, or the error that stopped the query'),
        ...authErrors,
        ...notFoundError,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
};
