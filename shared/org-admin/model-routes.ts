import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { saveModelKey } from './model-key.js';
import { modelAgentRouteDefinitions as routes } from './model-route-definitions.js';

/** The organisation's model settings, tested with the model before they are saved. */
export function modelAgentRoutes(deps: Deps) {
  return createRouter().openapi(routes.saveModelKey.route, async (c) => {
    await saveModelKey(deps, orgIdOf(c), c.req.valid('json'));
    return c.json({ status: 'ok' as const }, 200);
  });
}
