import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { ValidationError } from '../platform/errors.js';
import { connectKeyConsumer } from '../consumers/index.js';
import { connectTeamChat, testTeamChatIntegration } from './connect.js';
import { chatAgentRouteDefinitions } from './route-definitions.js';

/** The consumer routes that call the team-chat API. */
export function chatAgentRoutes(deps: Deps) {
  return createRouter()
    .openapi(chatAgentRouteDefinitions.testIntegration.route, async (c) =>
      c.json(await testTeamChatIntegration(deps, c.req.valid('json').credentials.bot_token), 200),
    )
    .openapi(chatAgentRouteDefinitions.connectConsumer.route, async (c) => {
      const input = c.req.valid('json');
      const { type } = input;
      const orgId = orgIdOf(c);
      if (type === 'team-chat') return c.json(await connectTeamChat(deps, orgId, input), 201);
      if (Object.keys(input.credentials).length) {
        throw new ValidationError('invalid request body', [
          { path: 'credentials', message: `a ${input.type} consumer takes no credentials: {}` },
        ]);
      }
      return c.json(await connectKeyConsumer(deps, orgId, { ...input, type }), 201);
    });
}
