import { createRoute, z } from '@hono/zod-openapi';
import { MEMBERS, onApi } from '../http/placement.js';
import { WorkspaceParams, authErrors, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';

const tags = ['tools'];

/** `q` and `limit` of a tool search (docs/api-decisions.md, "Tool search"). */
const ToolSearchQuery = z.object({
  q: z
    .string({ error: 'q is required: the words to search the tools for' })
    .trim()
    .min(1, 'q must not be empty')
    .max(500, 'q must be at most 500 characters')
    .openapi({ example: 'create a support ticket' }),
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number from 1 to 50')
    .transform(Number)
    .pipe(z.number().int().min(1, 'limit must be at least 1').max(50, 'limit must be at most 50'))
    .optional()
    .openapi({ type: 'integer', example: 10, description: 'how many matches at most (1–50, default 10)' }),
});

const ToolMatchSchema = z
  .object({
    name: z
      .string()
      .openapi({ description: 'the name offered to the model (<connection>__<tool> where two connections share a tool name)' }),
    connection: z.string().openapi({ description: "the name of the tool's connection" }),
    description: z.string(),
    score: z.number().openapi({ description: 'relevance (BM25+), higher is better; comparable within one answer only' }),
  })
  .openapi('ToolMatch');

export const toolSearchRouteDefinitions = {
  // Served by the API function: it reads the cached tools and reaches no tool server.
  search: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/tools/search',
      tags,
      summary: "Search the workspace's tools you may use, best match first (the ranking the model's search_tools gets)",
      request: { params: WorkspaceParams, query: ToolSearchQuery },
      responses: {
        200: jsonResponse(z.object({ tools: z.array(ToolMatchSchema) }), 'the matching tools, best first'),
        ...authErrors,
        ...notFoundError,
        ...validationErrors,
      },
    }),
  ),
};
