import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { getConversation } from './detail.js';
import { closeConversation } from './lifecycle.js';
import { ownerOf } from './owners.js';
import { listConversations } from './list.js';

// A session, or the Bearer key of the workspace's api consumer.
import { conversationRouteDefinitions as routes } from './route-definitions.js';

export function conversationRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list.route, async (c) =>
      c.json(await listConversations(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('query')), 200),
    )
    .openapi(routes.detail.route, async (c) => {
      const { id, cid } = c.req.valid('param');
      return c.json(await getConversation(deps, orgIdOf(c), id, cid), 200);
    })
    .openapi(routes.close.route, async (c) => {
      const { id, cid } = c.req.valid('param');
      const principal = c.get('principal');
      // Members and api keys close only their own conversations; admins any.
      const requiredOwner = principal.role === 'admin' && !principal.apiKey ? undefined : ownerOf(principal);
      await closeConversation(deps, principal.orgId, id, cid, requiredOwner);
      return c.json({ status: 'closed' as const, message: `Conversation ${cid} is closed; its statistics are being generated` }, 200);
    });
}
