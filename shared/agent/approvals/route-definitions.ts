import { createRoute } from '@hono/zod-openapi';
import { ApprovalParams, DecisionBody } from '../../approvals/index.js';
import { MEMBERS_OR_API_KEY, onAgent } from '../../http/placement.js';
import {
  authErrors,
  conflictError,
  errorResponse,
  jsonBody,
  jsonOrEventStream,
  notFoundError,
  validationErrors,
} from '../../http/schemas.js';
import { QueryResponseSchema } from '../schemas.js';

const tags = ['approvals'];

/** Deciding an approval: the paused query goes on, so it runs where the agent does. */
export const decisionRouteDefinitions = {
  decide: onAgent(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/approvals/{approval_id}',
      tags,
      summary: 'Approve or deny a tool call: the paused query goes on, and this answers its result',
      description:
        'Only the approvers of the workspace setting may decide (admins, or the person who asked). Approved, the tool runs with exactly the ' +
        'arguments shown; denied, the model is told. Streams like the query on `Accept: text/event-stream`.',
      request: { params: ApprovalParams, body: jsonBody(DecisionBody) },
      responses: {
        200: jsonOrEventStream(QueryResponseSchema, "the query's result after the decision (or its next pending approval)"),
        ...authErrors,
        403: errorResponse('may not decide this approval'),
        ...notFoundError,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
};
