import type { Deps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { ValidationError } from '../platform/errors.js';
import { connectTeamChat, testTeamChatIntegration } from './connect.js';
import { chatAgentRouteDefinitions } from './route-definitions.js';

/** The consumer routes that call the team-chat API. */
export function chatAgentRoutes(deps: Deps) {
  return createRouter()
    .openapi(chatAgentRouteDefinitions.testIntegration, async (c) =>
      c.json(await testTeamChatIntegration(deps, c.req.valid('json').credentials.bot_token), 200),
    )
    .openapi(chatAgentRouteDefinitions.connectConsumer, async (c) => {
      const input = c.req.valid('json');
      if (input.type !== 'team-chat') {
        throw new ValidationError('invalid request body', [{ path: 'type', message: `${input.type} consumers are not available yet` }]);
      }
      return c.json(await connectTeamChat(deps, c.get('principal').orgId, input), 201);
    });
}
