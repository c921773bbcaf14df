import { createRoute } from '@hono/zod-openapi';
import { ADMINS, onAgent, onApi } from '../http/placement.js';
import { StatusOkSchema, adminErrors, conflictError, jsonBody, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { ConnectionParams, CreateMcpBody, StdioCatalogueResponse, CreateMcpResponse, TestMcpBody, TestMcpResponse } from './schemas.js';

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
      description: 'http servers are reached now and their tools cached; stdio servers list their tools on the first query.',
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
