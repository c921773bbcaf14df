import { createRoute } from '@hono/zod-openapi';
import { ADMINS, onAgent } from '../http/placement.js';
import { StatusOkSchema, adminErrors, jsonBody, jsonResponse, validationErrors } from '../http/schemas.js';
import { SaveModelKeyBody } from '../models/index.js';

/** The organisation's model settings saved after a call to the model: served by the agent function on AWS, which has the model clients. */
export const modelAgentRouteDefinitions = {
  saveModelKey: onAgent(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/org/settings/model',
      tags: ['organisation'],
      summary: 'Test the model provider and key with a one-token call, then save them (admin)',
      description:
        'Saves `ai_provider` and `ai_api_key` (sealed) only when the call answers. A refused key, or a call that fails otherwise, ' +
        "is 400 with the provider's message in `details` (on `api_key`, or on `provider` for bedrock), and nothing is saved.",
      request: { body: jsonBody(SaveModelKeyBody) },
      responses: { 200: jsonResponse(StatusOkSchema, 'tested and saved'), ...adminErrors, ...validationErrors },
    }),
  ),
};
