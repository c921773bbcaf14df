import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { deleteConnection, saveConnection, testConnection } from './connections.js';
import { connectionRouteDefinitions } from './route-definitions.js';
import { updateConnection } from './update.js';

export function connectionRoutes(deps: Deps) {
  return createRouter()
    .openapi(connectionRouteDefinitions.test.route, async (c) => c.json(await testConnection(deps, c.req.valid('json')), 200))
    .openapi(connectionRouteDefinitions.save.route, async (c) => c.json(await saveConnection(deps, orgIdOf(c), c.req.valid('json')), 201))
    .openapi(connectionRouteDefinitions.update.route, async (c) =>
      c.json(await updateConnection(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(connectionRouteDefinitions.remove.route, async (c) => {
      await deleteConnection(deps, orgIdOf(c), c.req.valid('param').id);
      return c.json({ status: 'ok' as const }, 200);
    });
}
