import { createRoute } from '@hono/zod-openapi';
import { requireAdmin } from '../http/middleware.js';
import { StatusOkSchema, adminErrors, conflictError, jsonBody, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { ConnectionParams, CreateMcpBody, StdioCatalogueResponse, CreateMcpResponse, TestMcpBody, TestMcpResponse } from './schemas.js';

const security = [{ cookieAuth: [] }];
const tags = ['connections'];

/** The connector routes' definitions: light, so the API function can document them without the MCP code. */
export const connectionRouteDefinitions = {
  test: createRoute({
    method: 'post',
    path: '/connectors/mcp/test',
    tags,
    summary: 'Try an MCP server: connect, list its tools, disconnect (admin)',
    description: 'An unreachable server answers `ok: false` with the reason. A refused URL or command is a 400.',
    security,
    middleware: [requireAdmin] as const,
    request: { body: jsonBody(TestMcpBody) },
    responses: { 200: jsonResponse(TestMcpResponse, 'what the server offers, or why it could not be reached'), ...adminErrors, ...validationErrors },
  }),
  save: createRoute({
    method: 'post',
    path: '/connectors/mcp',
    tags,
    summary: 'Connect an MCP server to a workspace (admin)',
    description: 'http servers are reached now and their tools cached; stdio servers list their tools on the first query.',
    security,
    middleware: [requireAdmin] as const,
    request: { body: jsonBody(CreateMcpBody) },
    responses: {
      201: jsonResponse(CreateMcpResponse, 'saved'),
      ...adminErrors,
      ...validationErrors,
      ...notFoundError,
      ...conflictError,
    },
  }),
  remove: createRoute({
    method: 'delete',
    path: '/connections/{id}',
    tags,
    summary: 'Delete a connection and all its tools (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: ConnectionParams },
    responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...adminErrors, ...notFoundError, ...validationErrors },
  }),
};

/** Served by every process (it reads only the configuration), so not one of the agent routes above. */
export const catalogueRoute = createRoute({
  method: 'get',
  path: '/connectors/mcp/catalogue',
  tags,
  summary: 'The stdio MCP servers the operator allows (admin)',
  description: 'A stdio connection is accepted only when its command and args equal one of these entries exactly (MCP_STDIO_SERVERS).',
  security,
  middleware: [requireAdmin] as const,
  responses: { 200: jsonResponse(StdioCatalogueResponse, 'the catalogue'), ...adminErrors },
});
