import { createRoute } from '@hono/zod-openapi';
import { QueryResponseSchema } from '../agent/schemas.js';
import { MEMBERS_OR_API_KEY, onAgent, onApi } from '../http/placement.js';
import {
  WorkspaceParams,
  authErrors,
  conflictError,
  errorResponse,
  jsonBody,
  jsonOrEventStream,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import { ApprovalListQuery, ApprovalListResponse, ApprovalParams, DecisionBody } from './schemas.js';

const tags = ['approvals'];

/** Approvals of tool calls: the list on the API function; deciding runs the agent loop on. */
export const approvalRouteDefinitions = {
  list: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/approvals',
      tags,
      summary: 'Approvals of tool calls, newest first (of one status, or all)',
      request: { params: WorkspaceParams, query: ApprovalListQuery },
      responses: {
        200: jsonResponse(ApprovalListResponse, 'the approvals and their total'),
        ...authErrors,
        ...notFoundError,
        ...validationErrors,
      },
    }),
  ),
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
