import { createRoute, z } from '@hono/zod-openapi';
import { ConsumerParams } from '../consumers/index.js';
import { CODING_AGENT_KEY, MESSAGING_KEY, onAgent } from '../http/placement.js';
import { authErrors, jsonBody, jsonResponse, notFoundError, jsonOrEventStream, validationErrors, conflictError } from '../http/schemas.js';
import { QueryResponseSchema } from './schemas.js';

const MessageBody = z
  .object({
    user: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    text: z.string().trim().min(1, 'must not be empty').max(32_000, 'must be at most 32000 characters'),
    thread_id: z
      .string()
      .regex(/^[A-Za-z0-9._:@-]{1,90}$/, 'must be 1–90 characters of letters, digits and . _ : @ -')
      .openapi({ description: 'the conversation: messages with the same thread_id continue it' }),
  })
  .openapi('MessagingRequest');

/** Routes that run the agent (messaging webhook): served by the agent function on AWS. */
export const consumerAgentRouteDefinitions = {
  message: onAgent(
    MESSAGING_KEY,
    createRoute({
      method: 'post',
      path: '/consumers/{id}/messages',
      tags: ['consumers'],
      summary: 'Messaging consumer: a message of a thread in, the answer out (Bearer key of this consumer)',
      request: { params: ConsumerParams, body: jsonBody(MessageBody) },
      responses: {
        200: jsonOrEventStream(QueryResponseSchema.extend({ thread_id: z.string() }), 'the answer, or the error that stopped it'),
        ...authErrors,
        403: jsonResponse(z.object({ error: z.string() }), 'not a messaging key'),
        ...notFoundError,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
  // The coding agent's MCP endpoint speaks JSON-RPC (MCP streamable HTTP) on every method; documented by hand.
  mcp: onAgent(
    CODING_AGENT_KEY,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/mcp',
      tags: ['consumers'],
      summary: 'The workspace as an MCP server (streamable HTTP, stateless) with one tool, ask { question, session_id? }',
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: { description: 'a JSON-RPC response (MCP)' }, 401: { description: 'no valid coding-agent key' } },
    }),
    'all-methods',
  ),
};
