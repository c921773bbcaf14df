import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import { listApprovals } from './approvals.js';
import { deciderOf, mayDecide } from './deciders.js';
import { approvalRouteDefinitions as routes } from './route-definitions.js';

/** `GET /api/workspaces/:id/approvals` (API function). */
export function approvalRoutes(deps: Deps) {
  return createRouter().openapi(routes.list.route, async (c) => {
    const { id } = c.req.valid('param');
    await getWorkspaceItem(deps, orgIdOf(c), id);
    const { status, ...page } = c.req.valid('query');
    const decider = deciderOf(c.get('principal'));
    return c.json(await listApprovals(deps, orgIdOf(c), id, status, page, (item) => mayDecide(item, decider)), 200);
  });
}
