import { runQuery, type QueryListener } from './query.js';
import { streamQuery, wantsEventStream } from '../http/sse.js';
import type { Principal } from '../auth/index.js';
import { ownerOf } from '../conversations/index.js';
import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { ForbiddenError } from '../platform/errors.js';
import { answerMcpRequest } from './coding-agent.js';
import { answerPersonMcpRequest } from './gateway/index.js';
import { answerWithWaiting } from '../approvals/index.js';
import { consumerAgentRouteDefinitions } from './consumer-route-definitions.js';

function keyOf(principal: Principal, type: 'messaging' | 'coding-agent') {
  if (principal.apiKey?.type !== type) throw new ForbiddenError(`this endpoint takes the Bearer key of a ${type} consumer`);
  return principal.apiKey;
}

/** The consumer routes that run the agent: the messaging webhook and the workspace's MCP endpoint (a coding agent's key, or a person's token). */
export function consumerAgentRoutes(deps: Deps) {
  const router = createRouter().openapi(consumerAgentRouteDefinitions.message.route, async (c) => {
    const key = keyOf(c.get('principal'), 'messaging');
    const { user, text, thread_id } = c.req.valid('json');
    const ask = (listener?: QueryListener) =>
      runQuery(
        deps,
        { orgId: orgIdOf(c), role: 'member', userName: user, consumerType: 'messaging', channel: null, owner: ownerOf(c.get('principal')) },
        key.workspaceId,
        // Each thread of this consumer is one conversation.
        { query: text, session_id: `${key.consumerId}:${thread_id}` },
        listener,
      );
    if (wantsEventStream(c)) return streamQuery(c, deps.logger, ask, ({ response }) => ({ ...response, thread_id }));
    const { response } = await ask();
    // Nobody can press a button here: a pending approval is said in the answer.
    const answer = answerWithWaiting(key.workspaceId, response.answer, response.pending_approval);
    return c.json({ ...response, answer, thread_id }, 200);
  });
  router.all('/workspaces/:id/mcp', async (c) => {
    const principal = c.get('principal');
    // A person signed in through an MCP client (the gateway: their tools, and ask); else a coding-agent key (ask).
    if (principal.oauth) return answerPersonMcpRequest(deps, principal, c.req.param('id'), c.req.raw);
    const key = keyOf(principal, 'coding-agent');
    return answerMcpRequest(deps, principal, c.req.param('id'), key.consumerId, c.req.raw);
  });
  return router;
}
