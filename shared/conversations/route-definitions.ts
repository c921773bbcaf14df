import { MEMBERS_OR_API_KEY, onApi } from '../http/placement.js';
import { createRoute, z } from '@hono/zod-openapi';
import {
  WorkspaceParams,
  authErrors,
  conflictError,
  StatusOkSchema,
  errorResponse,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import {
  ConversationChangeBody,
  ConversationDetailSchema,
  ConversationListQuery,
  ConversationListResponse,
  ConversationParams,
  ConversationSchema,
  FeedbackBody,
  MessageParams,
} from './schemas.js';

// A session, or the Bearer key of the workspace's api consumer.

const tags = ['conversations'];
const readErrors = { ...authErrors, ...notFoundError, ...validationErrors };

export const conversationRouteDefinitions = {
  list: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/conversations',
      tags,
      summary: 'Conversations, newest activity first, with filters',
      request: { params: WorkspaceParams, query: ConversationListQuery },
      responses: { 200: jsonResponse(ConversationListResponse, 'one page of conversations'), ...readErrors },
    }),
  ),
  detail: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/conversations/{cid}',
      tags,
      summary: 'One conversation with its messages and stats',
      request: { params: ConversationParams },
      responses: { 200: jsonResponse(ConversationDetailSchema, 'the conversation'), ...readErrors },
    }),
  ),
  change: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'patch',
      path: '/workspaces/{id}/conversations/{cid}',
      tags,
      summary: 'Rename or pin a conversation in its starter’s chat history',
      description: 'Only the person who started it (403 for another who reads it, 404 for one who does not).',
      request: { params: ConversationParams, body: jsonBody(ConversationChangeBody) },
      responses: {
        200: jsonResponse(z.object({ conversation: ConversationSchema }), 'the conversation as changed'),
        ...readErrors,
        403: errorResponse('a conversation the caller reads but did not start'),
      },
    }),
  ),
  hide: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'delete',
      path: '/workspaces/{id}/conversations/{cid}',
      tags,
      summary: 'Delete a conversation from its starter’s chat history',
      description:
        'It leaves the `mine=true` list and its starter’s list; it stays stored for the audit (admins list it; a link opens it). Only its starter (403 / 404 otherwise).',
      request: { params: ConversationParams },
      responses: {
        200: jsonResponse(StatusOkSchema, 'deleted from the history'),
        ...readErrors,
        403: errorResponse('a conversation the caller reads but did not start'),
      },
    }),
  ),
  close: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/conversations/{cid}/close',
      tags,
      summary: 'Close an open or cold conversation; queues its statistics',
      description: 'Admins close any conversation; members and api keys only those they started (403 otherwise).',
      request: { params: ConversationParams },
      responses: {
        200: jsonResponse(z.object({ status: z.literal('closed'), message: z.string() }), 'closed'),
        ...readErrors,
        403: errorResponse('a member or api key closing a conversation it did not start'),
        ...conflictError,
      },
    }),
  ),
  feedback: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/conversations/{cid}/messages/{seq}/feedback',
      tags,
      summary: 'Rate an answer up or down; each rater’s last rating counts',
      description:
        'Any member rates any answer of the workspace; an api key only answers in its own conversations (another’s is 404). ' +
        'Rating a question rather than an answer is 400. Rating again replaces the rater’s rating (and comment).',
      request: { params: MessageParams, body: jsonBody(FeedbackBody) },
      responses: { 200: jsonResponse(StatusOkSchema, 'recorded'), ...readErrors },
    }),
  ),
};
