import { ADMINS, MEMBERS, onApi } from '../http/placement.js';
import { createRoute, z } from '@hono/zod-openapi';
import {
  PaginationQuery,
  StatusOkSchema,
  WorkspaceParams,
  adminErrors,
  authErrors,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import {
  ActivityFiltersQuery,
  ActivityListQuery,
  FILTERED_PAGE_READ,
  EXPORT_ROWS,
  DayRangeQuery,
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
  PERMISSION_ROLES,
} from '../workspaces/index.js';
import { DashboardSchema } from './dashboard.js';

const tags = ['workspaces'];
const request = { params: WorkspaceParams };
const readErrors = { ...authErrors, ...notFoundError, ...validationErrors };
const ListWorkspacesQuery = z.object({
  include_archived: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .openapi({ description: 'true: archived workspaces too (status archived)' }),
});
const summaryResponse = (description: string) => jsonResponse(z.object({ workspace: WorkspaceSummarySchema }), description);
const nextCursor = z.string().nullable().openapi({ description: 'cursor of the next page; null on the last page' });

export const workspaceRouteDefinitions = {
  list: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces',
      tags,
      summary: 'Workspaces of your organisation, with counts and usage',
      description: 'Archived workspaces only with include_archived=true; deleted ones never.',
      request: { query: ListWorkspacesQuery },
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
  archive: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/archive',
      tags,
      summary: 'Archive a workspace (admin): it answers no queries (409) and leaves the default list; its data stays',
      request,
      responses: { 200: summaryResponse('the archived workspace'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
  unarchive: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/unarchive',
      tags,
      summary: 'Unarchive a workspace (admin): it answers again',
      request,
      responses: { 200: summaryResponse('the active workspace'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
  remove: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/workspaces/{id}',
      tags,
      summary: 'Delete a workspace and its configuration (admin)',
      description:
        'Its connections, tools, knowledge, guardrails, consumers (their keys stop working), channel bindings and evaluations go. Its conversations, audit log, approvals and counters stay stored but can no longer be reached; its id is not handed out again.',
      request,
      responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
  dashboard: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/dashboard',
      tags,
      summary: 'Dashboard metrics, from counters',
      description:
        'Charts the days from `from` to `to` (UTC dates, both included): the 30 days ending today unless asked, ending on `to` when only it is given, up to today when only `from` is; at most 90 days. Today and the last 7 days in the headline are always today’s.',
      request: { ...request, query: DayRangeQuery },
      responses: { 200: jsonResponse(DashboardSchema, 'the metrics'), ...readErrors },
    }),
  ),
  activity: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/activity',
      tags,
      summary: 'Audit log, newest first, filtered by days, user, tool and outcome',
      description: `The days (\`from\`, \`to\`) are a key condition; \`user\`, \`tool\` and \`errors\` filter the entries read, at most ${FILTERED_PAGE_READ} a page: a filtered page may hold fewer than \`limit\` entries (even none) and still have a \`next_cursor\`, so read on until it is null.`,
      request: { ...request, query: ActivityListQuery },
      responses: {
        200: jsonResponse(
          z.object({
            activity: z.array(ActivityEntrySchema),
            total: z
              .number()
              .int()
              .openapi({ description: 'all the queries ever asked of the workspace; with filters, the entries that match them' }),
            next_cursor: nextCursor,
          }),
          'one page of the audit log',
        ),
        ...readErrors,
      },
    }),
  ),
  activityCsv: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/activity.csv',
      tags,
      summary: 'The audit log as CSV, with the filters of the list',
      description: `A header row, then one row per entry, newest first (RFC 4180; a field starting with = + - @, a tab or a carriage return gets a leading \`'\`). At most ${EXPORT_ROWS} rows: an export cut short says \`X-Truncated: true\` (and so does one whose filters read 100 000 entries).`,
      request: { ...request, query: ActivityFiltersQuery },
      responses: {
        200: {
          description: 'the entries as a CSV attachment',
          headers: {
            'Content-Disposition': {
              schema: { type: 'string' },
              description: 'attachment; filename="activity-<workspace>-<from>-<to>.csv"',
            },
            'X-Truncated': { schema: { type: 'string' }, description: 'true when rows were left out' },
          },
          content: { 'text/csv': { schema: z.string() } },
        },
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
