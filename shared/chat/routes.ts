import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { bindChannel, unbindChannel } from './consumers.js';
import { chatRouteDefinitions } from './route-definitions.js';

export function chatRoutes(deps: Deps) {
  return createRouter()
    .openapi(chatRouteDefinitions.bindChannel.route, async (c) => c.json(await bindChannel(deps, orgIdOf(c), c.req.valid('json')), 200))
    .openapi(chatRouteDefinitions.unbindChannel.route, async (c) => {
      await unbindChannel(deps, orgIdOf(c), c.req.valid('param').channel_id);
      return c.json({ status: 'ok' as const }, 200);
    });
}
