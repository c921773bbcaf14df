import { createRoute } from '@hono/zod-openapi';
import { ADMINS, MEMBERS, onAgent, onApi } from '../http/placement.js';
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
import { z } from '@hono/zod-openapi';
import {
  BindChannelBody,
  ChannelParams,
  ChatLinkParams,
  ChatLinkRequestSchema,
  ChatLinkSchema,
  ChatLinksQuery,
  LinkRequestParams,
  ConnectConsumerBody,
  ConnectConsumerResponse,
  IntegrationTestBody,
  IntegrationTestResponse,
} from './schemas.js';

const tags = ['consumers'];

/** Routes that call the team-chat API: served by the agent function on AWS. */
export const chatAgentRouteDefinitions = {
  testIntegration: onAgent(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/org/integrations/test',
      tags: ['organisation'],
      summary: 'Test team-chat credentials with auth.test (admin)',
      description: 'A refused token answers `{ ok: false, error }`, not an error status.',
      request: { body: jsonBody(IntegrationTestBody) },
      responses: {
        200: jsonResponse(IntegrationTestResponse, 'the bot and team, or why the token was refused'),
        ...adminErrors,
        ...validationErrors,
      },
    }),
  ),
  connectConsumer: onAgent(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/connectors/consumer',
      tags,
      summary: 'Connect a consumer (entry point) to a workspace (admin)',
      description:
        'team-chat: checks and stores the bot and app tokens as organisation settings, creates the consumer, binds channel_id if given; ' +
        'the bridge connects within a minute. A refused token is a 400 naming it.',
      request: { body: jsonBody(ConnectConsumerBody) },
      responses: {
        201: jsonResponse(ConnectConsumerResponse, 'connected'),
        ...adminErrors,
        ...validationErrors,
        ...notFoundError,
        ...conflictError,
      },
    }),
  ),
};

/** Channel bindings: served by the API function. */
export const chatRouteDefinitions = {
  bindChannel: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/connectors/consumer/channel',
      tags,
      summary: 'Bind a team-chat channel to a workspace (admin)',
      description:
        'A channel belongs to one workspace: binding it to another is 409 naming the holder; binding it again to the same one is a no-op. ' +
        "A workspace without a team-chat consumer gets one when the organisation's bot is connected (400 when it is not).",
      request: { body: jsonBody(BindChannelBody) },
      responses: {
        200: jsonResponse(z.object({ status: z.literal('saved'), message: z.string() }), 'bound'),
        ...adminErrors,
        ...validationErrors,
        ...notFoundError,
        ...conflictError,
      },
    }),
  ),
  unbindChannel: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/connectors/consumer/channel/{channel_id}',
      tags,
      summary: 'Unbind a team-chat channel (admin)',
      request: { params: ChannelParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'unbound'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
};

const linkTags = ['team-chat'];
const unknownLink = { 404: errorResponse('unknown, expired (after 30 minutes) or of another organisation') } as const;
const usedLink = { 410: errorResponse('already used: each link works once') } as const;

/** Linking a chat account to a user of the service (docs/team-chat.md, "Who you are in chat"): served by the API function. */
export const chatLinkRouteDefinitions = {
  showLinkRequest: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/chat/link-requests/{token}',
      tags: linkTags,
      summary: 'What a link the bot sent would link: the chat user and team, and the organisation',
      description: 'Reading it does not use it up. Only a user of the organisation the bot belongs to sees it.',
      request: { params: LinkRequestParams },
      responses: {
        200: jsonResponse(z.object({ link_request: ChatLinkRequestSchema }), 'the chat account the link is for'),
        ...authErrors,
        ...validationErrors,
        ...unknownLink,
        ...usedLink,
      },
    }),
  ),
  confirmLinkRequest: onApi(
    MEMBERS,
    createRoute({
      method: 'post',
      path: '/chat/link-requests/{token}',
      tags: linkTags,
      summary: 'Link that chat account to yourself (once)',
      description:
        'The signed-in user becomes the user that chat account acts as in team chat: approval buttons and per-user grants go by it. ' +
        'The link works once; an earlier link of the same chat account is replaced.',
      request: { params: LinkRequestParams },
      responses: {
        201: jsonResponse(z.object({ link: ChatLinkSchema }), 'linked'),
        ...authErrors,
        ...validationErrors,
        ...unknownLink,
        ...usedLink,
      },
    }),
  ),
  listChatLinks: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/chat/links',
      tags: linkTags,
      summary: 'Your chat accounts linked to you (scope=org: every link of the organisation, admins)',
      request: { query: ChatLinksQuery },
      responses: {
        200: jsonResponse(z.object({ links: z.array(ChatLinkSchema) }), 'the links'),
        ...authErrors,
        ...validationErrors,
        403: errorResponse('scope=org by a member'),
      },
    }),
  ),
  unlinkChatAccount: onApi(
    MEMBERS,
    createRoute({
      method: 'delete',
      path: '/chat/links/{link_id}',
      tags: linkTags,
      summary: 'Unlink a chat account (your own; admins any of the organisation)',
      request: { params: ChatLinkParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'unlinked'), ...authErrors, ...validationErrors, ...notFoundError },
    }),
  ),
};
