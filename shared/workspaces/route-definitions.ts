import { ADMINS, MEMBERS, onApi } from '../http/placement.js';
import { createRoute, z } from '@hono/zod-openapi';
import {
  PaginationQuery,
  WorkspaceParams,
  adminErrors,
  authErrors,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import { DashboardSchema } from './dashboard.js';
import {
  ActivityEntrySchema,
  ConnectionSchema,
  ConsumerSchema,
  CreateWorkspaceBody,
  CreateWorkspaceResponse,
  GuardrailSchema,
  KnowledgeEntrySchema,
  KnowledgeGapSchema,
  PermissionSchema,
  ToolSchema,
  UpdateWorkspaceBody,
  ViolationSchema,
  WorkspaceDetailSchema,
  WorkspaceListItemSchema,
  WorkspaceSummarySchema,
} from './schemas.js';
import { PERMISSION_ROLES } from './workspaces.js';

const tags = ['workspaces'];
const request = { params: WorkspaceParams };
const readErrors = { ...authErrors, ...notFoundError, ...validationErrors };
const nextCursor = z.string().nullable().openapi({ description: 'cursor of the next page; null on the last page' });

export const workspaceRouteDefinitions = {
  list: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces',
      tags,
      summary: 'Workspaces of your organisation, with counts and usage',
      responses: { 200: jsonResponse(z.object({ workspaces: z.array(WorkspaceListItemSchema) }), 'the workspaces'), ...authErrors },
    }),
  ),
  create: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces',
      tags,
      summary: 'Create a workspace (admin)',
      request: { body: jsonBody(CreateWorkspaceBody) },
      responses: { 201: jsonResponse(CreateWorkspaceResponse, 'created'), ...adminErrors, ...validationErrors },
    }),
  ),
  summary: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/summary',
      tags,
      summary: 'Workspace configuration',
      request,
      responses: { 200: jsonResponse(z.object({ workspace: WorkspaceSummarySchema }), 'the workspace'), ...readErrors },
    }),
  ),
  detail: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}',
      tags,
      summary: 'Workspace with its connections, tools, knowledge, guardrails, consumers, permissions and stats',
      request,
      responses: { 200: jsonResponse(WorkspaceDetailSchema, 'the workspace in detail'), ...readErrors },
    }),
  ),
  update: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/workspaces/{id}',
      tags,
      summary: 'Update a workspace (admin)',
      request: { ...request, body: jsonBody(UpdateWorkspaceBody) },
      responses: {
        200: jsonResponse(z.object({ workspace: WorkspaceSummarySchema }), 'the updated workspace'),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
      },
    }),
  ),
  dashboard: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/dashboard',
      tags,
      summary: 'Dashboard metrics, from counters',
      request,
      responses: { 200: jsonResponse(DashboardSchema, 'the metrics'), ...readErrors },
    }),
  ),
  activity: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/activity',
      tags,
      summary: 'Audit log, newest first',
      request: { ...request, query: PaginationQuery },
      responses: {
        200: jsonResponse(
          z.object({ activity: z.array(ActivityEntrySchema), total: z.number().int(), next_cursor: nextCursor }),
          'one page of the audit log',
        ),
        ...readErrors,
      },
    }),
  ),
  connections: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/connections',
      tags,
      summary: 'MCP connections and their discovered tools',
      request,
      responses: {
        200: jsonResponse(z.object({ connections: z.array(ConnectionSchema), tools: z.array(ToolSchema) }), 'connections and tools'),
        ...readErrors,
      },
    }),
  ),
  consumers: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/consumers',
      tags,
      summary: 'Consumers (entry points) of the workspace',
      request,
      responses: { 200: jsonResponse(z.object({ consumers: z.array(ConsumerSchema) }), 'the consumers'), ...readErrors },
    }),
  ),
  knowledge: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/knowledge',
      tags,
      summary: 'Knowledge entries and the latest knowledge gaps',
      request,
      responses: {
        200: jsonResponse(z.object({ knowledge: z.array(KnowledgeEntrySchema), gaps: z.array(KnowledgeGapSchema) }), 'knowledge and gaps'),
        ...readErrors,
      },
    }),
  ),
  compliance: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/compliance',
      tags,
      summary: 'Guardrails and violations (violations paginated, newest first)',
      request: { ...request, query: PaginationQuery },
      responses: {
        200: jsonResponse(
          z.object({ guardrails: z.array(GuardrailSchema), violations: z.array(ViolationSchema), next_cursor: nextCursor }),
          'guardrails and one page of violations',
        ),
        ...readErrors,
      },
    }),
  ),
  permission: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/workspaces/{id}/permissions/{role}',
      tags,
      summary: "Set the tool-name patterns a role may use (admin); '*' matches any run of characters",
      request: {
        params: WorkspaceParams.extend({
          role: z.enum(PERMISSION_ROLES, { error: 'must be admin or member' }).openapi({ param: { name: 'role', in: 'path' } }),
        }),
        body: jsonBody(
          z
            .object({
              tool_patterns: z
                .array(z.string().regex(/^[A-Za-z0-9_*.-]{1,200}$/, 'a tool-name pattern: letters, digits, _ . - and *'))
                .max(100, 'at most 100 patterns'),
            })
            .openapi('PermissionRequest'),
        ),
      },
      responses: {
        200: jsonResponse(z.object({ permission: PermissionSchema }), "the role's patterns"),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
      },
    }),
  ),
};
