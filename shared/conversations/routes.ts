import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { WorkspaceParams, authErrors, conflictError, errorResponse, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { SESSION_OR_KEY } from '../http/schemas.js';
import { getConversation } from './detail.js';
import { closeConversation } from './lifecycle.js';
import { ownerOf } from './owners.js';
import { listConversations } from './list.js';
import { ConversationDetailSchema, ConversationListQuery, ConversationListResponse, ConversationParams } from './schemas.js';

// A session, or the Bearer key of the workspace's api consumer.
const security = SESSION_OR_KEY;
const tags = ['conversations'];
const readErrors = { ...authErrors, ...notFoundError, ...validationErrors };

const routes = {
  list: createRoute({
    method: 'get',
    path: '/workspaces/{id}/conversations',
    tags,
    summary: 'Conversations, newest activity first, with filters',
    security,
    request: { params: WorkspaceParams, query: ConversationListQuery },
    responses: { 200: jsonResponse(ConversationListResponse, 'one page of conversations'), ...readErrors },
  }),
  detail: createRoute({
    method: 'get',
    path: '/workspaces/{id}/conversations/{cid}',
    tags,
    summary: 'One conversation with its messages and stats',
    security,
    request: { params: ConversationParams },
    responses: { 200: jsonResponse(ConversationDetailSchema, 'the conversation'), ...readErrors },
  }),
  close: createRoute({
    method: 'post',
    path: '/workspaces/{id}/conversations/{cid}/close',
    tags,
    summary: 'Close an open or cold conversation; queues its statistics',
    description: 'Admins close any conversation; members and api keys only those they started (403 otherwise).',
    security,
    request: { params: ConversationParams },
    responses: {
      200: jsonResponse(z.object({ status: z.literal('closed'), message: z.string() }), 'closed'),
      ...readErrors,
      403: errorResponse('a member or api key closing a conversation it did not start'),
      ...conflictError,
    },
  }),
};

export function conversationRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list, async (c) =>
      c.json(await listConversations(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('query')), 200),
    )
    .openapi(routes.detail, async (c) => {
      const { id, cid } = c.req.valid('param');
      return c.json(await getConversation(deps, orgIdOf(c), id, cid), 200);
    })
    .openapi(routes.close, async (c) => {
      const { id, cid } = c.req.valid('param');
      const principal = c.get('principal');
      // Members and api keys close only their own conversations; admins any.
      const requiredOwner = principal.role === 'admin' && !principal.apiKey ? undefined : ownerOf(principal);
      await closeConversation(deps, principal.orgId, id, cid, requiredOwner);
      return c.json({ status: 'closed' as const, message: `Conversation ${cid} is closed; its statistics are being generated` }, 200);
    });
}
