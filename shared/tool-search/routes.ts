import type { Deps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { toolSearchRouteDefinitions as routes } from './route-definitions.js';
import { searchWorkspaceTools } from './search.js';

export function toolSearchRoutes(deps: Deps) {
  return createRouter().openapi(routes.search.route, async (c) =>
    c.json(await searchWorkspaceTools(deps, c.get('principal'), c.req.valid('param').id, c.req.valid('query')), 200),
  );
}
