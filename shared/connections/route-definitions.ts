import { createRoute, z } from '@hono/zod-openapi';
import { ConnectionSchema, ToolSchema } from '../workspaces/index.js';
import { ADMINS, MEMBERS, PUBLIC, onAgent, onApi } from '../http/placement.js';
import {
  StatusOkSchema,
  adminErrors,
  authErrors,
  conflictError,
  errorResponse,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import {
  ConnectionParams,
  CreateMcpBody,
  UpdateMcpBody,
  StdioCatalogueResponse,
  CreateMcpResponse,
  TestMcpBody,
  TestMcpResponse,
  ToolsTruncatedSchema,
} from './schemas.js';

const tags = ['connections'];

/** The connector routes' definitions: light, so the API function can document them without the MCP code. */
export const connectionRouteDefinitions = {
  test: onAgent(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/connectors/mcp/test',
      tags,
      summary: 'Try an MCP server: connect, list its tools, disconnect (admin)',
      description: 'An unreachable server answers `ok: false` with the reason. A refused URL or command is a 400.',
      request: { body: jsonBody(TestMcpBody) },
      responses: {
        200: jsonResponse(TestMcpResponse, 'what the server offers, or why it could not be reached'),
        ...adminErrors,
        ...validationErrors,
      },
    }),
  ),
  save: onAgent(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/connectors/mcp',
      tags,
      summary: 'Connect an MCP server to a workspace (admin)',
      description:
        'The server is reached now and its tools cached. An http server that cannot be reached is a 400; a stdio server that cannot (or takes over 10 s) is saved with status error and last_error, its tools listed on the first query or a refresh.',
      request: { body: jsonBody(CreateMcpBody) },
      responses: {
        201: jsonResponse(CreateMcpResponse, 'saved'),
        ...adminErrors,
        ...validationErrors,
        ...notFoundError,
        ...conflictError,
      },
    }),
  ),
  update: onAgent(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/connections/{id}',
      tags,
      summary: 'Change a connection (admin): name, url, headers or env; reaches the server again and rediscovers its tools',
      description:
        'What is given replaces what was (a headers or env object as a whole; {} removes them). A server that cannot be reached with the new settings is a 400 and nothing changes.',
      request: { params: ConnectionParams, body: jsonBody(UpdateMcpBody) },
      responses: {
        200: jsonResponse(z.object({ connection: ConnectionSchema, tools_truncated: ToolsTruncatedSchema }), 'the connection as listed'),
        ...adminErrors,
        ...validationErrors,
        ...notFoundError,
        ...conflictError,
      },
    }),
  ),
  refresh: onAgent(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/connections/{id}/refresh',
      tags,
      summary: "List a connection's tools again and replace the cached ones (admin)",
      description:
        'At most 10 s. A server that cannot be reached keeps its tools and answers 200 with status error and last_error. A per-user connection is reached with your own grant.',
      request: { params: ConnectionParams },
      responses: {
        200: jsonResponse(
          z.object({ connection: ConnectionSchema, tools: z.array(ToolSchema), tools_truncated: ToolsTruncatedSchema }),
          'the connection as listed, with its tools (and why some were dropped or cut when last listed)',
        ),
        ...adminErrors,
        ...validationErrors,
        ...notFoundError,
      },
    }),
  ),
  authorize: onAgent(
    MEMBERS,
    createRoute({
      method: 'post',
      path: '/connections/{id}/authorize',
      tags,
      summary: "Start a new OAuth grant: the connection's own (admin), or your own of a per-user connection; answers the URL to open",
      request: { params: ConnectionParams },
      responses: {
        200: jsonResponse(z.object({ authorization_url: z.string() }), 'where to grant access'),
        ...authErrors,
        403: errorResponse("a member starting a grant of a connection's own (workspace) access"),
        ...validationErrors,
        ...notFoundError,
      },
    }),
  ),
  callback: onAgent(
    PUBLIC,
    createRoute({
      method: 'get',
      path: '/connectors/mcp/oauth/callback',
      tags,
      summary: "OAuth redirect URI: finishes a grant (the signed-in user who started it), lists the server's tools",
      description: 'Answers a small HTML page saying whether the connection is connected. The state is single use and lasts ten minutes.',
      request: {
        query: z.object({
          code: z.string().max(4096).optional(),
          state: z.string().max(256).optional(),
          error: z.string().max(256).optional(),
          error_description: z.string().max(1024).optional(),
        }),
      },
      responses: {
        200: { content: { 'text/html': { schema: z.string() } }, description: 'connected' },
        400: { content: { 'text/html': { schema: z.string() } }, description: 'the grant was refused or failed' },
        403: { content: { 'text/html': { schema: z.string() } }, description: 'another user started this grant' },
        404: { content: { 'text/html': { schema: z.string() } }, description: 'the link expired or was used' },
      },
    }),
  ),
  remove: onAgent(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/connections/{id}',
      tags,
      summary: 'Delete a connection and all its tools (admin)',
      request: { params: ConnectionParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
};

/** Served by every process (it reads only the configuration), so not one of the agent routes above. */
export const catalogueRoute = onApi(
  ADMINS,
  createRoute({
    method: 'get',
    path: '/connectors/mcp/catalogue',
    tags,
    summary: 'The stdio MCP servers the operator allows (admin)',
    description: 'A stdio connection is accepted only when its command and args equal one of these entries exactly (MCP_STDIO_SERVERS).',
    responses: { 200: jsonResponse(StdioCatalogueResponse, 'the catalogue'), ...adminErrors },
  }),
);
