import { createRoute } from '@hono/zod-openapi';
import { ADMINS, MEMBERS, onApi } from '../http/placement.js';
import { StatusOkSchema, adminErrors, authErrors, jsonBody, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { ClientParams, ConnectedClientsSchema, ConsentRequestSchema, DecisionBody, DecisionSchema, InteractionParams } from './schemas.js';

/** The MCP gateway's consent (the console's `/oauth/consent/:uid`) and connected clients (docs/mcp-gateway.md). */
export const oauthRouteDefinitions = {
  consentRequest: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/oauth/interactions/{uid}',
      tags: ['mcp-gateway'],
      summary: 'What an MCP client asks to be allowed: the client, its redirect host and the workspace',
      request: { params: InteractionParams },
      responses: { 200: jsonResponse(ConsentRequestSchema, 'the request'), ...authErrors, ...notFoundError },
    }),
  ),
  decide: onApi(
    MEMBERS,
    createRoute({
      method: 'post',
      path: '/oauth/interactions/{uid}',
      tags: ['mcp-gateway'],
      summary: "Allow or deny an MCP client's access to the workspace; the browser then goes to redirect_to",
      request: { params: InteractionParams, body: jsonBody(DecisionBody) },
      responses: { 200: jsonResponse(DecisionSchema, 'decided'), ...authErrors, ...notFoundError, ...validationErrors },
    }),
  ),
  myClients: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/me/clients',
      tags: ['mcp-gateway'],
      summary: 'The MCP clients you connected, most recently used first',
      responses: { 200: jsonResponse(ConnectedClientsSchema, 'your clients'), ...authErrors },
    }),
  ),
  revokeMyClient: onApi(
    MEMBERS,
    createRoute({
      method: 'delete',
      path: '/me/clients/{id}',
      tags: ['mcp-gateway'],
      summary: 'Revoke one of your MCP clients: its tokens stop working',
      request: { params: ClientParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'revoked'), ...authErrors, ...notFoundError },
    }),
  ),
  orgClients: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/org/clients',
      tags: ['mcp-gateway'],
      summary: "Every MCP client connected by your organisation's people (admin)",
      responses: { 200: jsonResponse(ConnectedClientsSchema, 'the clients'), ...adminErrors },
    }),
  ),
  revokeOrgClient: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/org/clients/{id}',
      tags: ['mcp-gateway'],
      summary: "Revoke a person's MCP client (admin)",
      request: { params: ClientParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'revoked'), ...adminErrors, ...notFoundError },
    }),
  ),
};
