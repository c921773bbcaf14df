import { createRoute } from '@hono/zod-openapi';
import { ADMINS, onAgent, onApi } from '../http/placement.js';
import { StatusOkSchema, adminErrors, conflictError, jsonBody, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { z } from '@hono/zod-openapi';
import {
  BindChannelBody,
  ChannelParams,
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
