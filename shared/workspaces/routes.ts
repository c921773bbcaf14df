import { createRoute, z } from '@hono/zod-openapi';
import { channelsOf } from '../chat/consumers.js';
import type { Deps } from '../deps.js';
import { requireAdmin } from '../http/middleware.js';
import { createRouter, orgIdOf } from '../http/router.js';
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
import {
  listActivity,
  listCompliance,
  connectionsFor,
  listConnections,
  listConsumers,
  listKnowledge,
  permissionsOf,
  readWorkspace,
  withChannels,
} from './children.js';
import { DashboardSchema, readDashboard } from './dashboard.js';
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
import { readWorkspaceStats } from './stats.js';
import { PERMISSION_ROLES, createWorkspace, getWorkspaceItem, listWorkspaces, setPermission, toSummary, updateWorkspace } from './workspaces.js';

const security = [{ cookieAuth: [] }];
const tags = ['workspaces'];
const request = { params: WorkspaceParams };
const readErrors = { ...authErrors, ...notFoundError, ...validationErrors };
const nextCursor = z.string().nullable().openapi({ description: 'cursor of the next page; null on the last page' });

const routes = {
  list: createRoute({
    method: 'get',
    path: '/workspaces',
    tags,
    summary: 'Workspaces of your organisation, with counts and usage',
    security,
    responses: { 200: jsonResponse(z.object({ workspaces: z.array(WorkspaceListItemSchema) }), 'the workspaces'), ...authErrors },
  }),
  create: createRoute({
    method: 'post',
    path: '/workspaces',
    tags,
    summary: 'Create a workspace (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { body: jsonBody(CreateWorkspaceBody) },
    responses: { 201: jsonResponse(CreateWorkspaceResponse, 'created'), ...adminErrors, ...validationErrors },
  }),
  summary: createRoute({
    method: 'get',
    path: '/workspaces/{id}/summary',
    tags,
    summary: 'Workspace configuration',
    security,
    request,
    responses: { 200: jsonResponse(z.object({ workspace: WorkspaceSummarySchema }), 'the workspace'), ...readErrors },
  }),
  detail: createRoute({
    method: 'get',
    path: '/workspaces/{id}',
    tags,
    summary: 'Workspace with its connections, tools, knowledge, guardrails, consumers, permissions and stats',
    security,
    request,
    responses: { 200: jsonResponse(WorkspaceDetailSchema, 'the workspace in detail'), ...readErrors },
  }),
  update: createRoute({
    method: 'put',
    path: '/workspaces/{id}',
    tags,
    summary: 'Update a workspace (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { ...request, body: jsonBody(UpdateWorkspaceBody) },
    responses: {
      200: jsonResponse(z.object({ workspace: WorkspaceSummarySchema }), 'the updated workspace'),
      ...adminErrors,
      ...notFoundError,
      ...validationErrors,
    },
  }),
  dashboard: createRoute({
    method: 'get',
    path: '/workspaces/{id}/dashboard',
    tags,
    summary: 'Dashboard metrics, from counters',
    security,
    request,
    responses: { 200: jsonResponse(DashboardSchema, 'the metrics'), ...readErrors },
  }),
  activity: createRoute({
    method: 'get',
    path: '/workspaces/{id}/activity',
    tags,
    summary: 'Audit log, newest first',
    security,
    request: { ...request, query: PaginationQuery },
    responses: {
      200: jsonResponse(
        z.object({ activity: z.array(ActivityEntrySchema), total: z.number().int(), next_cursor: nextCursor }),
        'one page of the audit log',
      ),
      ...readErrors,
    },
  }),
  connections: createRoute({
    method: 'get',
    path: '/workspaces/{id}/connections',
    tags,
    summary: 'MCP connections and their discovered tools',
    security,
    request,
    responses: {
      200: jsonResponse(z.object({ connections: z.array(ConnectionSchema), tools: z.array(ToolSchema) }), 'connections and tools'),
      ...readErrors,
    },
  }),
  consumers: createRoute({
    method: 'get',
    path: '/workspaces/{id}/consumers',
    tags,
    summary: 'Consumers (entry points) of the workspace',
    security,
    request,
    responses: { 200: jsonResponse(z.object({ consumers: z.array(ConsumerSchema) }), 'the consumers'), ...readErrors },
  }),
  knowledge: createRoute({
    method: 'get',
    path: '/workspaces/{id}/knowledge',
    tags,
    summary: 'Knowledge entries and the latest knowledge gaps',
    security,
    request,
    responses: {
      200: jsonResponse(z.object({ knowledge: z.array(KnowledgeEntrySchema), gaps: z.array(KnowledgeGapSchema) }), 'knowledge and gaps'),
      ...readErrors,
    },
  }),
  compliance: createRoute({
    method: 'get',
    path: '/workspaces/{id}/compliance',
    tags,
    summary: 'Guardrails and violations (violations paginated, newest first)',
    security,
    request: { ...request, query: PaginationQuery },
    responses: {
      200: jsonResponse(
        z.object({ guardrails: z.array(GuardrailSchema), violations: z.array(ViolationSchema), next_cursor: nextCursor }),
        'guardrails and one page of violations',
      ),
      ...readErrors,
    },
  }),
  permission: createRoute({
    method: 'put',
    path: '/workspaces/{id}/permissions/{role}',
    tags,
    summary: "Set the tool-name patterns a role may use (admin); '*' matches any run of characters",
    security,
    middleware: [requireAdmin] as const,
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
      200: jsonResponse(z.object({ permission: PermissionSchema }), 'the role\'s patterns'),
      ...adminErrors,
      ...notFoundError,
      ...validationErrors,
    },
  }),
};

