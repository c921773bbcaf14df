import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { drainQueue, listFailedJobs, listQueues, retryAllFailed } from './ops.js';

import { queueRouteDefinitions as routes } from './route-definitions.js';

export function queueRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list.route, async (c) => c.json(await listQueues(deps, orgIdOf(c)), 200))
    .openapi(routes.failed.route, async (c) =>
      c.json(await listFailedJobs(deps, orgIdOf(c), c.req.valid('param').name, c.req.valid('query')), 200),
    )
    .openapi(routes.retryAll.route, async (c) => {
      const retried = await retryAllFailed(deps, orgIdOf(c), c.req.valid('param').name);
      return c.json({ status: 'ok' as const, retried }, 200);
    })
    .openapi(routes.drain.route, async (c) => {
      const removed = await drainQueue(deps, orgIdOf(c), c.req.valid('param').name);
      return c.json({ status: 'ok' as const, removed }, 200);
    });
}
