import type { Deps } from '../../deps.js';
import { createRouter } from '../../http/router.js';
import { streamQuery, wantsEventStream } from '../../http/sse.js';
import { decideApproval } from './decide.js';
import { deciderOf } from '../../approvals/index.js';
import { decisionRouteDefinitions as routes } from './route-definitions.js';

/** `POST /api/workspaces/:id/approvals/:approval_id`: runs the paused query on (agent function). */
export function approvalAgentRoutes(deps: Deps) {
  return createRouter().openapi(routes.decide.route, async (c) => {
    const { id, approval_id } = c.req.valid('param');
    const decide = (listener?: Parameters<typeof decideApproval>[5]) =>
      decideApproval(deps, deciderOf(c.get('principal')), id, approval_id, c.req.valid('json'), listener);
    if (wantsEventStream(c)) return streamQuery(c, deps.logger, decide, (result) => result.response);
    return c.json((await decide()).response, 200);
  });
}
