import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { createBudget, deleteBudget, listBudgets, updateBudget } from './budgets.js';
import { budgetRouteDefinitions as routes } from './route-definitions.js';

/** `/api/org/budgets` (API function). */
export function budgetRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list.route, async (c) => c.json(await listBudgets(deps, orgIdOf(c)), 200))
    .openapi(routes.create.route, async (c) => c.json({ budget: await createBudget(deps, orgIdOf(c), c.req.valid('json')) }, 201))
    .openapi(routes.update.route, async (c) =>
      c.json({ budget: await updateBudget(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json')) }, 200),
    )
    .openapi(routes.remove.route, async (c) => {
      await deleteBudget(deps, orgIdOf(c), c.req.valid('param').id);
      return c.json({ status: 'ok' as const }, 200);
    });
}
