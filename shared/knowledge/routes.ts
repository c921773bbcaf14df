import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { createKnowledge, deleteKnowledge, updateKnowledge } from './knowledge.js';

import { knowledgeRouteDefinitions as routes } from './route-definitions.js';

export function knowledgeRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.create.route, async (c) => {
      const userId = c.get('principal').userId ?? '';
      const knowledge = await createKnowledge(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json'), userId);
      return c.json({ knowledge }, 201);
    })
    .openapi(routes.update.route, async (c) => {
      const { id, kid } = c.req.valid('param');
      return c.json({ knowledge: await updateKnowledge(deps, orgIdOf(c), id, kid, c.req.valid('json')) }, 200);
    })
    .openapi(routes.remove.route, async (c) => {
      const { id, kid } = c.req.valid('param');
      await deleteKnowledge(deps, orgIdOf(c), id, kid);
      return c.json({ status: 'ok' as const }, 200);
    });
}
