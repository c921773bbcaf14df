import { createRoute } from '@hono/zod-openapi';
import { ConsumerParams } from '../consumers/index.js';
import { ADMINS, onApi } from '../http/placement.js';
import { StatusOkSchema, adminErrors, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';

export const consumerRouteDefinitions = {
  revoke: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/connectors/consumer/{id}',
      tags: ['consumers'],
      summary:
        "Revoke a consumer (admin): its key stops working (within 5 s in every process); a team-chat consumer's channels are unbound",
      request: { params: ConsumerParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'revoked'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
};
