import { createRoute } from '@hono/zod-openapi';
import { MEMBERS_OR_API_KEY, onApi } from '../http/placement.js';
import { WorkspaceParams, authErrors, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { ApprovalListQuery, ApprovalListResponse } from './schemas.js';

const tags = ['approvals'];

/** Approvals of tool calls: the list, on the API function (deciding runs the agent: agent/approvals/route-definitions.ts). */
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
};