export function workspaceRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list, async (c) => c.json({ workspaces: await listWorkspaces(deps, orgIdOf(c)) }, 200))
    .openapi(routes.create, async (c) => {
      const workspace = await createWorkspace(deps, orgIdOf(c), c.req.valid('json'));
      return c.json({ id: workspace.id, name: workspace.name, status: workspace.status }, 201);
    })
    .openapi(routes.summary, async (c) => {
      const item = await getWorkspaceItem(deps, orgIdOf(c), c.req.valid('param').id);
      return c.json({ workspace: toSummary(item) }, 200);
    })
    .openapi(routes.detail, async (c) => {
      const { id } = c.req.valid('param');
      const [{ workspace, children }, channels] = await Promise.all([readWorkspace(deps, orgIdOf(c), id), channelsOf(deps, id)]);
      const stats = await readWorkspaceStats(deps, workspace, id);
      const consumers = withChannels(children.consumers, channels);
      const connections = connectionsFor(c.get('principal').role, children.connections);
      return c.json({ workspace: toSummary(workspace), ...children, connections, consumers, permissions: permissionsOf(workspace), stats }, 200);
    })
    .openapi(routes.update, async (c) => {
      const workspace = await updateWorkspace(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ workspace }, 200);
    })
    .openapi(routes.dashboard, async (c) =>
      c.json(await readDashboard(deps, orgIdOf(c), c.req.valid('param').id), 200),
    )
    .openapi(routes.activity, async (c) =>
      c.json(await listActivity(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('query')), 200),
    )
    .openapi(routes.connections, async (c) =>
      c.json(await listConnections(deps, c.get('principal'), c.req.valid('param').id), 200),
    )
    .openapi(routes.consumers, async (c) =>
      c.json(await listConsumers(deps, orgIdOf(c), c.req.valid('param').id), 200),
    )
    .openapi(routes.knowledge, async (c) =>
      c.json(await listKnowledge(deps, orgIdOf(c), c.req.valid('param').id), 200),
    )
    .openapi(routes.permission, async (c) => {
      const { id, role } = c.req.valid('param');
      const permission = await setPermission(deps, orgIdOf(c), id, role, c.req.valid('json').tool_patterns);
      return c.json({ permission }, 200);
    })
    .openapi(routes.compliance, async (c) =>
      c.json(await listCompliance(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('query')), 200),
    );
}
