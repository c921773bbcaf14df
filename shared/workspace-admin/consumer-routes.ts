import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { revokeConsumer } from './revoke-consumer.js';
import { consumerRouteDefinitions } from './consumer-route-definitions.js';

export function consumerRoutes(deps: Deps) {
  return createRouter().openapi(consumerRouteDefinitions.revoke.route, async (c) => {
    await revokeConsumer(deps, orgIdOf(c), c.req.valid('param').id);
    return c.json({ status: 'ok' as const }, 200);
  });
}
