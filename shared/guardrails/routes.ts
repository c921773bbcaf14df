import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { createGuardrail, deleteGuardrail, updateGuardrail } from './guardrails.js';

import { guardrailRouteDefinitions as routes } from './route-definitions.js';

export function guardrailRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.create.route, async (c) => {
      const guardrail = await createGuardrail(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ guardrail }, 201);
    })
    .openapi(routes.update.route, async (c) => {
      const { id, gid } = c.req.valid('param');
      return c.json({ guardrail: await updateGuardrail(deps, orgIdOf(c), id, gid, c.req.valid('json')) }, 200);
    })
    .openapi(routes.remove.route, async (c) => {
      const { id, gid } = c.req.valid('param');
      await deleteGuardrail(deps, orgIdOf(c), id, gid);
      return c.json({ status: 'ok' as const }, 200);
    });
}
